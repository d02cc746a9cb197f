import type { ConsolidationInput, EquityKind } from "../consolidation/input-schema.ts";
import type { ConsolidationOutput } from "../consolidation/output-schema.ts";
import { shiftMonth } from "../periods/month.ts";
import { monthTextLabel } from "../periods/month-label.ts";

/**
 * The consolidated statement of changes in equity (IAS 1.106; ASC 810-10-50-1A(c), ASC 220):
 * for each component of equity, the balance at the period's start, each movement of the period
 * and the balance at its end, attributed to the owners of the parent and to the non-controlling
 * interests (IFRS 10 B94, ASC 810-10-45-20).
 *
 * Built from two consolidations on one basis: the balance sheet at the end of the month before
 * the period (`opening`, from `openingBalanceInput`) and the period's (`closing`). Every movement
 * is an engine figure of the period (profit and its attribution, each subsidiary's monthly CTA
 * change and goodwill's, the NCI's share of the exchange differences, dividends, the NCI recognised
 * at an acquisition, the entries of ownership changes and disposals), never a column's closing
 * minus its opening. The closing row adds them up, and the balance sheet's own figures stand
 * under it with the difference: `reconciles` says whether every difference is zero. A difference
 * is shown, never absorbed.
 */

export const EQUITY_COLUMNS = ["shareCapital", "retainedEarnings", "translationReserve", "otherReserves", "parent", "nci", "total"] as const;
export type EquityColumn = (typeof EQUITY_COLUMNS)[number];
export type EquityAmounts = Record<EquityColumn, number>;

export const EQUITY_COLUMN_LABELS: Record<EquityColumn, string> = {
  shareCapital: "Share capital",
  retainedEarnings: "Retained earnings",
  translationReserve: "Translation reserve (CTA)",
  otherReserves: "Other reserves",
  parent: "Attributable to owners of the parent",
  nci: "Non-controlling interests",
  total: "Total equity",
};

export type EquityRowKind =
  | "opening"
  | "profit"
  | "translation"
  | "otherComprehensiveIncome"
  | "comprehensiveIncome"
  | "dividends"
  | "shareIssues"
  | "acquisitions"
  | "ownershipChanges"
  | "disposals"
  | "closing"
  | "balanceSheet"
  | "difference";

export interface EquityRow {
  kind: EquityRowKind;
  label: string;
  /** Credit positive (an increase in equity), reporting-currency minor units. */
  amounts: EquityAmounts;
}

export interface ChangesInEquity {
  period: { from: string; to: string };
  /** The month-end of the opening balance: the month before the period. */
  openingMonth: string;
  /** Opening, the period's movements (the comprehensive-income subtotal marked as such), closing. */
  rows: EquityRow[];
  /** The consolidated balance sheet at the period's end, by the same columns. */
  balanceSheet: EquityRow;
  /** Balance sheet − closing: zero in every column when the statement reconciles. */
  difference: EquityRow;
  reconciles: boolean;
}

type Component = Exclude<EquityColumn, "parent" | "total">;

const zero = (): Record<Component, number> => ({ shareCapital: 0, retainedEarnings: 0, translationReserve: 0, otherReserves: 0, nci: 0 });

function withTotals(c: Record<Component, number>): EquityAmounts {
  const parent = c.shareCapital + c.retainedEarnings + c.translationReserve + c.otherReserves;
  return { ...c, parent, total: parent + c.nci };
}

/** The parent's equity accounts of a kind; the CTA and NCI accounts (equity kind other) are the group's, not its own reserves. */
function parentAccounts(input: ConsolidationInput, kind: EquityKind): Set<string> {
  const parent = input.entities.find((e) => e.role === "parent");
  const { cta, nci } = input.designatedAccounts;
  return new Set((parent?.accounts ?? []).filter((a) => a.equityKind === kind && a.id !== cta && a.id !== nci).map((a) => a.id));
}

/** Which component of equity each of the parent's equity accounts is (other accounts: undefined). */
function componentOf(input: ConsolidationInput): (account: string) => Component | undefined {
  const parent = input.entities.find((e) => e.role === "parent");
  const kinds = new Map<string, EquityKind | undefined>((parent?.accounts ?? []).filter((a) => a.classification === "Equity").map((a) => [a.id, a.equityKind]));
  const { cta, nci } = input.designatedAccounts;
  return (account) => {
    if (account === cta) return "translationReserve";
    if (account === nci) return "nci";
    if (account === "(period profit)") return "retainedEarnings";
    if (!kinds.has(account)) return account.startsWith("unmapped:") ? "otherReserves" : undefined;
    switch (kinds.get(account)) {
      case "contributedCapital": return "shareCapital";
      case "retainedEarnings":
      case "dividends": return "retainedEarnings";
      default: return "otherReserves";
    }
  };
}

/** Equity by component as the consolidated balance sheet states it. */
export function balanceSheetEquity(input: ConsolidationInput, output: ConsolidationOutput): EquityAmounts {
  const component = componentOf(input);
  const c = zero();
  // A suspense row of an unmapped subsidiary equity account counts as another reserve.
  for (const line of output.balanceSheet.equity) c[component(line.account) ?? "otherReserves"] += line.amount;
  c.nci += output.balanceSheet.nonControllingInterests;
  return withTotals(c);
}

export function changesInEquity(input: ConsolidationInput, opening: ConsolidationOutput, closing: ConsolidationOutput): ChangesInEquity {
  const { from, to } = closing.period;
  const openingMonth = shiftMonth(from, -1);
  const component = componentOf(input);
  const rows: EquityRow[] = [];
  const add = (kind: EquityRowKind, label: string, c: Record<Component, number>, always = true) => {
    if (always || Object.values(c).some((v) => v !== 0)) rows.push({ kind, label, amounts: withTotals(c) });
  };

  rows.push({ kind: "opening", label: `Balance at ${monthTextLabel(openingMonth)} month-end`, amounts: balanceSheetEquity(input, opening) });

  // Profit for the period, as the engine attributes it (IFRS 10 B94).
  const profit = zero();
  profit.retainedEarnings = closing.incomeStatement.attributableToParent;
  profit.nci = closing.incomeStatement.attributableToNci;
  add("profit", "Profit for the period", profit);

  // Other comprehensive income: exchange differences on translating foreign operations (IAS 21.39(c), 21.41; ASC 830-30-45-12).
  const translation = zero();
  const total = exchangeDifferences(input, opening, closing);
  const nciShare = nciTranslation(closing) - nciTranslation(opening);
  translation.translationReserve = total - nciShare;
  translation.nci = nciShare;
  add("translation", "Other comprehensive income: exchange differences on translating foreign operations", translation);

  // Other comprehensive income: movements of other reserves (a revaluation surplus), the
  // parent's own and, for the owners' share, each subsidiary's since the opening.
  const subs = subsidiaryEquity(input, opening, closing);
  const otherOci = zero();
  otherOci.otherReserves = ownEquity(input, closing, "other") - ownEquity(input, opening, "other") + subs.other - subs.nciOther;
  otherOci.nci = subs.nciOther;
  add("otherComprehensiveIncome", "Other comprehensive income: other reserves", otherOci, false);
  const comprehensive = zero();
  for (const k of Object.keys(comprehensive) as Component[]) comprehensive[k] = profit[k] + translation[k] + otherOci[k];
  add("comprehensiveIncome", "Total comprehensive income for the period", comprehensive);

  // Transactions with owners in their capacity as owners (IAS 1.106(d)(iii)).
  const dividends = zero();
  dividends.retainedEarnings = -dividendsToOwners(input, closing);
  dividends.nci = -closing.nci.reduce((s, n) => s + n.dividends, 0);
  add("dividends", "Dividends", dividends);

  const issues = zero();
  issues.shareCapital = ownEquity(input, closing, "contributedCapital") - ownEquity(input, opening, "contributedCapital") + subs.capital - subs.nciCapital;
  issues.nci = subs.nciCapital;
  add("shareIssues", "Issue of share capital", issues);

  const acquisitions = zero();
  for (const rule of input.eliminations.investments) {
    const month = rule.acquisitionMonth ?? input.entities.find((e) => e.id === rule.subsidiary)?.opening.month;
    // Acquired at the close of the month before the period ("on 1 January"): the period's.
    if (!month || month < openingMonth || month > to) continue;
    const el = closing.eliminations.find((x) => x.id === rule.id && x.kind === "investment");
    acquisitions.nci += Number(el?.details.nciAtAcquisition ?? 0);
  }
  add("acquisitions", "Non-controlling interests on acquisition of subsidiaries", acquisitions, false);

  const disposalIds = new Set(input.eliminations.disposals.map((d) => d.id));
  add("ownershipChanges", "Changes in ownership interests in subsidiaries without a loss of control", equityLines(closing, component, (el) => el.kind === "ownershipChange"), false);
  add("disposals", "Disposal of subsidiaries (translation reserve reclassified to profit or loss, NCI derecognised)", equityLines(closing, component, (el) => el.kind === "disposal" && disposalIds.has(el.id)), false);

  const sum = zero();
  for (const row of rows) {
    if (row.kind === "comprehensiveIncome") continue;
    for (const k of Object.keys(sum) as Component[]) sum[k] += row.amounts[k];
  }
  const closingRow: EquityRow = { kind: "closing", label: `Balance at ${monthTextLabel(to)} month-end`, amounts: withTotals(sum) };
  rows.push(closingRow);

  const sheet = balanceSheetEquity(input, closing);
  const difference = {} as EquityAmounts;
  for (const k of EQUITY_COLUMNS) difference[k] = sheet[k] - closingRow.amounts[k];
  return {
    period: { from, to },
    openingMonth,
    rows,
    balanceSheet: { kind: "balanceSheet", label: `Consolidated balance sheet at ${monthTextLabel(to)} month-end`, amounts: sheet },
    difference: { kind: "difference", label: "Difference (balance sheet − statement)", amounts: difference },
    reconciles: EQUITY_COLUMNS.every((k) => difference[k] === 0),
  };
}

/**
 * The period's exchange differences on the group's foreign operations, before the NCI's share:
 * each subsidiary's monthly CTA change while the group controlled it (after its acquisition month,
 * up to its disposal month), goodwill's and fair-value adjustments' exchange differences of the
 * period, and the change in what the intra-group eliminations booked to the CTA account.
 */
function exchangeDifferences(input: ConsolidationInput, opening: ConsolidationOutput, closing: ConsolidationOutput): number {
  let total = 0;
  for (const e of closing.entities) {
    if (e.role !== "subsidiary") continue;
    const rule = input.eliminations.investments.find((r) => r.subsidiary === e.id);
    const acquired = rule?.acquisitionMonth ?? input.entities.find((x) => x.id === e.id)?.opening.month ?? "";
    const disposed = input.eliminations.disposals.find((d) => d.subsidiary === e.id)?.month ?? "9999-12";
    for (const m of e.ctaExplanation.months) if (m.month > acquired && m.month <= disposed) total += m.change;
  }
  for (const el of closing.eliminations) {
    if (el.kind !== "investment") continue;
    total += Number(el.details.ctaOnGoodwillInPeriodCreditPositive ?? 0) + Number(el.details.ctaOnFairValueAdjustmentsInPeriodCreditPositive ?? 0);
  }
  const cta = input.designatedAccounts.cta;
  const intraGroupCta = (o: ConsolidationOutput) =>
    o.eliminations
      .filter((el) => el.kind === "receivablePayable" || el.kind === "revenueExpense" || el.kind === "unrealisedProfit")
      .reduce((s, el) => s - el.lines.filter((l) => l.account === cta).reduce((t, l) => t + l.amount, 0), 0);
  return total + intraGroupCta(closing) - intraGroupCta(opening);
}

/** The NCI's share of the cumulative exchange differences (on net assets, goodwill and fair-value adjustments). */
function nciTranslation(o: ConsolidationOutput): number {
  return o.nci.reduce((s, n) => s + n.cta + n.goodwillCta + (n.fairValueCta ?? 0), 0);
}

/** The parent's own equity accounts of a kind (credit positive), as its books carry them; the CTA and NCI accounts are the group's. */
function ownEquity(input: ConsolidationInput, o: ConsolidationOutput, kind: "contributedCapital" | "other"): number {
  const ids = parentAccounts(input, kind);
  const lines = o.entities.find((e) => e.role === "parent")?.lines ?? [];
  return -lines.filter((l) => l.account !== null && ids.has(l.account)).reduce((s, l) => s + l.translated, 0);
}

/**
 * What subsidiaries in the group at both dates added to their capital and other reserves
 * (translated, credit positive), and the NCI's share of it: the engine's NCI carries its share of
 * both as one figure (`capitalSinceAcquisition`), which goes with the capital when a subsidiary's
 * capital moved and with the reserves otherwise.
 */
function subsidiaryEquity(input: ConsolidationInput, opening: ConsolidationOutput, closing: ConsolidationOutput) {
  let capital = 0;
  let other = 0;
  let nciCapital = 0;
  let nciOther = 0;
  for (const e of closing.entities) {
    if (e.role !== "subsidiary") continue;
    const kinds = new Map((input.entities.find((x) => x.id === e.id)?.accounts ?? []).map((a) => [a.id, a.equityKind]));
    const sum = (r: typeof e, kind: string) => -r.lines.filter((l) => l.account !== null && l.special === null && kinds.get(l.account) === kind).reduce((s, l) => s + l.translated, 0);
    const before = opening.entities.find((x) => x.id === e.id);
    // Acquired in the period: what it added since, over what the investment elimination took out.
    const start = (kind: "contributedCapital" | "other") => (before ? sum(before, kind) : atAcquisition(input, closing, e.id, kind));
    const dCapital = sum(e, "contributedCapital") - start("contributedCapital");
    const dOther = sum(e, "other") - start("other");
    const nciShare = (closing.nci.find((n) => n.entity === e.id)?.capitalSinceAcquisition ?? 0) - (opening.nci.find((n) => n.entity === e.id)?.capitalSinceAcquisition ?? 0);
    capital += dCapital;
    other += dOther;
    if (dCapital !== 0) nciCapital += nciShare;
    else nciOther += nciShare;
  }
  return { capital, other, nciCapital, nciOther };
}

/** A subsidiary's capital or other reserves at its acquisition (credit positive), as its investment elimination took them out. */
function atAcquisition(input: ConsolidationInput, o: ConsolidationOutput, subsidiary: string, kind: "contributedCapital" | "other"): number {
  const ids = parentAccounts(input, kind);
  const rules = new Set(input.eliminations.investments.filter((r) => r.subsidiary === subsidiary).map((r) => r.id));
  return o.eliminations
    .filter((el) => el.kind === "investment" && rules.has(el.id))
    .reduce((s, el) => s + el.lines.filter((l) => ids.has(l.account)).reduce((t, l) => t + l.amount, 0), 0);
}

/**
 * Dividends to the owners of the parent (credit positive when declared): the period's amounts on
 * the parent's dividends accounts in the consolidated trial balance (the parent's own and any
 * subsidiary's share no elimination took out). A parent without a dividends account has them on
 * retained earnings, whose trial-balance line also holds the opening: then its own dividends and
 * each subsidiary's left after the NCI's share and the dividend eliminations.
 */
function dividendsToOwners(input: ConsolidationInput, o: ConsolidationOutput): number {
  const accounts = parentAccounts(input, "dividends");
  if (accounts.size) return o.trialBalance.filter((l) => accounts.has(l.account)).reduce((s, l) => s + l.amount, 0);
  let declared = o.entities.find((e) => e.role === "parent")?.retainedEarnings.dividends ?? 0;
  for (const e of o.entities) {
    if (e.role !== "subsidiary") continue;
    const detail = (kind: string, key: string) => o.eliminations.filter((el) => el.kind === kind && el.details.subsidiary === e.id).reduce((s, el) => s + Number(el.details[key] ?? 0), 0);
    const whileControlled = e.retainedEarnings.dividends - detail("preAcquisition", "preAcquisitionDividends");
    declared += whileControlled - (o.nci.find((n) => n.entity === e.id)?.dividends ?? 0) - detail("dividend", "parentShare");
  }
  return declared;
}

/** What the chosen entries book to each component of equity (credit positive). */
function equityLines(o: ConsolidationOutput, component: (account: string) => Component | undefined, pick: (el: ConsolidationOutput["eliminations"][number]) => boolean): Record<Component, number> {
  const c = zero();
  for (const el of o.eliminations) {
    if (!pick(el)) continue;
    for (const line of el.lines) {
      const k = component(line.account);
      if (k) c[k] -= line.amount; // assets, liabilities and the gain in profit are not equity's
    }
  }
  return c;
}
