import type { DailyRate } from "@groupledger/domain";

export class RatesSourceError extends Error {
  override name = "RatesSourceError";
}

/** JSON numbers as decimal text without exponents (tiny rates print as 6.7e-7 otherwise). */
const numberText = (n: number) => (/e/i.test(String(n)) ? n.toFixed(10) : String(n));

/**
 * Daily reference rates, units of `to` per one `from`, from an ECB-based API in the Frankfurter
 * format: GET {base}/{start}..{end}?from=GBP&to=USD → {"rates":{"2026-10-01":{"USD":1.2731}}}.
 */
export async function fetchDailyRates(
  source: { baseUrl: string; fetch: typeof fetch },
  from: string,
  to: string,
  start: string,
  end: string,
): Promise<DailyRate[]> {
  const url = `${source.baseUrl}/${start}..${end}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  let res: Response;
  try {
    res = await source.fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(30_000) });
  } catch (err) {
    throw new RatesSourceError(`the rates service could not be reached (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!res.ok) throw new RatesSourceError(`the rates service answered ${res.status} for ${from}→${to}`);
  const body = (await res.json().catch(() => null)) as { rates?: Record<string, Record<string, unknown>> } | null;
  if (!body || typeof body.rates !== "object" || body.rates === null) throw new RatesSourceError("the rates service sent an answer without rates");
  const daily: DailyRate[] = [];
  for (const [date, quotes] of Object.entries(body.rates)) {
    const value = quotes?.[to];
    if (typeof value !== "number" || !(value > 0)) throw new RatesSourceError(`the rates service sent no usable ${to} rate for ${date}`);
    daily.push({ date, rate: numberText(value) });
  }
  return daily;
}
