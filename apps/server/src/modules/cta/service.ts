import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { CtaSettings, CtaSubsidiary, ctaUpdateSchema, FieldError } from "@groupledger/contract";
import { accountLabel, ctaAccountProblem, ctaSuggestionReason, endSentence, isNonMonetary, normalizeRate, qboEquityKind, RATE_MESSAGE, suggestCtaAccounts } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { companies, historicalEquity, monthlyBalances, translationSettings } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { RequestMeta } from "../../services/audit.ts";
import { audit } from "../../services/audit.ts";
import { chartOf } from "../companies/chart.ts";
import { loadGroup, NO_SUCH_COMPANY, type CompanyRow } from "../group/service.ts";

/**
 * CTA & Historical: the group's one CTA account (the parent's equity account that receives every
 * foreign subsidiary's CTA) and each foreign subsidiary's translation settings and historical
 * equity. Creating the account in QuickBooks is create-account.ts.
 */

type CtaUpdate = z.output<typeof ctaUpdateSchema>;

/** A foreign subsidiary's to-do while the group has no CTA account. */
const GROUP_CTA_MISSING = "Choose the group's CTA account at the top of this page: the parent's equity account that receives the CTA of every foreign subsidiary.";

/** What the group's CTA account looks like in a message: 3600 "Accumulated OCI". */
async function groupAccountLabel(db: Db, parentRealmId: string, id: string): Promise<string> {
  const account = (await chartOf(db, parentRealmId)).find((a) => a.id === id);
  return account ? accountLabel(account) : `account ${id}`;
}

/** A foreign subsidiary's settings, its contributed-equity accounts with their historical translation, and what is missing. */
async function subsidiaryView(db: Db, company: CompanyRow, groupCtaAccountId: string | null): Promise<CtaSubsidiary> {
  const [settings] = await db.select().from(translationSettings).where(eq(translationSettings.realmId, company.realmId)).limit(1);
  const chart = await chartOf(db, company.realmId);
  const method = settings?.method ?? "currentRate";
  const accounts = chart.filter((a) => a.classification === "Equity" && qboEquityKind(a.accountSubType) === "contributedCapital");
  const nonMonetaryAccounts = method === "temporal" ? chart.filter(isNonMonetary) : [];
  const historical = await db.select().from(historicalEquity).where(eq(historicalEquity.realmId, company.realmId));
  const byAccount = new Map(historical.map((h) => [h.accountId, h]));
  const listed = [...accounts, ...nonMonetaryAccounts];
  const latest = listed.length
    ? await db
        .select({ id: monthlyBalances.qboAccountId, amount: monthlyBalances.amountMinor, month: monthlyBalances.month })
        .from(monthlyBalances)
        .where(and(eq(monthlyBalances.realmId, company.realmId), inArray(monthlyBalances.qboAccountId, listed.map((a) => a.id))))
        .orderBy(desc(monthlyBalances.month))
    : [];
  const localAmount = new Map<string, number>();
  for (const row of latest) if (!localAmount.has(row.id)) localAmount.set(row.id, row.amount);
  const view = (a: (typeof accounts)[number]) => ({
    accountId: a.id,
    name: a.name,
    acctNum: a.acctNum,
    localAmount: localAmount.get(a.id) ?? null,
    historicalRate: byAccount.get(a.id)?.rate ?? "",
    historicalAmount: byAccount.get(a.id)?.amountMinor ?? null,
  });
  const equity = accounts.map(view);
  // Under the temporal method only the accounts that hold a balance need a historical rate.
  const nonMonetary = nonMonetaryAccounts.map(view).filter((a) => a.localAmount !== null && a.localAmount !== 0);
  const missing = [
    ...(groupCtaAccountId ? [] : [GROUP_CTA_MISSING]),
    ...[...equity, ...nonMonetary]
      .filter((e) => e.localAmount !== null && e.localAmount !== 0 && e.historicalRate === "" && e.historicalAmount === null)
      .map((e) => `Enter the historical rate or translated amount of "${e.name}".`),
  ];
  return {
    realmId: company.realmId,
    companyName: company.companyName,
    currency: company.homeCurrency,
    ownershipPercent: String(Number(company.ownershipPercent)),
    dividendRatePolicy: settings?.dividendRatePolicy ?? "declarationDate",
    translationMethod: method,
    ctaAccountId: groupCtaAccountId,
    equity,
    nonMonetary,
    missing,
  };
}

/** The caller's parent and foreign (translated) subsidiaries; null without a parent. */
async function translatedGroup(db: Db, accountId: string) {
  const { parent, unarchivedSubsidiaries } = await loadGroup(db, accountId);
  if (!parent) return null;
  return { parent, foreign: unarchivedSubsidiaries.filter((c) => c.homeCurrency !== parent.homeCurrency) };
}

/** The group's CTA account and suggestions, and every foreign subsidiary's settings. */
export async function ctaSettings(db: Db, accountId: string): Promise<CtaSettings> {
  const group = await translatedGroup(db, accountId);
  if (!group) return { parentRealmId: null, parentCurrency: null, ctaAccountId: null, ctaAccountSuggestions: [], subsidiaries: [] };
  const { parent, foreign } = group;
  const parentChart = await chartOf(db, parent.realmId);
  const byId = new Map(parentChart.map((a) => [a.id, a]));
  return {
    parentRealmId: parent.realmId,
    parentCurrency: parent.homeCurrency,
    ctaAccountId: parent.ctaAccountId,
    ctaAccountSuggestions: suggestCtaAccounts(parentChart).map((s) => {
      const account = byId.get(s.accountId)!;
      return { ...s, name: account.name, reason: ctaSuggestionReason(account) };
    }),
    subsidiaries: await Promise.all(foreign.map((c) => subsidiaryView(db, c, parent.ctaAccountId))),
  };
}

/** Chooses the group's one CTA account, for every foreign subsidiary at once; answers the settings. */
export async function chooseGroupCtaAccount(db: Db, user: UserRow, ctaAccountId: string, meta: RequestMeta): Promise<CtaSettings> {
  const parent = (await loadGroup(db, user.accountId)).requireParent("the CTA account is one of the parent's equity accounts");
  const problem = ctaAccountProblem((await chartOf(db, parent.realmId)).find((a) => a.id === ctaAccountId));
  if (problem) throw new AppError(400, "invalid_cta_account", problem, { fields: [{ path: "ctaAccountId", message: problem }] });
  await db.transaction(async (tx) => {
    await tx.update(companies).set({ ctaAccountId, updatedAt: new Date() }).where(eq(companies.realmId, parent.realmId));
    await audit(tx, { action: "cta.group_account_chosen", accountId: user.accountId, userId: user.id, details: { realmId: parent.realmId, ctaAccountId, before: parent.ctaAccountId }, ...meta });
  });
  return ctaSettings(db, user.accountId);
}

/** Saves a foreign subsidiary's ownership, dividend-rate policy, translation method and historical equity, all or nothing. */
export async function saveSubsidiaryCta(db: Db, user: UserRow, realmId: string, body: CtaUpdate, meta: RequestMeta): Promise<CtaSubsidiary> {
  const group = await loadGroup(db, user.accountId);
  const company = group.company(realmId, NO_SUCH_COMPANY);
  const parent = group.requireParent();
  if (company.isParent) throw errors.conflict("parent_not_translated", "The parent is not translated; CTA settings belong to foreign subsidiaries.");
  if (company.homeCurrency === parent.homeCurrency) {
    throw errors.conflict("same_currency", `${company.companyName} keeps its books in ${company.homeCurrency} like the parent; it is not translated.`);
  }
  const fields: FieldError[] = [];
  if (body.ctaAccountId) {
    const problem = ctaAccountProblem((await chartOf(db, parent.realmId)).find((a) => a.id === body.ctaAccountId));
    if (problem) fields.push({ path: "ctaAccountId", message: problem });
  }
  const [current] = await db.select({ method: translationSettings.method }).from(translationSettings).where(eq(translationSettings.realmId, company.realmId)).limit(1);
  const temporal = (body.translationMethod ?? current?.method ?? "currentRate") === "temporal";
  // Contributed capital always; non-monetary items too under the temporal method.
  const contributed = new Set(
    (await chartOf(db, company.realmId))
      .filter((a) => (a.classification === "Equity" && qboEquityKind(a.accountSubType) === "contributedCapital") || (temporal && isNonMonetary(a)))
      .map((a) => a.id),
  );
  const historical = (body.historical ?? []).map((h, i) => {
    if (!contributed.has(h.accountId)) fields.push({ path: `historical.${i}.accountId`, message: endSentence(`Account ${h.accountId} is not a contributed-equity account${temporal ? " or non-monetary item" : ""} of ${company.companyName}`) });
    const rateText = h.historicalRate?.trim() ?? "";
    const rate = rateText === "" ? null : normalizeRate(rateText);
    if (rateText !== "" && rate === null) fields.push({ path: `historical.${i}.historicalRate`, message: RATE_MESSAGE });
    const amount = h.historicalAmount ?? null;
    if (rate !== null && amount !== null) fields.push({ path: `historical.${i}`, message: "Give a historical rate or a translated amount, not both." });
    return { accountId: h.accountId, rate, amount };
  });
  if (fields.length > 0) throw new AppError(400, "invalid_cta_settings", fields.length === 1 ? fields[0]!.message : `${fields.length} problems; nothing was saved.`, { fields });
  // The CTA account is the group's (PUT /api/cta/account). Kept here for callers that set it per
  // subsidiary: it chooses the group's account while none is chosen, and is refused when it would
  // send this subsidiary's CTA elsewhere than every other's.
  const chooseForGroup = body.ctaAccountId !== undefined && body.ctaAccountId !== parent.ctaAccountId ? body.ctaAccountId : undefined;
  if (chooseForGroup !== undefined && parent.ctaAccountId !== null) {
    throw errors.conflict(
      "group_cta_account",
      `The group keeps one CTA account: ${parent.companyName}'s ${await groupAccountLabel(db, parent.realmId, parent.ctaAccountId)} receives the CTA of every foreign subsidiary. Change it for the whole group at the top of CTA & Historical (PUT /api/cta/account); nothing was saved.`,
    );
  }

  await db.transaction(async (tx) => {
    if (body.ownershipPercent !== undefined) {
      await tx.update(companies).set({ ownershipPercent: body.ownershipPercent, updatedAt: new Date() }).where(eq(companies.realmId, company.realmId));
    }
    if (chooseForGroup) {
      await tx.update(companies).set({ ctaAccountId: chooseForGroup, updatedAt: new Date() }).where(and(eq(companies.realmId, parent.realmId), isNull(companies.ctaAccountId)));
    }
    if (body.dividendRatePolicy !== undefined || body.translationMethod !== undefined) {
      const set = {
        ...(body.dividendRatePolicy !== undefined ? { dividendRatePolicy: body.dividendRatePolicy } : {}),
        ...(body.translationMethod !== undefined ? { method: body.translationMethod } : {}),
        updatedBy: user.id,
        updatedAt: new Date(),
      };
      await tx.insert(translationSettings).values({ realmId: company.realmId, ...set }).onConflictDoUpdate({ target: translationSettings.realmId, set });
    }
    for (const h of historical) {
      if (h.rate === null && h.amount === null) {
        await tx.delete(historicalEquity).where(and(eq(historicalEquity.realmId, company.realmId), eq(historicalEquity.accountId, h.accountId)));
      } else {
        const set = { rate: h.rate, amountMinor: h.amount, updatedBy: user.id, updatedAt: new Date() };
        await tx.insert(historicalEquity).values({ realmId: company.realmId, accountId: h.accountId, ...set }).onConflictDoUpdate({ target: [historicalEquity.realmId, historicalEquity.accountId], set });
      }
    }
    await audit(tx, { action: "cta.settings_changed", accountId: user.accountId, userId: user.id, details: { realmId: company.realmId, ...body }, ...meta });
  });
  const after = await translatedGroup(db, user.accountId);
  const fresh = after?.foreign.find((c) => c.realmId === company.realmId);
  if (!after || !fresh) throw errors.notFound(NO_SUCH_COMPANY);
  return subsidiaryView(db, fresh, after.parent.ctaAccountId);
}
