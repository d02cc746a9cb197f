/** Calendar months as "YYYY-MM" strings, which sort and compare as text. */

export const monthOf = (date: string | Date): string =>
  typeof date === "string" ? date.slice(0, 7) : `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;

export function addMonths(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

export function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split("-").map(Number) as [number, number];
  const [ty, tm] = to.split("-").map(Number) as [number, number];
  return ty * 12 + tm - (fy * 12 + fm) + 1;
}

export function lastDayOf(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
}

/** [from, to] cut into consecutive spans of at most `size` months. */
export function chunkMonths(from: string, to: string, size: number): { from: string; to: string }[] {
  const chunks: { from: string; to: string }[] = [];
  for (let start = from; start <= to; start = addMonths(start, size)) {
    const end = addMonths(start, size - 1);
    chunks.push({ from: start, to: end < to ? end : to });
  }
  return chunks;
}
