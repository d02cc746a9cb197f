import type { ChartAccount } from "./mapping-rules.ts";

/** Legal-form words that differ between how a company names itself and how its partners file it. */
const LEGAL_FORMS = new Set(["inc", "incorporated", "ltd", "limited", "llc", "plc", "gmbh", "ag", "sa", "sas", "bv", "nv", "corp", "corporation", "co", "company", "pty", "lp", "llp"]);

/** "Northwind UK Ltd." and "northwind uk limited" compare equal: accents, case, punctuation and legal forms ignored. */
export const comparableCompanyName = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(" ")
    .filter((w) => w !== "" && !LEGAL_FORMS.has(w))
    .join(" ");

/** Whole words of `needle` appear in `haystack` in order (both already comparable). */
export const containsWords = (haystack: string, needle: string) => needle !== "" && ` ${haystack} `.includes(` ${needle} `);

const INVESTMENT_NAME = /\binvest(ment|ments)?\b|\bbeteiligung/i;

/** An asset held as an investment: named like one ("Investment in …", "Beteiligung …") or of an investment detail type. */
export const isInvestmentAccount = (a: ChartAccount): boolean =>
  a.classification === "Asset" && (INVESTMENT_NAME.test(a.name) || /investment/i.test(a.accountSubType ?? ""));

/**
 * The parent's account that holds its investment in a subsidiary: an active Asset account named
 * like an investment ("Investment in …", "Beteiligung …", or of an investment detail type) whose
 * name contains the subsidiary's name (legal forms ignored). Several: the lowest account number.
 * An intercompany receivable or loan named after the subsidiary is not an investment.
 */
export function investmentAccountFor(parentChart: readonly ChartAccount[], subsidiaryName: string): ChartAccount | undefined {
  const target = comparableCompanyName(subsidiaryName);
  return parentChart
    .filter(
      (a) => a.active && isInvestmentAccount(a) && containsWords(comparableCompanyName(a.name), target),
    )
    .sort((a, b) => (a.acctNum ?? a.name).localeCompare(b.acctNum ?? b.name, "en", { numeric: true }))[0];
}
