import { monthSpan, monthTextLabel } from "../periods/month-label.ts";
import { monthList, shiftMonth } from "../periods/month.ts";
import { endSentence } from "../text/sentence.ts";

/**
 * Why Verify finds differences (issue 18): the causes that can be told from what GroupLedger
 * already knows, each with where it is fixed. Verify compares what is posted in the parent's
 * QuickBooks with what the consolidation says should be there; the usual reasons they differ are
 * entries never posted (a subsidiary's months, the eliminations, the group adjustments, an
 * opening balance) and entries changed in QuickBooks since (deleted, edited) or made out of date
 * by later changes in a subsidiary's books. The server gathers the facts; these rules read them.
 */

export const VERIFY_CAUSE_CODES = [
  "opening_not_posted",
  "months_not_posted",
  "eliminations_not_posted",
  "adjustments_not_posted",
  "entry_deleted",
  "entry_edited",
  "posting_stale",
] as const;
export type VerifyCauseCode = (typeof VERIFY_CAUSE_CODES)[number];

/** Where a cause is fixed: Opening Balance Sheet, Multi Period, Single Period, Interco Eliminations, or the entry in QuickBooks. */
export const VERIFY_FIXES = ["obal", "multiPeriod", "singlePeriod", "eliminations", "quickbooks"] as const;
export type VerifyFix = (typeof VERIFY_FIXES)[number];

export interface VerifyCause {
  code: VerifyCauseCode;
  message: string;
  fix: VerifyFix;
  /** The subsidiary concerned, if one. */
  realmId: string | null;
  /** The months concerned, sorted (YYYY-MM). */
  months: string[];
  /** The entries concerned, by DocNumber. */
  docNumbers: string[];
  /** The entry in QuickBooks, when there is one to open. */
  url: string | null;
}

/** Whose entry: a subsidiary's opening balance or period, or the group's eliminations or adjustments. */
export type PostedEntryKind = "opening" | "subsidiary" | "eliminations" | "adjustments";

export interface PostedEntryFacts {
  kind: PostedEntryKind;
  /** The subsidiary, for opening and subsidiary entries. */
  realmId: string | null;
  companyName: string | null;
  /** The months the entry covers (an opening entry: the opening month). */
  from: string;
  to: string;
  docNumber: string;
  url: string | null;
  /** What QuickBooks holds now: the entry as posted, none (deleted there), or another one (edited there). */
  inQuickBooks: "as_posted" | "deleted" | "edited";
  /** Accounts whose amount in QuickBooks differs from what was posted (edited entries). */
  changedAccounts: number;
  /** A sync found the subsidiary's books changed since the entry was posted. */
  stale: boolean;
}

export interface VerifyFacts {
  /** The month-end verified and the opening month (YYYY-MM). */
  month: string;
  openingMonth: string;
  /** Every subsidiary of the group (not archived), in the order to report them. */
  subsidiaries: readonly { realmId: string; companyName: string; openingPosted: boolean; acquiredMonth: string | null }[];
  /** Every live entry GroupLedger posted up to the month, opening entries included. */
  entries: readonly PostedEntryFacts[];
  /** With intercompany pairs, every month needs an elimination entry: the first such month (null: no pairs). */
  eliminationsFrom: string | null;
  /** With group adjustments (an investment to eliminate), every month from the first acquisition on needs an adjustments entry (null: none). */
  adjustmentsFrom: string | null;
}

/** The first month a subsidiary's entries can be posted for: after the opening month and after the month it was acquired in. */
export function firstPostableMonth(openingMonth: string, acquiredMonth: string | null): string {
  const afterOpening = shiftMonth(openingMonth, 1);
  const afterAcquisition = acquiredMonth === null ? afterOpening : shiftMonth(acquiredMonth, 1);
  return afterAcquisition > afterOpening ? afterAcquisition : afterOpening;
}

/** Months from `first` to `last` that none of the periods covers (none when `last` is before `first`). */
export function monthsNotPosted(first: string, last: string, periods: readonly { from: string; to: string }[]): string[] {
  if (last < first) return [];
  const covered = new Set(periods.flatMap((p) => monthList(p.from, p.to)));
  return monthList(first, last).filter((m) => !covered.has(m));
}

/**
 * The accounts whose net amount (debit positive, minor units) in the entry QuickBooks holds now
 * differs from the lines GroupLedger posted, sorted: empty when the entry is as posted.
 */
export function entryChanges(
  posted: readonly { account: string; debit: number; credit: number }[],
  now: readonly { accountId: string; postingType: "Debit" | "Credit"; amount: number }[],
): string[] {
  const net = new Map<string, number>();
  for (const l of posted) net.set(l.account, (net.get(l.account) ?? 0) + l.debit - l.credit);
  for (const l of now) net.set(l.accountId, (net.get(l.accountId) ?? 0) - (l.postingType === "Debit" ? l.amount : -l.amount));
  return [...net].filter(([, d]) => d !== 0).map(([a]) => a).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Northwind UK Ltd's opening balance", "Northwind UK Ltd", "intercompany eliminations", "group adjustments". */
function whoseEntry(e: PostedEntryFacts): string {
  if (e.kind === "eliminations") return "intercompany eliminations";
  if (e.kind === "adjustments") return "group adjustments";
  const name = e.companyName ?? e.realmId ?? "a subsidiary";
  return e.kind === "opening" ? `${name}'s opening balance` : name;
}

/** Where an entry of this kind is posted again or replaced. */
const fixOf = (kind: PostedEntryKind): VerifyFix => (kind === "opening" ? "obal" : kind === "subsidiary" ? "singlePeriod" : "eliminations");

/** The causes, in the order to fix them: opening balances, months not posted, then entries changed since. */
export function diagnoseVerify(f: VerifyFacts): VerifyCause[] {
  const causes: VerifyCause[] = [];
  const cause = (c: Omit<VerifyCause, "realmId" | "months" | "docNumbers" | "url"> & Partial<VerifyCause>): void => {
    causes.push({ realmId: null, months: [], docNumbers: [], url: null, ...c, message: endSentence(c.message) });
  };

  for (const s of f.subsidiaries.filter((x) => !x.openingPosted)) {
    cause({
      code: "opening_not_posted",
      fix: "obal",
      realmId: s.realmId,
      months: [f.openingMonth],
      message: `${s.companyName}'s opening balance at ${monthTextLabel(f.openingMonth)} is not posted, so nothing posted for it can be checked`,
    });
  }

  for (const s of f.subsidiaries.filter((x) => x.openingPosted)) {
    const own = f.entries.filter((e) => e.kind === "subsidiary" && e.realmId === s.realmId);
    const months = monthsNotPosted(firstPostableMonth(f.openingMonth, s.acquiredMonth), f.month, own);
    if (months.length === 0) continue;
    const message = months.length === 1 ? `The entry of ${s.companyName} for ${monthSpan(months)} is not posted` : `The entries of ${s.companyName} for ${monthSpan(months)} are not posted`;
    cause({ code: "months_not_posted", fix: "multiPeriod", realmId: s.realmId, months, message });
  }

  const group = (kind: "eliminations" | "adjustments", from: string | null, what: string, code: VerifyCauseCode) => {
    if (from === null) return;
    const first = from > f.openingMonth ? from : shiftMonth(f.openingMonth, 1);
    const months = monthsNotPosted(first, f.month, f.entries.filter((e) => e.kind === kind));
    if (months.length > 0) cause({ code, fix: "eliminations", months, message: `The ${what} for ${monthSpan(months)} are not posted` });
  };
  group("eliminations", f.eliminationsFrom, "intercompany eliminations", "eliminations_not_posted");
  group("adjustments", f.adjustmentsFrom, "group adjustments", "adjustments_not_posted");

  for (const e of f.entries) {
    const months = monthList(e.from, e.to);
    const which = `entry ${e.docNumber} (${whoseEntry(e)}, ${monthSpan(months)})`;
    const base = { realmId: e.realmId, months, docNumbers: [e.docNumber] };
    if (e.inQuickBooks === "deleted") {
      cause({ ...base, code: "entry_deleted", fix: fixOf(e.kind), message: `${capitalized(which)} was deleted in QuickBooks after GroupLedger posted it` });
    } else if (e.inQuickBooks === "edited") {
      cause({
        ...base,
        code: "entry_edited",
        fix: e.url ? "quickbooks" : fixOf(e.kind),
        url: e.url,
        message: `${capitalized(which)} was edited in QuickBooks after GroupLedger posted it: ${plural(e.changedAccounts, "account differs", "accounts differ")} from what was posted`,
      });
    } else if (e.stale) {
      cause({ ...base, code: "posting_stale", fix: fixOf(e.kind), message: `The books behind ${which} changed after it was posted; post it again with the changes` });
    }
  }
  return causes;
}

const capitalized = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;
