import { and, desc, eq, inArray } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  ctaSettingsSchema,
  ctaUpdateSchema,
  errorBodySchema,
  realmParamsSchema,
  ctaSubsidiarySchema,
  type CtaSubsidiary,
  type FieldError,
} from "@groupledger/contract";
import { ctaAccountProblem, normalizeRate, qboEquityKind, RATE_MESSAGE, suggestCtaAccounts } from "@groupledger/domain";
import type { AppContext } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { companies, historicalEquity, monthlyBalances, translationSettings } from "../../db/schema.ts";
import { chartOf } from "../companies/chart.ts";
import { authOf } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import { listCompanies } from "../companies/routes.ts";

const security = [{ bearer: [] }];
const tags = ["cta & historical"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

type CompanyRow = typeof companies.$inferSelect;

/** A foreign subsidiary's settings, its contributed-equity accounts with their historical translation, and what is missing. */
async function subsidiaryView(db: Db, company: CompanyRow): Promise<CtaSubsidiary> {
  const [settings] = await db.select().from(translationSettings).where(eq(translationSettings.realmId, company.realmId)).limit(1);
  const accounts = (await chartOf(db, company.realmId)).filter((a) => a.classification === "Equity" && qboEquityKind(a.accountSubType) === "contributedCapital");
  const historical = await db.select().from(historicalEquity).where(eq(historicalEquity.realmId, company.realmId));
  const byAccount = new Map(historical.map((h) => [h.accountId, h]));
  const latest = accounts.length
    ? await db
        .select({ id: monthlyBalances.qboAccountId, amount: monthlyBalances.amountMinor, month: monthlyBalances.month })
        .from(monthlyBalances)
        .where(and(eq(monthlyBalances.realmId, company.realmId), inArray(monthlyBalances.qboAccountId, accounts.map((a) => a.id))))
        .orderBy(desc(monthlyBalances.month))
    : [];
  const localAmount = new Map<string, number>();
  for (const row of latest) if (!localAmount.has(row.id)) localAmount.set(row.id, row.amount);
  const equity = accounts.map((a) => ({
    accountId: a.id,
    name: a.name,
    acctNum: a.acctNum,
    localAmount: localAmount.get(a.id) ?? null,
    historicalRate: byAccount.get(a.id)?.rate ?? "",
    historicalAmount: byAccount.get(a.id)?.amountMinor ?? null,
  }));
  const missing = [
    ...(settings?.ctaAccountId ? [] : ["Choose the parent's account that receives this subsidiary's CTA."]),
    ...equity
      .filter((e) => e.localAmount !== null && e.localAmount !== 0 && e.historicalRate === "" && e.historicalAmount === null)
      .map((e) => `Enter the historical rate or translated amount of "${e.name}".`),
  ];
  return {
    realmId: company.realmId,
    companyName: company.companyName,
    currency: company.homeCurrency,
    ownershipPercent: String(Number(company.ownershipPercent)),
    dividendRatePolicy: settings?.dividendRatePolicy ?? "declarationDate",
    ctaAccountId: settings?.ctaAccountId ?? null,
    equity,
    missing,
  };
}

export const ctaRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.get(
    "/cta",
    {
      schema: {
        tags,
        security,
        summary: "CTA account, ownership, dividend-rate policy and historical equity of every foreign subsidiary",
        response: { 200: ctaSettingsSchema, ...err },
      },
    },
    async (req) => {
      const all = await listCompanies(db, authOf(req).user.accountId);
      const parent = all.find((c) => c.isParent);
      if (!parent) return { parentRealmId: null, parentCurrency: null, ctaAccountSuggestions: [], subsidiaries: [] };
      const parentChart = await chartOf(db, parent.realmId);
      const names = new Map(parentChart.map((a) => [a.id, a.name]));
      const foreign = all.filter((c) => !c.isParent && !c.archivedAt && c.homeCurrency !== parent.homeCurrency);
      return {
        parentRealmId: parent.realmId,
        parentCurrency: parent.homeCurrency,
        ctaAccountSuggestions: suggestCtaAccounts(parentChart).map((s) => ({ ...s, name: names.get(s.accountId) ?? s.accountId })),
        subsidiaries: await Promise.all(foreign.map((c) => subsidiaryView(db, c))),
      };
    },
  );

  app.put(
    "/cta/:realmId",
    {
      schema: {
        tags,
        security,
        summary: "Set a foreign subsidiary's CTA account, ownership, dividend-rate policy and historical equity (all or nothing)",
        params: realmParamsSchema,
        body: ctaUpdateSchema,
        response: { 200: ctaSubsidiarySchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const all = await listCompanies(db, user.accountId);
      const company = all.find((c) => c.realmId === req.params.realmId);
      if (!company) throw errors.notFound("No such company in your account.");
      const parent = all.find((c) => c.isParent);
      if (!parent) throw errors.conflict("parent_required", "Choose a parent company first.");
      if (company.isParent) throw errors.conflict("parent_not_translated", "The parent is not translated; CTA settings belong to foreign subsidiaries.");
      if (company.homeCurrency === parent.homeCurrency) {
        throw errors.conflict("same_currency", `${company.companyName} keeps its books in ${company.homeCurrency} like the parent; it is not translated.`);
      }
      const body = req.body;
      const fields: FieldError[] = [];
      if (body.ctaAccountId) {
        const problem = ctaAccountProblem((await chartOf(db, parent.realmId)).find((a) => a.id === body.ctaAccountId));
        if (problem) fields.push({ path: "ctaAccountId", message: problem });
      }
      const contributed = new Set(
        (await chartOf(db, company.realmId)).filter((a) => a.classification === "Equity" && qboEquityKind(a.accountSubType) === "contributedCapital").map((a) => a.id),
      );
      const historical = (body.historical ?? []).map((h, i) => {
        if (!contributed.has(h.accountId)) fields.push({ path: `historical.${i}.accountId`, message: `Account ${h.accountId} is not a contributed-equity account of ${company.companyName}.` });
        const rateText = h.historicalRate?.trim() ?? "";
        const rate = rateText === "" ? null : normalizeRate(rateText);
        if (rateText !== "" && rate === null) fields.push({ path: `historical.${i}.historicalRate`, message: RATE_MESSAGE });
        const amount = h.historicalAmount ?? null;
        if (rate !== null && amount !== null) fields.push({ path: `historical.${i}`, message: "Give a historical rate or a translated amount, not both." });
        return { accountId: h.accountId, rate, amount };
      });
      if (fields.length > 0) throw new AppError(400, "invalid_cta_settings", fields.length === 1 ? fields[0]!.message : `${fields.length} problems; nothing was saved.`, { fields });

      await db.transaction(async (tx) => {
        if (body.ownershipPercent !== undefined) {
          await tx.update(companies).set({ ownershipPercent: body.ownershipPercent, updatedAt: new Date() }).where(eq(companies.realmId, company.realmId));
        }
        if (body.ctaAccountId !== undefined || body.dividendRatePolicy !== undefined) {
          const set = {
            ...(body.ctaAccountId !== undefined ? { ctaAccountId: body.ctaAccountId } : {}),
            ...(body.dividendRatePolicy !== undefined ? { dividendRatePolicy: body.dividendRatePolicy } : {}),
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
        await audit(tx, { action: "cta.settings_changed", accountId: user.accountId, userId: user.id, details: { realmId: company.realmId, ...body }, ip: req.ip, requestId: req.id });
      });
      const [fresh] = await db.select().from(companies).where(eq(companies.realmId, company.realmId)).limit(1);
      return subsidiaryView(db, fresh!);
    },
  );
};
