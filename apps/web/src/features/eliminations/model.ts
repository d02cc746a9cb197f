import { eliminationPairRequestSchema, eliminationToleranceSchema, type AcceptProposalsResult, type CompanyAccount, type PairProposalView, type CompanyNames, type EliminationPair, type EliminationView, type NameKind } from "@groupledger/contract";
import { checkPairSides, currencyExponent, ELIMINATION_TOLERANCE_MAX, formatAmount, minorToDecimal, PAIR_KIND_CLASSIFICATIONS } from "@groupledger/domain";
import { zodFieldErrors } from "../../lib/forms.ts";
import { parseAmount } from "../cta/model.ts";
import { chartAccountLabel as accountLabel } from "@groupledger/domain";

/**
 * Intercompany eliminations as the screen shows them: what each kind of pair takes, what the
 * form may send (the server's own rules, said before it is asked), how a pair's difference reads,
 * and why the period's entry cannot be posted. Amounts are the server's: parent-currency minor
 * units, debit positive.
 */

export type PairKind = EliminationPair["kind"];
export type DifferenceTo = EliminationPair["differenceTo"];
export type PairView = EliminationView["pairs"][number];
export type EntryLine = NonNullable<EliminationView["entry"]>["lines"][number];

export interface KindInfo {
  label: string;
  /** The first side's role ("Receivable"), then the second's ("Payable"). */
  left: string;
  right: string;
  /** The two classifications a pair of this kind joins, one per side: the domain's rule (pair-kinds.ts), as the server checks it. */
  classifications: readonly [string, string];
  explanation: string;
}

export const PAIR_KINDS: Record<PairKind, KindInfo> = {
  receivablePayable: {
    label: "Receivable / payable",
    left: "Receivable",
    right: "Payable",
    classifications: PAIR_KIND_CLASSIFICATIONS.receivablePayable,
    explanation: "A balance one company holds against another, such as a loan or a current account: eliminated at the period end, both sides at the closing rate.",
  },
  revenueExpense: {
    label: "Revenue / expense",
    left: "Revenue",
    right: "Expense",
    classifications: PAIR_KIND_CLASSIFICATIONS.revenueExpense,
    explanation: "A flow between companies, such as management fees or intercompany sales: the period's amounts are eliminated, each month at its average rate.",
  },
};

export const DIFFERENCE_TO: Record<DifferenceTo, { label: string; explanation: string }> = {
  fx: {
    label: "FX difference (profit or loss)",
    explanation: "Whatever does not cancel goes to the parent's foreign-exchange gain or loss, through profit and loss.",
  },
  cta: {
    label: "CTA (equity)",
    explanation: "Whatever does not cancel goes to the cumulative translation adjustment in equity: for a loan that is part of the net investment in the subsidiary.",
  },
};

/** The split of a difference (apps/server eliminations/view.ts): both sides at the same rates, summed exactly, against the rounded translation. */
export const TRANSLATION_PART_TEXT = "what rounding each side, and each month, on its own makes";
export const BOOK_PART_TEXT = "the books differ at the same rates";
/** The parts of a pair compared in its accounts' one currency (PairView.inCurrency). */
export const EXCHANGE_PART_TEXT = "the exchange difference on the foreign-currency account, which QuickBooks keeps at the rates of the day";
export const BOOK_PART_IN_CURRENCY_TEXT = (currency: string) => `the books differ in ${currency}, at the closing rate`;

/** "1600 · Intercompany Loan - Northwind UK", as the chart-of-accounts screens name an account. */
/** Number · full name, or the full name alone without numbers (one rule for every screen: the domain's). */
export { accountLabel };

export interface AccountGroup {
  group: string;
  items: { value: string; label: string }[];
}

/**
 * The accounts a side may take, grouped by classification: active accounts of the kind's two
 * classifications, and only the other one of them once the opposite side has chosen (the server
 * refuses an asset against an asset).
 */
export function sideAccountOptions(kind: PairKind, accounts: readonly CompanyAccount[], otherSideClassification: string | null): AccountGroup[] {
  const allowed = PAIR_KINDS[kind].classifications.filter((c) => c !== otherSideClassification);
  return allowed
    .map((classification) => ({
      group: classification,
      items: accounts
        .filter((a) => a.active && a.classification === classification)
        .sort((a, b) => (a.acctNum ?? "").localeCompare(b.acctNum ?? "", undefined, { numeric: true }) || a.name.localeCompare(b.name))
        .map((a) => ({ value: a.Id, label: accountLabel(a) })),
    }))
    .filter((g) => g.items.length > 0);
}

export interface PairFormValues {
  name: string;
  kind: PairKind;
  leftRealmId: string | null;
  leftAccountId: string | null;
  /** "Customer:12": the side is limited to what the account holds against that name; null: the whole account. */
  leftName: string | null;
  rightRealmId: string | null;
  rightAccountId: string | null;
  rightName: string | null;
  differenceTo: DifferenceTo;
}

export const EMPTY_PAIR_FORM: PairFormValues = {
  name: "",
  kind: "receivablePayable",
  leftRealmId: null,
  leftAccountId: null,
  leftName: null,
  rightRealmId: null,
  rightAccountId: null,
  rightName: null,
  differenceTo: "fx",
};

export const nameValue = (n: { kind: NameKind; id: string }) => `${n.kind}:${n.id}`;
function parseNameValue(v: string | null): { kind: NameKind; id: string } | null {
  if (!v) return null;
  const at = v.indexOf(":");
  return { kind: v.slice(0, at) as NameKind, id: v.slice(at + 1) };
}

export const pairRequestOf = (v: PairFormValues) => ({
  name: v.name,
  kind: v.kind,
  left: { realmId: v.leftRealmId ?? "", accountId: v.leftAccountId ?? "", name: parseNameValue(v.leftName) },
  right: { realmId: v.rightRealmId ?? "", accountId: v.rightAccountId ?? "", name: parseNameValue(v.rightName) },
  differenceTo: v.differenceTo,
});

const FIELD_SUFFIX: Record<string, string> = { realmId: "RealmId", accountId: "AccountId", name: "Name" };
/** Request paths ("left.accountId", "left.name.id") as the form's fields ("leftAccountId", "leftName"), for the contract's and the server's messages alike. */
export function formErrorsOf(byPath: Record<string, string>): Partial<Record<keyof PairFormValues, string>> {
  const out: Partial<Record<keyof PairFormValues, string>> = {};
  for (const [path, message] of Object.entries(byPath)) {
    const side = /^(left|right)\.(realmId|accountId|name)(\.|$)/.exec(path);
    const field = (side ? `${side[1]}${FIELD_SUFFIX[side[2]!]}` : path) as keyof PairFormValues;
    if (!(field in out)) out[field] = message;
  }
  return out;
}

export interface NameGroup {
  group: string;
  items: { value: string; label: string }[];
}

/**
 * The customers and vendors a side may be limited to: first those that stand for the other
 * side's company (the usual choice), then the other group companies, then everyone else, active
 * ones only unless already chosen.
 */
export function sideNameOptions(names: CompanyNames["names"], otherRealmId: string | null, chosen: string | null): NameGroup[] {
  const label = (n: CompanyNames["names"][number]) => `${n.displayName} (${n.kind.toLowerCase()})`;
  const usable = names.filter((n) => n.active || nameValue(n) === chosen);
  const groups: NameGroup[] = [
    { group: "Stands for the other company", items: usable.filter((n) => otherRealmId !== null && n.represents?.realmId === otherRealmId).map((n) => ({ value: nameValue(n), label: label(n) })) },
    { group: "Other group companies", items: usable.filter((n) => n.represents !== null && n.represents.realmId !== otherRealmId).map((n) => ({ value: nameValue(n), label: label(n) })) },
    { group: "Customers", items: usable.filter((n) => n.represents === null && n.kind === "Customer").map((n) => ({ value: nameValue(n), label: label(n) })) },
    { group: "Vendors", items: usable.filter((n) => n.represents === null && n.kind === "Vendor").map((n) => ({ value: nameValue(n), label: label(n) })) },
  ];
  return groups.filter((g) => g.items.length > 0);
}

/** "Northwind UK Ltd (customer)" after a side's account, or nothing for a whole-account side. */
export const sideNameText = (side: EliminationPair["left"]): string | null => (side.name ? `${side.name.displayName} (${side.name.kind.toLowerCase()})` : null);

/**
 * What is wrong with the form before it is sent: the contract's schema (the server's messages),
 * then the rules the server checks against the charts: two different companies, one account of
 * each of the kind's classifications.
 */
export function pairFormErrors(v: PairFormValues, classificationOf: (realmId: string, accountId: string) => string | undefined): Partial<Record<keyof PairFormValues, string>> {
  const parsed = eliminationPairRequestSchema.safeParse(pairRequestOf(v));
  const errors = parsed.success ? {} : formErrorsOf(zodFieldErrors(parsed.error));
  if (v.leftRealmId && v.rightRealmId && v.leftRealmId === v.rightRealmId && !errors.rightRealmId) {
    errors.rightRealmId = "Choose another company: an intercompany pair is between two group companies.";
  }
  const left = v.leftRealmId && v.leftAccountId ? classificationOf(v.leftRealmId, v.leftAccountId) : undefined;
  const right = v.rightRealmId && v.rightAccountId ? classificationOf(v.rightRealmId, v.rightAccountId) : undefined;
  const info = PAIR_KINDS[v.kind];
  const check = checkPairSides(v.kind, { left, right });
  for (const [side, c, wrong] of [["leftAccountId", left, check.left], ["rightAccountId", right, check.right]] as const) {
    if (c !== undefined && wrong && !errors[side]) {
      errors[side] = `This is ${c === "Asset" || c === "Expense" ? "an" : "a"} ${c.toLowerCase()} account: a ${info.label.toLowerCase()} pair takes ${info.classifications.map((x) => x.toLowerCase()).join(" and ")} accounts.`;
    }
  }
  if (left !== undefined && check.same && !errors.rightAccountId) {
    errors.rightAccountId = `Both sides are ${left.toLowerCase()} accounts; one side must be ${info.classifications[0].toLowerCase()} and the other ${info.classifications[1].toLowerCase()}.`;
  }
  return errors;
}

/**
 * How a pair's difference reads: none, within the group's tolerance, only what the rates make, or
 * the books disagreeing. Whether a pair matches is the server's answer (`match`, the domain's
 * pair-match rule with the group's tolerance), never worked out again here; an unmatched one is
 * told apart by its cause.
 */
export type DifferenceTone = "matched" | "withinTolerance" | "translation" | "book";

export function differenceTone(p: Pick<PairView, "match" | "bookPart">): DifferenceTone {
  if (p.match !== "unmatched") return p.match;
  return p.bookPart === 0 ? "translation" : "book";
}

/** Where a pair's difference is posted, in words: the parent's account when known, else the kind chosen. */
export const differenceAccountText = (p: Pick<PairView, "differenceAccount" | "pair">): string => p.differenceAccount?.name ?? DIFFERENCE_TO[p.pair.differenceTo].label;

/** The rate a side was translated at, in words: a closing rate, or each month's average for a flow. */
export function rateText(kind: PairKind, side: PairView["left"], parentCurrency: string): string {
  if (side.currency === parentCurrency) return "1 (parent currency)";
  if (kind === "revenueExpense") return "Each month's average";
  return side.rate ?? "No closing rate";
}

export function entryTotals(lines: readonly EntryLine[]): { debit: number; credit: number; balanced: boolean } {
  const debit = lines.reduce((s, l) => s + l.debit, 0);
  const credit = lines.reduce((s, l) => s + l.credit, 0);
  return { debit, credit, balanced: debit === credit };
}

/** Why Post is not offered for this period, in words; null when it may be posted. */
export function postBlockReason(view: EliminationView): string | null {
  const p = view.posted;
  if (p) return `Already posted: ${p.docNumber} on ${p.postedAt.slice(0, 10)}${p.postedBy ? ` by ${p.postedBy}` : ""}.`;
  if (!view.ok) return "Fix the problems listed above first; nothing can be posted while they stand.";
  if (view.pairs.length === 0) return "Define an intercompany pair first: there is nothing to eliminate.";
  if (!view.entry) return `Nothing changes in ${view.period.label}: there is no elimination entry to post.`;
  if (!entryTotals(view.entry.lines).balanced) return "The entry does not balance; it cannot be posted.";
  return null;
}

/** The number of pairs whose sides do not cancel (not even within the tolerance), said once above the pairs. */
export const unmatchedCount = (view: Pick<EliminationView, "pairs">): number => view.pairs.filter((p) => !p.matched).length;

/** "2 pairs: 2 matched (1 within the $1.00 tolerance), 0 with an unmatched difference." */
export function periodSummary(view: Pick<EliminationView, "pairs" | "tolerance" | "parentCurrency">): string {
  const n = view.pairs.length;
  const unmatched = unmatchedCount(view);
  const within = view.pairs.filter((p) => p.match === "withinTolerance").length;
  const tolerance = within ? ` (${within} within the ${formatAmount(view.tolerance, view.parentCurrency)} tolerance)` : "";
  return `${n} pair${n === 1 ? "" : "s"}: ${n - unmatched} matched${tolerance}, ${unmatched} with an unmatched difference.`;
}

/** The tolerance as the form shows it: "1.00" for 100 in USD. */
export const toleranceInput = (tolerance: number, currency: string): string => minorToDecimal(tolerance, currencyExponent(currency));

/**
 * The tolerance field's text as minor units of the parent's currency, or why it cannot be: the
 * contract's schema (the server's bounds) decides, the message says it in the currency typed.
 */
export function parseTolerance(text: string, currency: string): { tolerance: number } | { error: string } {
  const exponent = currencyExponent(currency);
  const minor = parseAmount(text, exponent);
  const example = minorToDecimal(100, exponent);
  if (minor === null) return { error: `Enter an amount in ${currency}${exponent ? ` with at most ${exponent} decimal places` : ""}, such as ${example}; 0 for exact matching.` };
  const parsed = eliminationToleranceSchema.safeParse(minor);
  if (parsed.success) return { tolerance: parsed.data };
  if (minor < 0) return { error: "The tolerance cannot be negative: 0 is exact matching." };
  return { error: `The tolerance is at most ${formatAmount(ELIMINATION_TOLERANCE_MAX, currency)}: a larger difference is a mismatch to investigate, not rounding.` };
}

/** A proposed pair's side as the proposals list reads it: company, account, and the name it is limited to. */
export function proposedSideText(side: PairProposalView["left"]): { company: string; account: string; only: string | null } {
  return { company: side.companyName, account: side.account, only: side.name ? `${side.name.displayName} (${side.name.kind.toLowerCase()})` : null };
}

/** The proposals still offered: those not dismissed on this browser, in the server's order. */
export const offeredProposals = <P extends { key: string }>(proposals: readonly P[], dismissed: ReadonlySet<string>): P[] => proposals.filter((p) => !dismissed.has(p.key));

/** What accepting says: how many pairs it defined, and how many were defined already. */
export function acceptedText(result: AcceptProposalsResult): string {
  const made = result.created.length;
  const before = result.alreadyDefined.length;
  const pairs = (n: number) => `${n} pair${n === 1 ? "" : "s"}`;
  if (made === 0) return before === 1 ? "That pair was already defined." : `Those ${pairs(before)} were already defined.`;
  return `${pairs(made)} defined${before ? `; ${before} ${before === 1 ? "was" : "were"} already defined` : ""}. The report no longer names ${made === 1 ? "its accounts" : "their accounts"} as unpaired.`;
}
