import { and, eq } from "drizzle-orm";
import {
  closedBooksReason,
  fiscalYearStart,
  formatMonth,
  lastDayOfMonth,
  monthFromParts,
  parseMonth,
  type PostingPeriod,
  PostingPeriodError,
  type Problem,
  resolvePostingPeriod,
  shiftMonth,
} from "@groupledger/domain";
import type { RunPeriod, RunPreview } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { acquisitions, obalCompanies, obalPeriods } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import { loadGroup, type CompanyRow } from "../group/service.ts";
import { buildConsolidationInput } from "../consolidation/input.ts";
import { consolidationDocNumber } from "../posting/names.ts";
import { consolidateBuilt } from "../consolidation/engine.ts";

/**
 * One subsidiary-period as the journal entry that brings it into the parent's books (issue 9).
 *
 * Every run rolls forward from the same anchor as the opening balances: the month before the
 * parent's fiscal year containing the locked opening month (translate.ts explains why the CTA
 * starts at zero there). The engine translates each month from the anchor to the period's end and
 * its posting entry for the period is the movement of each translated balance-sheet line, the
 * period's translated P&L (each month at its own average rate), dividends and the CTA movement.
 * Posted month after month these entries add up exactly to the translated trial balance, because
 * every month is translated once, the same way, whichever period it is posted in.
 */


export interface PeriodEntry {
  preview: Omit<RunPreview, "posted">;
  /** The engine input the entry was computed from: the audit trail stored with a posting. */
  inputs: Record<string, unknown>;
  company: CompanyRow;
  parent: CompanyRow;
  period: PostingPeriod;
}

export async function subsidiaryAndParent(db: Db, accountId: string, realmId: string) {
  const group = await loadGroup(db, accountId);
  const company = group.company(realmId);
  const parent = group.requireParent("runs post into the parent's QuickBooks");
  if (company.isParent) throw errors.badRequest("parent_not_subsidiary", `${company.companyName} is the parent; choose a subsidiary to consolidate.`);
  return { company, parent };
}

export function resolvePeriod(parent: CompanyRow, period: RunPeriod): PostingPeriod {
  try {
    return resolvePostingPeriod(period.kind, period.year, period.month, parent.fiscalYearStartMonth);
  } catch (e) {
    if (e instanceof PostingPeriodError) throw errors.badRequest("invalid_period", e.message);
    throw e;
  }
}

/** The locked opening month and the roll-forward anchor; runs need the opening balances first. */
export async function openingOf(db: Db, accountId: string, parent: CompanyRow) {
  const [locked] = await db.select().from(obalPeriods).where(eq(obalPeriods.accountId, accountId)).limit(1);
  if (!locked) throw errors.conflict("period_not_locked", "Lock the opening period on Opening Balance Sheet first: runs continue from the opening balances.");
  const month = monthFromParts(locked.naturalYear, locked.naturalMonth);
  const anchor = shiftMonth(formatMonth(fiscalYearStart(parseMonth(month), parent.fiscalYearStartMonth)), -1);
  return { month, anchor };
}

/**
 * The problem that the subsidiary's opening balance is not posted yet, or null. Its own read: a
 * kept preview (runs/service.ts) asks it on every request, since posting the opening balance does
 * not move the data version.
 */
export async function openingNotPosted(db: Db, accountId: string, company: Pick<CompanyRow, "realmId" | "companyName">, openingMonth: string): Promise<Problem | null> {
  const [obal] = await db
    .select({ postedAt: obalCompanies.postedAt })
    .from(obalCompanies)
    .where(and(eq(obalCompanies.accountId, accountId), eq(obalCompanies.realmId, company.realmId)))
    .limit(1);
  if (obal?.postedAt) return null;
  return {
    code: "opening_not_posted",
    realmId: company.realmId,
    message: `${company.companyName}'s opening balance at ${openingMonth} is not posted yet; post it on Opening Balance Sheet first, so this entry has something to continue from.`,
  };
}

/**
 * `openingCheck: false` leaves out whether the opening balance is posted (openingNotPosted): for a
 * preview kept by data version, which asks it per request and puts it first, as here.
 */
export async function computePeriodEntry(db: Db, accountId: string, realmId: string, requested: RunPeriod, options: { openingCheck?: boolean } = {}): Promise<PeriodEntry> {
  const { company, parent } = await subsidiaryAndParent(db, accountId, realmId);
  const period = resolvePeriod(parent, requested);
  // A subsidiary is in the group only from its acquisition (Setup → Acquisitions): nothing is posted for it before.
  const [acquired] = await db.select({ acquiredOn: acquisitions.acquiredOn }).from(acquisitions).where(eq(acquisitions.realmId, realmId)).limit(1);
  if (acquired && acquired.acquiredOn.slice(0, 7) >= period.to) {
    const message = `${company.companyName} was acquired on ${acquired.acquiredOn}, at or after the end of ${period.label}: it is not in the group for that period. Choose a period that ends after ${acquired.acquiredOn.slice(0, 7)}, or correct the acquisition date on Setup → Acquisitions.`;
    throw errors.badRequest("acquired_after_period", message, { fields: [{ path: "period", message }] });
  }
  const opening = await openingOf(db, accountId, parent);
  if (period.from <= opening.month) {
    throw errors.badRequest(
      "period_in_opening_balances",
      `${period.label} is not after the opening month ${opening.month}: the opening balances already hold it. Choose a period from ${shiftMonth(opening.month, 1)} on.`,
    );
  }
  const problems: Problem[] = [];
  const notPosted = options.openingCheck === false ? null : await openingNotPosted(db, accountId, company, opening.month);
  if (notPosted) problems.push(notPosted);
  const closed = closedBooksReason(parent, lastDayOfMonth(period.to), `${company.companyName}'s ${period.label} entry`, "post a later period");
  if (closed) problems.push({ code: "books_closed", realmId: parent.realmId, message: closed });

  const built = await buildConsolidationInput(
    db,
    { accountId, subsidiaries: [realmId], period: { from: period.from, to: period.to }, openingMonth: opening.anchor },
    { parentBalances: false },
  );
  problems.push(...built.problems);
  const base = {
    realmId,
    companyName: company.companyName,
    currency: company.homeCurrency,
    parentCurrency: parent.homeCurrency,
    period: { kind: period.kind, from: period.from, to: period.to, label: period.label },
    docNumber: consolidationDocNumber(period, realmId),
    txnDate: lastDayOfMonth(period.to),
  };
  const inputs = { openingMonth: opening.month, anchor: opening.anchor, engineInput: built.input };

  const output = await consolidateBuilt(built.input, problems, realmId);
  if (!output) {
    return { preview: { ...base, ok: false, problems: problems.map(publicProblem), entry: null, cta: null, netIncome: null }, inputs, company, parent, period };
  }

  const je = output.journalEntries.find((e) => e.entity === realmId)!;
  const result = output.entities.find((e) => e.id === realmId)!;
  if (!je.postable && !problems.some((p) => p.code === "unmapped_account")) {
    problems.push({ code: "unmapped_account", realmId, message: `${company.companyName} has balances on accounts that are not mapped to the parent's chart; map them on COA Mapping.` });
  }
  const names = new Map(output.worksheet.rows.map((r) => [r.account, r.name]));
  const ctaAccount = built.input.designatedAccounts.cta;
  const totalDebit = je.lines.reduce((s, l) => s + l.debit, 0);
  const totalCredit = je.lines.reduce((s, l) => s + l.credit, 0);
  return {
    preview: {
      ...base,
      ok: problems.length === 0,
      problems: problems.map(publicProblem),
      entry: { lines: je.lines, totalDebit, totalCredit, memo: je.memo },
      cta:
        company.homeCurrency === parent.homeCurrency
          ? null
          : {
              account: ctaAccount,
              name: names.get(ctaAccount) ?? ctaAccount,
              change: result.ctaExplanation.total.change,
              months: result.ctaExplanation.months,
              total: result.ctaExplanation.total,
            },
      netIncome: result.netIncome,
    },
    inputs,
    company,
    parent,
    period,
  };
}

const publicProblem = (p: Problem) => ({ code: p.code, message: p.message });
