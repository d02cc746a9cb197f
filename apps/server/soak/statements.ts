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

/**
 * Counts every top-level query of `client`: those through `query()` (writes, transactions), and the
 * SELECTs the server runs as named statements (db/pglite-statements.ts), which go to
 * `execProtocol()` as a Bind of the name: counted there under the text the name was parsed with.
 */
export function countPglite(client: PGlite): StatementCounter {
  const { add, api } = counter();
  const query = client.query.bind(client);
  client.query = (async (text: string, params?: unknown[], options?: unknown) => {
    const t = performance.now();
    const result = await query(text, params, options as never);
    add(text, result.rows.length, result.fields.length, performance.now() - t);
    return result;
  }) as PGlite["query"];
  const texts = new Map<string, string>();
  const execProtocol = client.execProtocol.bind(client);
  client.execProtocol = (async (message: Uint8Array, options?: Parameters<PGlite["execProtocol"]>[1]) => {
    const t = performance.now();
    const result = await execProtocol(message, options ?? {});
    for (const m of frontendMessages(message)) {
      // PGlite's own query() uses the unnamed statement; only the server's named ones are new here.
      if (m.type === "P" && m.strings[0]) texts.set(m.strings[0], m.strings[1] ?? "");
      if (m.type === "B" && m.strings[1]) {
        const rows = result.messages.filter((r) => r.name === "dataRow") as unknown as { fieldCount: number }[];
        add(texts.get(m.strings[1]) ?? `(statement ${m.strings[1]})`, rows.length, rows[0]?.fieldCount ?? 0, performance.now() - t);
      }
    }
    return result;
  }) as PGlite["execProtocol"];
  return api;
}

/** The frontend messages in `bytes` (type, then its first two strings: Parse's name and text, Bind's portal and statement). */
function frontendMessages(bytes: Uint8Array): { type: string; strings: string[] }[] {
  const out: { type: string; strings: string[] }[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  for (let at = 0; at + 5 <= bytes.length; ) {
    const type = String.fromCharCode(bytes[at]!);
    const end = at + 1 + view.getInt32(at + 1);
    const strings: string[] = [];
    let from = at + 5;
    for (let i = 0; i < 2 && (type === "P" || type === "B"); i++) {
      const zero = bytes.indexOf(0, from);
      if (zero < 0 || zero >= end) break;
      strings.push(decoder.decode(bytes.subarray(from, zero)));
      from = zero + 1;
    }
    out.push({ type, strings });
    at = end;
  }
  return out;
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
