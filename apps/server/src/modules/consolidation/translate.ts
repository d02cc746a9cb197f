import {
  type EntityResult,
  fiscalYearStart,
  formatMonth,
  isMonthText,
  parseMonth,
  type Problem,
  shiftMonth,
} from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { errors } from "../../http/errors.ts";
import { loadGroup } from "../group/service.ts";
import { buildConsolidationInput, type BuildRequest } from "./input.ts";
import { consolidateBuilt } from "./engine.ts";

/**
 * One subsidiary translated at one month-end: the trial balance the Opening Balance Sheet
 * (issue 8) reviews and posts.
 *
 * Layout — the trial balance QuickBooks itself shows at a month-end, in the parent's fiscal year:
 * balance-sheet lines at the month-end (assets and liabilities at its closing rate, contributed
 * capital at historical), profit and loss summed from the start of the PARENT's fiscal year to
 * the month (each month at its own average rate), retained earnings as they stood at the start of
 * that fiscal year, the year's dividends beside them, and the CTA as the balancing line. The
 * engine does this with opening month = the month before the parent's fiscal year starts and
 * period = that fiscal year to the month. The parent's fiscal year, not the subsidiary's, because
 * the entry lands in the parent's books: a UK subsidiary with an April year contributes January to
 * December to a calendar-year parent's profit.
 *
 * Opening translated retained earnings at the start of that fiscal year are derived with CTA 0
 * (input.ts); the CTA shown is therefore the translation difference of the fiscal year to date.
 */
export interface TranslatedTbLine {
  /** The subsidiary's QBO account id; null for the CTA line. */
  account: string | null;
  special: "cta" | "remeasurement" | null;
  name: string;
  classification: string;
  /** Local minor units, debit positive. */
  local: number;
  /** Parent-currency minor units, debit positive. */
  translated: number;
  basis: EntityResult["lines"][number]["basis"];
  rate: string | null;
  /** The parent account (worksheet row) the line lands on; "unmapped:…" when it has no map. */
  parentAccount: string;
  parentAccountName: string;
}

export interface SubsidiaryTranslationView {
  realmId: string;
  companyName: string;
  currency: string;
  parentCurrency: string;
  month: string;
  /** Months whose P&L is in the lines, and the opening month-end of the roll-forward. */
  period: { from: string; to: string };
  openingMonth: string;
  lines: TranslatedTbLine[];
  /** Translated lines summed per parent account: the content of the journal entry to post. */
  byParentAccount: { account: string; name: string; amount: number }[];
  cta: {
    account: string;
    /** Credit positive, as the engine reports them. */
    opening: number;
    change: number;
    closing: number;
    explanation: EntityResult["ctaExplanation"];
  };
  netIncome: EntityResult["netIncome"];
  retainedEarnings: EntityResult["retainedEarnings"];
  totals: { localDebit: number; localCredit: number; debit: number; credit: number; balanced: boolean };
}

export type SubsidiaryTranslation =
  | ({ ok: true; problems: [] } & SubsidiaryTranslationView)
  /** `preview` when the engine could still translate (e.g. only unmapped accounts stop posting). */
  | { ok: false; problems: Problem[]; preview?: SubsidiaryTranslationView };

export async function translateSubsidiary(
  db: Db,
  accountId: string,
  realmId: string,
  month: string,
  options: { openingMonth?: string; designated?: BuildRequest["designated"] } = {},
): Promise<SubsidiaryTranslation> {
  if (!isMonthText(month)) throw errors.badRequest("invalid_month", `The month ${month} is not a month written YYYY-MM, e.g. 2025-12.`);
  const group = await loadGroup(db, accountId);
  const parent = group.requireParent("subsidiaries are translated into the parent's currency");
  const company = group.company(realmId);
  if (company.isParent) throw errors.badRequest("parent_not_subsidiary", `${company.companyName} is the parent; it is not translated.`);

  const fyStart = formatMonth(fiscalYearStart(parseMonth(month), parent.fiscalYearStartMonth));
  const openingMonth = options.openingMonth ?? shiftMonth(fyStart, -1);
  const from = openingMonth >= fyStart ? shiftMonth(openingMonth, 1) : fyStart;
  const built = await buildConsolidationInput(
    db,
    { accountId, subsidiaries: [realmId], period: { from, to: month }, openingMonth, ...(options.designated ? { designated: options.designated } : {}) },
    { parentBalances: false },
  );
  const problems = [...built.problems];

  const output = await consolidateBuilt(built.input, problems, realmId);
  if (!output) return { ok: false, problems };

  const result = output.entities.find((e) => e.id === realmId)!;
  const names = new Map(output.worksheet.rows.map((r) => [r.account, r.name]));
  const lines: TranslatedTbLine[] = result.lines.map((l) => ({ ...l, parentAccountName: names.get(l.parentAccount) ?? l.parentAccount }));
  const sums = new Map<string, number>();
  for (const l of lines) sums.set(l.parentAccount, (sums.get(l.parentAccount) ?? 0) + l.translated);
  const totals = { localDebit: 0, localCredit: 0, debit: 0, credit: 0, balanced: false };
  for (const l of lines) {
    if (l.local > 0) totals.localDebit += l.local;
    else totals.localCredit -= l.local;
    if (l.translated > 0) totals.debit += l.translated;
    else totals.credit -= l.translated;
  }
  totals.balanced = totals.debit === totals.credit && totals.localDebit === totals.localCredit;
  const view: SubsidiaryTranslationView = {
    realmId,
    companyName: company.companyName,
    currency: company.homeCurrency,
    parentCurrency: parent.homeCurrency,
    month,
    period: { from, to: month },
    openingMonth,
    lines,
    byParentAccount: [...sums].filter(([, amount]) => amount !== 0).map(([account, amount]) => ({ account, name: names.get(account) ?? account, amount })),
    cta: { account: built.input.designatedAccounts.cta, ...result.cta, explanation: result.ctaExplanation },
    netIncome: result.netIncome,
    retainedEarnings: result.retainedEarnings,
    totals,
  };
  return problems.length === 0 ? { ok: true, problems: [], ...view } : { ok: false, problems, preview: view };
}
