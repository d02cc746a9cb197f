// SOAK_STATEMENTS=1: which statements the server runs during the soak, how often and how many rows
// and cells each brings back (on PGlite every cell is decoded on the server's own thread, so cells
// are what a profile's "PGlite parsing results" is made of). A measuring aid, off by default.
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";

interface Tally {
  calls: number;
  rows: number;
  cells: number;
  /** From the call to its answer, waiting for the database included. */
  ms: number;
}

export interface StatementCounter {
  /** Forgets what was counted (the group's setup), so the table is the soak's alone. */
  reset(): void;
  /** The statements by cells decoded, most first, as a Markdown table. */
  table(seconds: number, top?: number): string;
}

function counter() {
  const tallies = new Map<string, Tally>();
  const add = (text: string, rows: number, fields: number, ms: number) => {
    const key = text.replace(/\s+/g, " ").slice(0, 160);
    const t = tallies.get(key) ?? { calls: 0, rows: 0, cells: 0, ms: 0 };
    t.calls++;
    t.rows += rows;
    t.cells += rows * fields;
    t.ms += ms;
    tallies.set(key, t);
  };
  const api: StatementCounter = {
    reset: () => tallies.clear(),
    table(seconds, top = 15) {
      const all = [...tallies].sort((a, b) => b[1].cells - a[1].cells);
      const total = all.reduce((s, [, t]) => ({ calls: s.calls + t.calls, cells: s.cells + t.cells }), { calls: 0, cells: 0 });
      const lines = [`statements: ${total.calls} (${Math.round(total.calls / seconds)}/s), ${total.cells} cells (${Math.round(total.cells / seconds)}/s)`, "| calls/s | rows/call | cells/s | ms/call | statement |", "|---|---|---|---|---|"];
      for (const [text, t] of all.slice(0, top)) {
        lines.push(`| ${(t.calls / seconds).toFixed(1)} | ${(t.rows / t.calls).toFixed(1)} | ${Math.round(t.cells / seconds)} | ${(t.ms / t.calls).toFixed(1)} | \`${text.replaceAll("|", "\\|")}\` |`);
      }
      return lines.join("\n");
    },
  };
  return { add, api };
}

/** Counts every top-level query of `client` (drizzle's, and the named statements' binds are not queries: the caller's lookup is counted by auth's own statement text only when first prepared). */
export function countPglite(client: PGlite): StatementCounter {
  const { add, api } = counter();
  const query = client.query.bind(client);
  client.query = (async (text: string, params?: unknown[], options?: unknown) => {
    const t = performance.now();
    const result = await query(text, params, options as never);
    add(text, result.rows.length, result.fields.length, performance.now() - t);
    return result;
  }) as PGlite["query"];
  return api;
}

/** Counts every query through `pool` (drizzle's node-postgres driver calls `pool.query` with a config object). */
export function countPool(pool: pg.Pool): StatementCounter {
  const { add, api } = counter();
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  (pool as unknown as { query: unknown }).query = async (...args: unknown[]) => {
    const t = performance.now();
    const result = await query(...args);
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text;
    add(text, result.rows.length, result.fields.length, performance.now() - t);
    return result;
  };
  return api;
}
