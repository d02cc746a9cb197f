import { endSentence, monthList, monthSpan } from "@groupledger/domain";

export { monthSpan };

/** A problem as the API sends it; a missing rate names its currency and month (packages/domain publicProblem). */
export interface ProblemLike {
  code: string;
  message: string;
  currency?: string | undefined;
  month?: string | undefined;
}

/** The rates one currency lacks: how many, in which months, and which subsidiaries need them. */
export interface MissingRates {
  currency: string;
  count: number;
  /** Sorted, each once. */
  months: string[];
  companies: string[];
}

const isMissingRate = (p: ProblemLike): p is ProblemLike & { currency: string; month: string } =>
  p.code === "missing_rate" && typeof p.currency === "string" && typeof p.month === "string";

/**
 * Missing rates by currency (sorted). Subsidiaries in one currency need the same rates, so a month
 * counts the rates the neediest of them lacks (one of average and month-end, or both), not their sum.
 */
export function groupMissingRates(bySubsidiary: readonly { companyName: string; problems: readonly ProblemLike[] }[]): MissingRates[] {
  const groups = new Map<string, { perMonth: Map<string, number>; companies: Set<string> }>();
  for (const { companyName, problems } of bySubsidiary) {
    const own = new Map<string, Map<string, number>>();
    for (const p of problems.filter(isMissingRate)) {
      const months = own.get(p.currency) ?? new Map<string, number>();
      months.set(p.month, (months.get(p.month) ?? 0) + 1);
      own.set(p.currency, months);
    }
    for (const [currency, months] of own) {
      const g = groups.get(currency) ?? { perMonth: new Map<string, number>(), companies: new Set<string>() };
      for (const [month, n] of months) g.perMonth.set(month, Math.max(n, g.perMonth.get(month) ?? 0));
      g.companies.add(companyName);
      groups.set(currency, g);
    }
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, g]) => ({
      currency,
      count: [...g.perMonth.values()].reduce((s, n) => s + n, 0),
      months: [...g.perMonth.keys()].sort(),
      companies: [...g.companies].sort((a, b) => a.localeCompare(b)),
    }));
}

/** "December 2024 to December 2025": every month of a range. */
export const rangeLabel = (range: { from: string; to: string }): string => monthSpan(monthList(range.from, range.to));

/** "GBP: 26 rates missing (average and month-end), December 2024 to December 2025." */
export function missingRatesLine(g: Pick<MissingRates, "currency" | "count" | "months">): string {
  const both = g.count === g.months.length * 2 ? " (average and month-end)" : "";
  return `${g.currency}: ${g.count} ${g.count === 1 ? "rate" : "rates"} missing${both}, ${monthSpan(g.months)}.`;
}

/** The line with who needs the rates: "… Needed by Northwind Canada Inc." */
export const missingRatesNeededBy = (g: MissingRates): string => `${missingRatesLine(g)} ${endSentence(`Needed by ${g.companies.join(", ")}`)}`;

/**
 * A problem list with its missing rates said once per currency, where the first of them was; the
 * other problems keep their place and wording. Missing rates without a currency and month (an
 * older server) stay as they are.
 */
export function collapseMissingRates<P extends ProblemLike>(problems: readonly P[]): (P | ProblemLike)[] {
  const groups = new Map(groupMissingRates([{ companyName: "", problems }]).map((g) => [g.currency, g]));
  const out: (P | ProblemLike)[] = [];
  const said = new Set<string>();
  for (const p of problems) {
    if (!isMissingRate(p)) {
      out.push(p);
      continue;
    }
    if (said.has(p.currency)) continue;
    said.add(p.currency);
    out.push({ code: "missing_rate", message: missingRatesLine(groups.get(p.currency)!), currency: p.currency });
  }
  return out;
}

/** The months to fetch for every group: from the earliest missing month to the latest. */
export function fetchRange(groups: readonly MissingRates[]): { from: string; to: string } | null {
  const months = groups.flatMap((g) => g.months).sort();
  return months.length ? { from: months[0]!, to: months.at(-1)! } : null;
}

/** A range split into pieces of at most `max` months (the rates service answers 120 at a time). */
export function monthChunks(range: { from: string; to: string }, max: number): { from: string; to: string }[] {
  const all = monthList(range.from, range.to);
  const out: { from: string; to: string }[] = [];
  for (let i = 0; i < all.length; i += max) out.push({ from: all[i]!, to: all[Math.min(i + max, all.length) - 1]! });
  return out;
}
