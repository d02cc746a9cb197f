/**
 * An offline stand-in for an ECB-based FX API (the Frankfurter format): daily reference rates
 * derived from the demo group's monthly history, so fetching rates works with no internet.
 * `GET {root}/fx/{start}..{end}?from=GBP&to=USD` →
 * `{"amount":1.0,"base":"GBP","start_date":...,"end_date":...,"rates":{"2026-10-01":{"USD":1.2731}}}`.
 */
import type { FastifyInstance } from "fastify";
import { addMonths, isIsoDate } from "../calendar.ts";
import { demoFxRates } from "../demo/fx.ts";

const USD_PER = new Map<string, { average: number; closing: number }>();
for (const r of demoFxRates()) USD_PER.set(`${r.currency}:${r.month}`, { average: Number(r.average), closing: Number(r.closing) });
const KNOWN = new Set(["USD", "GBP", "CAD", "EUR"]);

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** Weekdays of a month, the days a reference rate is published. */
function businessDays(month: string): string[] {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const days: string[] = [];
  for (let d = new Date(Date.UTC(y, m - 1, 1)); d.getUTCMonth() === m - 1; d = new Date(d.getTime() + 86_400_000)) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) days.push(isoDate(d));
  }
  return days;
}

/**
 * USD per unit of `currency` on each business day of `month`: the last day is the month-end rate
 * and the others are spread so that their mean is the month's average.
 */
function dailyUsdPer(currency: string, month: string): Map<string, number> | null {
  const days = businessDays(month);
  if (currency === "USD") return new Map(days.map((d) => [d, 1]));
  const monthly = USD_PER.get(`${currency}:${month}`);
  if (!monthly) return null;
  const rest = days.length - 1;
  const others = monthly.average + (monthly.average - monthly.closing) / rest;
  return new Map(days.map((d, i) => [d, i === rest ? monthly.closing : others]));
}

export function registerFxRoutes(app: FastifyInstance): void {
  app.get<{ Params: { range: string }; Querystring: { from?: string; to?: string } }>("/fx/:range", async (request, reply) => {
    const match = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(request.params.range);
    const from = (request.query.from ?? "EUR").toUpperCase();
    const targets = (request.query.to ?? "").toUpperCase().split(",").filter(Boolean);
    if (!match || !isIsoDate(match[1]!) || !isIsoDate(match[2]!) || match[1]! > match[2]!) return reply.status(400).send({ message: "Give a range as YYYY-MM-DD..YYYY-MM-DD." });
    if (!KNOWN.has(from) || targets.length === 0 || targets.some((t) => !KNOWN.has(t))) {
      return reply.status(404).send({ message: "not found" });
    }
    const [start, end] = [match[1]!, match[2]!];
    const rates: Record<string, Record<string, number>> = {};
    for (let month = start.slice(0, 7); month <= end.slice(0, 7); month = addMonths(`${month}-01`, 1).slice(0, 7)) {
      const base = dailyUsdPer(from, month);
      for (const target of targets) {
        const quote = dailyUsdPer(target, month);
        if (!base || !quote) continue;
        for (const [day, usdPerBase] of base) {
          if (day < start || day > end) continue;
          // Units of `target` per one `from`, at the five significant decimals reference rates carry.
          (rates[day] ??= {})[target] = Number((usdPerBase / quote.get(day)!).toFixed(5));
        }
      }
    }
    const days = Object.keys(rates).sort();
    return { amount: 1.0, base: from, start_date: days[0] ?? start, end_date: days.at(-1) ?? end, rates: Object.fromEntries(days.map((d) => [d, rates[d]!])) };
  });
}
