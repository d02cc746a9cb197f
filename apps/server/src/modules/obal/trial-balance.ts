import { eq } from "drizzle-orm";
import type { ObalTrialBalance } from "@groupledger/contract";
import { closedBooksReason, lastDayOfMonth, monthFromParts, publicProblem } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { obalPeriods } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import { translateSubsidiary } from "../consolidation/translate.ts";
import { loadGroup, NO_SUCH_COMPANY, type CompanyRow } from "../group/service.ts";

/** The locked month as "YYYY-MM" (its calendar month, whatever the fiscal numbering). */
export const monthText = (p: { naturalYear: number; naturalMonth: number }) => monthFromParts(p.naturalYear, p.naturalMonth);

/** The account's locked opening period, or 409 period_not_locked. */
export async function lockedPeriod(db: Db, accountId: string) {
  const [period] = await db.select().from(obalPeriods).where(eq(obalPeriods.accountId, accountId)).limit(1);
  if (!period) throw errors.conflict("period_not_locked", "Lock the opening period first.");
  return period;
}

/** A subsidiary of the account and its parent: 404 for another account's realm, 409 without a parent, 400 for the parent itself. */
export async function subsidiary(db: Db, accountId: string, realmId: string) {
  const group = await loadGroup(db, accountId);
  const company = group.company(realmId, NO_SUCH_COMPANY);
  const parent = group.requireParent();
  if (company.isParent) throw errors.badRequest("parent_not_subsidiary", `${company.companyName} is the parent; its own books need no opening entry.`);
  return { company, parent };
}

/** "2023-01" → "January 2023": the reason is read by an accountant, not parsed. */
const monthInWords = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** SPEC §4: eligible when the subsidiary's earliest transaction date is not after the locked month. */
function eligibility(company: CompanyRow, month: string): string | null {
  if (!company.earliestTransactionDate) return `${company.companyName} has not been synced yet, so its first month is unknown.`;
  const first = company.earliestTransactionDate.slice(0, 7);
  if (first > month) {
    return (
      `${company.companyName}'s books start in ${monthInWords(first)} (first transaction on ${company.earliestTransactionDate}), ` +
      `after the opening month, ${monthInWords(month)}: it has no balances to open with.`
    );
  }
  return null;
}

/** A subsidiary's trial balance at the locked month-end: local, translated and mapped, with CTA; or why it has none. */
export async function trialBalance(db: Db, accountId: string, realmId: string): Promise<ObalTrialBalance> {
  const period = await lockedPeriod(db, accountId);
  const { company, parent } = await subsidiary(db, accountId, realmId);
  const month = monthText(period);
  const reason =
    eligibility(company, month) ??
    closedBooksReason(parent, lastDayOfMonth(month), `the opening entry of ${company.companyName}`, "choose a later opening month (the opening month is chosen on Opening Balance Sheet before it is locked)");
  if (reason) return { realmId, eligible: false, reason, ok: false, problems: [], view: null };
  const t = await translateSubsidiary(db, accountId, realmId, month);
  const view = t.ok ? t : (t.preview ?? null);
  return {
    realmId,
    eligible: true,
    reason: null,
    ok: t.ok,
    problems: t.problems.map(publicProblem),
    view: view && {
      companyName: view.companyName,
      currency: view.currency,
      parentCurrency: view.parentCurrency,
      month: view.month,
      openingMonth: view.openingMonth,
      period: view.period,
      lines: view.lines,
      byParentAccount: view.byParentAccount,
      cta: view.cta,
      totals: view.totals,
    },
  };
}
