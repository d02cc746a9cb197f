import { type AnyColumn, sql, type SQL } from "drizzle-orm";
import { lastDayOfMonth, shiftMonth } from "@groupledger/domain";

/** [from, to] ("YYYY-MM", both included) cut into consecutive spans of at most `size` months: the sync's report chunks. */
export function chunkMonths(from: string, to: string, size: number): { from: string; to: string }[] {
  const chunks: { from: string; to: string }[] = [];
  for (let start = from; start <= to; start = shiftMonth(start, size)) {
    const end = shiftMonth(start, size - 1);
    chunks.push({ from: start, to: end < to ? end : to });
  }
  return chunks;
}

/** The rows of a date `column` in a chunk's months: what a chunk's sync replaces. */
export const inChunk = (column: AnyColumn, chunk: { from: string; to: string }): SQL => sql`${column} between ${`${chunk.from}-01`} and ${lastDayOfMonth(chunk.to)}`;

