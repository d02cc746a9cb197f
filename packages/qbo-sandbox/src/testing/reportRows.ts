/** Report JSON rows as the tests walk them: the first row, at any depth, that a test picks. */
export type Cell = { value: string; id?: string };
export type WireRow = { type?: string; group?: string; ColData?: Cell[]; Header?: { ColData: Cell[] }; Summary?: { ColData: Cell[] }; Rows?: { Row: WireRow[] } };

export function findRow(rows: readonly WireRow[], test: (r: WireRow) => boolean): WireRow | undefined {
  for (const r of rows) {
    if (test(r)) return r;
    const inner = findRow(r.Rows?.Row ?? [], test);
    if (inner !== undefined) return inner;
  }
  return undefined;
}
