import { and, eq, inArray } from "drizzle-orm";
import type { AcquisitionBody, AcquisitionFigures, AcquisitionRequest, Acquisitions, AcquisitionSubsidiary, FieldError } from "@groupledger/contract";
import {
  accountLabel,
  acquisitionFactor,
  acquisitionFigures,
  type ChartAccount,
  endSentence,
  equityKindOf,
  formatAmount,
  investmentAccountFor,
  lastDayOfMonth,
  ownershipFraction,
} from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { acquisitions, companies, historicalEquity } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import { chartOf } from "../companies/chart.ts";
import { loadGroup, type CompanyRow } from "../group/service.ts";

import { detectChangedAdjustments } from "../adjustments/stale.ts";
import { equityAt, firstBalance, ratesAt } from "./books.ts";

/**
 * Acquisitions (issue 16): what the parent paid for each subsidiary, for what share, and the
 * equity it bought. GroupLedger proposes them from the books and the user confirms or edits:
 *
 * - Investment account: the parent's asset account named like an investment after the subsidiary
 *   (packages/domain coa/company-name.ts).
 * - Acquisition date: the end of the first month that account holds a balance (when the parent
 *   booked the purchase).
 * - Consideration: that balance. The account may have moved since (impairment, equity
 *   accounting, a further purchase), which is why it is stated, not read again every period.
 * - Equity at acquisition: the subsidiary's equity accounts at that month-end (retained earnings
 *   with the fiscal year's profit to date), in its own currency.
 * - Share: the ownership recorded for the subsidiary (companies.ownership_percent), which saving
 *   an acquisition sets.
 *
 * The figures (net assets, NCI and goodwill or a bargain purchase gain) are computed by the
 * domain's acquisitionFigures, exactly as the consolidation will.
 */

type AcquisitionRow = typeof acquisitions.$inferSelect;
interface Meta {
  ip: string;
  requestId: string;
}

const option = (a: ChartAccount) => ({ accountId: a.id, name: a.name, acctNum: a.acctNum });
const percentText = (p: string) => String(Number(p));

/** The figures of an acquisition, or null with the reason when its closing rate is missing. */
async function figuresOf(db: Db, accountId: string, sub: CompanyRow, parent: CompanyRow, body: AcquisitionBody): Promise<{ figures: AcquisitionFigures; problem: string | null }> {
  const month = body.acquiredOn.slice(0, 7);
  const translated = sub.homeCurrency !== parent.homeCurrency;
  const rate = translated ? ((await ratesAt(db, accountId, [{ currency: sub.homeCurrency, month }])).get(`${sub.homeCurrency}:${month}`)?.closing ?? null) : "1";
  if (rate === null) {
    return {
      figures: { acquisitionMonth: month, closingRate: null, netAssets: null, fairValueAdjustments: null, nciAtAcquisition: null, goodwill: null },
      problem: `Enter the closing rate of ${sub.homeCurrency} for ${month} on the FX rates page: ${sub.companyName}'s equity at acquisition is translated at it.`,
    };
  }
  const f = acquisitionFigures(
    {
      acquisitionMonth: month,
      ownership: ownershipFraction(body.ownershipPercent),
      consideration: body.consideration,
      nciMeasurement: body.nciMeasurement,
      nciFairValue: body.nciFairValue,
      equity: body.equityAtAcquisition.map((l) => ({ account: l.accountId, local: l.localAmount })),
      fairValueAdjustments: body.fairValueAdjustments,
    },
    acquisitionFactor(translated ? rate : null, sub.homeCurrency, parent.homeCurrency),
  );
  return { figures: { acquisitionMonth: month, closingRate: rate, ...f }, problem: null };
}

function savedBody(row: AcquisitionRow, sub: CompanyRow, subChart: readonly ChartAccount[]): AcquisitionBody {
  const byId = new Map(subChart.map((a) => [a.id, a]));
  return {
    acquiredOn: row.acquiredOn,
    ownershipPercent: percentText(sub.ownershipPercent),
    consideration: row.consideration,
    investmentAccountId: row.investmentAccountId,
    nciMeasurement: row.nciMeasurement,
    nciFairValue: row.nciFairValue,
    equityAtAcquisition: row.equityAtAcquisition.map((l) => ({
      accountId: l.accountId,
      name: byId.get(l.accountId)?.name ?? `(account ${l.accountId} is gone)`,
      acctNum: byId.get(l.accountId)?.acctNum ?? null,
      localAmount: l.localAmount,
    })),
    fairValueAdjustments: row.fairValueAdjustments,
    ownershipChanges: row.ownershipChanges,
  };
}

/** What GroupLedger reads from the books for one subsidiary. */
async function propose(
  db: Db,
  sub: CompanyRow,
  parent: CompanyRow,
  parentChart: readonly ChartAccount[],
  subChart: readonly ChartAccount[],
): Promise<{ proposal: AcquisitionBody | null; reasons: string[]; problems: string[] }> {
  const investment = investmentAccountFor(parentChart, sub.companyName);
  if (!investment) {
    return {
      proposal: null,
      reasons: [],
      problems: [`${parent.companyName} has no asset account named like an investment in ${sub.companyName} (for example "Investment in ${sub.companyName}"); enter the acquisition by hand.`],
    };
  }
  const first = await firstBalance(db, parent.realmId, investment.id);
  if (!first || first.amount <= 0) {
    return {
      proposal: null,
      reasons: [endSentence(`Investment account: ${accountLabel(investment)}, the parent's asset account named after ${sub.companyName}`)],
      problems: [`${accountLabel(investment)} has ${first ? "no debit balance" : "no balance"} in the synced books, so neither the acquisition date nor the consideration can be read from it; enter them by hand.`],
    };
  }
  const month = first.month;
  const equity = await equityAt(db, sub, subChart, month);
  const problems: string[] = [];
  if (!equity.synced || equity.lines.length === 0) {
    problems.push(`${sub.companyName}'s books in QuickBooks hold nothing at ${month}; enter its equity at acquisition by hand (from its balance sheet at the acquisition date).`);
  }
  const acquiredOn = lastDayOfMonth(month);
  const money = (n: number) => formatAmount(n, parent.homeCurrency, { currency: "code", negative: "minus", locale: "en-US" });
  return {
    proposal: {
      acquiredOn,
      ownershipPercent: percentText(sub.ownershipPercent),
      consideration: first.amount,
      investmentAccountId: investment.id,
      nciMeasurement: "proportionateShare",
      nciFairValue: null,
      equityAtAcquisition: equity.lines.map((l) => ({ accountId: l.account.id, name: l.account.name, acctNum: l.account.acctNum, localAmount: l.local })),
      fairValueAdjustments: [],
      ownershipChanges: [],
    },
    reasons: [
      endSentence(`Investment account: ${accountLabel(investment)}, the parent's asset account named after ${sub.companyName}`),
      `Acquisition date: ${acquiredOn}, the end of the first month that account holds a balance (the books are monthly, so the acquisition takes effect at a month-end).`,
      `Consideration: ${money(first.amount)}, that account's balance at ${acquiredOn}. Check it against the purchase agreement: costs of the acquisition are expenses, not consideration (IFRS 3.53, ASC 805-10-25-23).`,
      `Equity at acquisition: ${sub.companyName}'s equity accounts at ${acquiredOn} in ${sub.homeCurrency}, retained earnings including the fiscal year's profit to date. Add fair-value adjustments of identifiable assets (brands, customer lists, property) if the purchase price allocation has any.`,
      `Share acquired: ${percentText(sub.ownershipPercent)}%, the ownership recorded for ${sub.companyName}; change it if the parent bought less.`,
    ],
    problems,
  };
}

async function subsidiaryView(db: Db, accountId: string, sub: CompanyRow, parent: CompanyRow, parentChart: readonly ChartAccount[], row: AcquisitionRow | undefined): Promise<AcquisitionSubsidiary> {
  const subChart = await chartOf(db, sub.realmId);
  const { proposal, reasons, problems } = await propose(db, sub, parent, parentChart, subChart);
  const saved = row ? savedBody(row, sub, subChart) : null;
  const savedFigures = saved ? await figuresOf(db, accountId, sub, parent, saved) : null;
  const proposalFigures = proposal && proposal.equityAtAcquisition.length > 0 ? await figuresOf(db, accountId, sub, parent, proposal) : null;
  const shown = saved ? savedFigures : proposalFigures;
  return {
    realmId: sub.realmId,
    companyName: sub.companyName,
    currency: sub.homeCurrency,
    translated: sub.homeCurrency !== parent.homeCurrency,
    saved,
    savedFigures: savedFigures?.figures ?? null,
    proposal,
    proposalFigures: proposalFigures?.figures ?? null,
    reasons,
    problems: [...(saved ? [] : problems), ...(shown?.problem ? [shown.problem] : [])],
    equityAccounts: subChart.filter((a) => a.classification === "Equity").map(option),
  };
}

export async function acquisitionsView(db: Db, accountId: string): Promise<Acquisitions> {
  const { parent, unarchivedSubsidiaries: subsidiaries } = await loadGroup(db, accountId);
  if (!parent) return { parentRealmId: null, parentCurrency: null, assetAccounts: [], expenseAccounts: [], subsidiaries: [] };
  const parentChart = (await chartOf(db, parent.realmId)).filter((a) => a.active);
  const rows = subsidiaries.length ? await db.select().from(acquisitions).where(inArray(acquisitions.realmId, subsidiaries.map((s) => s.realmId))) : [];
  const byRealm = new Map(rows.map((r) => [r.realmId, r]));
  const views: AcquisitionSubsidiary[] = [];
  for (const sub of subsidiaries) views.push(await subsidiaryView(db, accountId, sub, parent, parentChart, byRealm.get(sub.realmId)));
  return {
    parentRealmId: parent.realmId,
    parentCurrency: parent.homeCurrency,
    assetAccounts: parentChart.filter((a) => a.classification === "Asset").map(option),
    expenseAccounts: parentChart.filter((a) => a.classification === "Expense").map(option),
    subsidiaries: views,
  };
}

async function subsidiaryOf(db: Db, accountId: string, realmId: string) {
  const group = await loadGroup(db, accountId);
  const sub = group.company(realmId);
  const parent = group.requireParent("acquisitions are the parent's");
  if (sub.isParent) throw errors.conflict("parent_not_acquired", `${sub.companyName} is the parent; acquisitions are recorded for subsidiaries.`);
  return { parent, sub };
}

/**
 * Saves a subsidiary's acquisition (all or nothing) and sets its ownership. A translated
 * subsidiary's contributed capital at acquisition is translated at the acquisition rate
 * (ASC 830-30-45-3: equity at historical rates, which for an acquired company are the rates of the
 * acquisition date); where the CTA & Historical page holds no rate for such an account yet, the
 * acquisition's rate is recorded there, visibly, rather than assumed at every consolidation.
 */
export async function saveAcquisition(db: Db, user: { id: string; accountId: string }, realmId: string, body: AcquisitionRequest, meta: Meta, today = new Date()): Promise<AcquisitionSubsidiary> {
  const { parent, sub } = await subsidiaryOf(db, user.accountId, realmId);
  const [parentChart, subChart] = await Promise.all([chartOf(db, parent.realmId), chartOf(db, sub.realmId)]);
  const parentById = new Map(parentChart.map((a) => [a.id, a]));
  const subById = new Map(subChart.map((a) => [a.id, a]));
  const fields: FieldError[] = [];
  const parentAccount = (path: string, id: string, classification: "Asset" | "Expense", what: string) => {
    const a = parentById.get(id);
    if (!a) fields.push({ path, message: `Account ${id} is not in ${parent.companyName}'s chart of accounts.` });
    else if (a.classification !== classification) fields.push({ path, message: `${accountLabel(a)} is ${/^[AEIOU]/.test(a.classification) ? "an" : "a"} ${a.classification.toLowerCase()} account; ${what}.` });
    else if (!a.active) fields.push({ path, message: `${accountLabel(a)} is inactive in QuickBooks; choose an active account.` });
  };
  if (body.acquiredOn > today.toISOString().slice(0, 10)) fields.push({ path: "acquiredOn", message: `The acquisition date ${body.acquiredOn} is in the future; record an acquisition once it has happened.` });
  parentAccount("investmentAccountId", body.investmentAccountId, "Asset", "the investment in a subsidiary is an asset of the parent");
  body.equityAtAcquisition.forEach((l, i) => {
    const a = subById.get(l.accountId);
    if (!a || a.classification !== "Equity") {
      fields.push({ path: `equityAtAcquisition.${i}.accountId`, message: a ? endSentence(`${accountLabel(a)} is not an equity account of ${sub.companyName}`) : `Account ${l.accountId} is not in ${sub.companyName}'s chart of accounts.` });
    }
  });
  body.fairValueAdjustments.forEach((f, i) => {
    parentAccount(`fairValueAdjustments.${i}.assetAccountId`, f.assetAccountId, "Asset", "a fair-value adjustment shows on an asset account");
    parentAccount(`fairValueAdjustments.${i}.expenseAccountId`, f.expenseAccountId, "Expense", "its amortisation goes to an expense account");
  });
  body.ownershipChanges.forEach((c, i) => {
    if (c.effectiveOn > today.toISOString().slice(0, 10)) fields.push({ path: `ownershipChanges.${i}.effectiveOn`, message: `The change on ${c.effectiveOn} is in the future; record it once it has happened.` });
    if (c.accountId === null) return;
    const a = parentById.get(c.accountId);
    if (!a) fields.push({ path: `ownershipChanges.${i}.accountId`, message: `Account ${c.accountId} is not in ${parent.companyName}'s chart of accounts.` });
    else if (a.classification === "Equity") fields.push({ path: `ownershipChanges.${i}.accountId`, message: `${accountLabel(a)} is an equity account; choose the account ${parent.companyName} booked the consideration on (the investment, or a gain or loss on the shares sold).` });
  });
  if (fields.length > 0) throw new AppError(400, "invalid_acquisition", fields.length === 1 ? fields[0]!.message : `${fields.length} problems; nothing was saved.`, { fields });

  const month = body.acquiredOn.slice(0, 7);
  const translated = sub.homeCurrency !== parent.homeCurrency;
  const rate = translated ? ((await ratesAt(db, user.accountId, [{ currency: sub.homeCurrency, month }])).get(`${sub.homeCurrency}:${month}`)?.closing ?? null) : null;
  const capital = body.equityAtAcquisition.filter((l) => {
    const a = subById.get(l.accountId);
    return a !== undefined && equityKindOf(a) === "contributedCapital";
  });
  const values = {
    accountId: user.accountId,
    realmId: sub.realmId,
    acquiredOn: body.acquiredOn,
    consideration: body.consideration,
    investmentAccountId: body.investmentAccountId,
    nciMeasurement: body.nciMeasurement,
    nciFairValue: body.nciFairValue,
    equityAtAcquisition: body.equityAtAcquisition,
    fairValueAdjustments: body.fairValueAdjustments,
    ownershipChanges: body.ownershipChanges,
    updatedBy: user.id,
    updatedAt: new Date(),
  };
  await db.transaction(async (tx) => {
    const { accountId: _a, realmId: _r, ...set } = values;
    await tx.insert(acquisitions).values(values).onConflictDoUpdate({ target: acquisitions.realmId, set });
    await tx.update(companies).set({ ownershipPercent: body.ownershipPercent, updatedAt: new Date() }).where(eq(companies.realmId, sub.realmId));
    if (translated && rate !== null && capital.length > 0) {
      const existing = await tx.select({ accountId: historicalEquity.accountId }).from(historicalEquity).where(and(eq(historicalEquity.realmId, sub.realmId), inArray(historicalEquity.accountId, capital.map((c) => c.accountId))));
      const have = new Set(existing.map((e) => e.accountId));
      for (const c of capital.filter((c) => !have.has(c.accountId))) {
        await tx.insert(historicalEquity).values({ realmId: sub.realmId, accountId: c.accountId, rate, amountMinor: null, updatedBy: user.id, updatedAt: new Date() });
      }
    }
    await audit(tx, { action: "acquisition.saved", accountId: user.accountId, userId: user.id, details: { realmId: sub.realmId, ...body }, ip: meta.ip, requestId: meta.requestId });
  });
  await detectChangedAdjustments(db, user.accountId);
  const fresh = await subsidiaryOf(db, user.accountId, realmId);
  const [row] = await db.select().from(acquisitions).where(eq(acquisitions.realmId, realmId)).limit(1);
  return subsidiaryView(db, user.accountId, fresh.sub, fresh.parent, (await chartOf(db, fresh.parent.realmId)).filter((a) => a.active), row);
}

export async function forgetAcquisition(db: Db, user: { id: string; accountId: string }, realmId: string, meta: Meta): Promise<void> {
  const { sub } = await subsidiaryOf(db, user.accountId, realmId);
  await db.transaction(async (tx) => {
    const gone = await tx.delete(acquisitions).where(and(eq(acquisitions.realmId, sub.realmId), eq(acquisitions.accountId, user.accountId))).returning({ realmId: acquisitions.realmId });
    if (gone.length === 0) throw errors.notFound(endSentence(`No acquisition is recorded for ${sub.companyName}`));
    await audit(tx, { action: "acquisition.deleted", accountId: user.accountId, userId: user.id, details: { realmId: sub.realmId }, ip: meta.ip, requestId: meta.requestId });
  });
  await detectChangedAdjustments(db, user.accountId);
}
