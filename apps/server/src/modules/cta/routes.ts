import { and, desc, eq, inArray } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  ctaAccountCreatedSchema,
  ctaAccountCreateSchema,
  ctaSettingsSchema,
  ctaUpdateSchema,
  errorBodySchema,
  realmParamsSchema,
  ctaSubsidiarySchema,
  type CtaSubsidiary,
  type FieldError,
} from "@groupledger/contract";
import {
  ctaAccountProblem,
  endSentence,
  isNonMonetary,
  normalizeRate,
  qboEquityKind,
  RATE_MESSAGE,
  suggestCtaAccounts,
} from "@groupledger/domain";
import type { AppContext } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { companies, historicalEquity, monthlyBalances, translationSettings } from "../../db/schema.ts";
import { chartOf } from "../companies/chart.ts";
import { authOf } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import { listCompanies } from "../companies/routes.ts";
import { createCtaAccount } from "./create-account.ts";
import { ctaSuggestionReason } from "./suggestions.ts";

const security = [{ bearer: [] }];
const tags = ["cta & historical"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

type CompanyRow = typeof companies.$inferSelect;

/** What every subsidiary's view needs to know about the others: the group keeps one CTA account. */
interface GroupChoices {
  /** Each foreign subsidiary's chosen CTA account (null: none yet), by realm. */
  ctaAccountOf: Map<string, string | null>;
  companyName: Map<string, string>;
  parentAccountName: Map<string, string>;
}

async function groupChoices(db: Db, foreign: readonly CompanyRow[], parentRealmId: string): Promise<GroupChoices> {
  const rows = foreign.length
    ? await db.select().from(translationSettings).where(inArray(translationSettings.realmId, foreign.map((c) => c.realmId)))
    : [];
  const chosen = new Map(rows.map((r) => [r.realmId, r.ctaAccountId]));
  return {
    ctaAccountOf: new Map(foreign.map((c) => [c.realmId, chosen.get(c.realmId) ?? null])),
    companyName: new Map(foreign.map((c) => [c.realmId, c.companyName])),
    parentAccountName: new Map((await chartOf(db, parentRealmId)).map((a) => [a.id, a.name])),
  };
}

/** The consolidation refuses subsidiaries that send CTA to different accounts (cta_accounts_disagree): say so on each. */
function disagreement(realmId: string, own: string | null, group: GroupChoices): string[] {
  if (!own) return [];
  const others = [...group.ctaAccountOf].filter(([r, id]) => r !== realmId && id && id !== own);
  return others.map(
    ([r, id]) =>
      `${group.companyName.get(r) ?? r} sends its CTA to "${group.parentAccountName.get(id!) ?? id}"; the group keeps one CTA account, so choose the same one for every subsidiary.`,
  );
}

/** A foreign subsidiary's settings, its contributed-equity accounts with their historical translation, and what is missing. */
async function subsidiaryView(db: Db, company: CompanyRow, group: GroupChoices): Promise<CtaSubsidiary> {
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
    ...(settings?.ctaAccountId ? [] : ["Choose the parent's account that receives this subsidiary's CTA."]),
    ...[...equity, ...nonMonetary]
      .filter((e) => e.localAmount !== null && e.localAmount !== 0 && e.historicalRate === "" && e.historicalAmount === null)
      .map((e) => `Enter the historical rate or translated amount of "${e.name}".`),
    ...disagreement(company.realmId, settings?.ctaAccountId ?? null, group),
  ];
  return {
    realmId: company.realmId,
    companyName: company.companyName,
    currency: company.homeCurrency,
    ownershipPercent: String(Number(company.ownershipPercent)),
    dividendRatePolicy: settings?.dividendRatePolicy ?? "declarationDate",
    translationMethod: method,
    ctaAccountId: settings?.ctaAccountId ?? null,
    equity,
    nonMonetary,
    missing,
  };
}

/** The caller's parent and foreign (translated) subsidiaries, with the choices they share. */
async function groupOf(db: Db, accountId: string) {
  const all = await listCompanies(db, accountId);
  const parent = all.find((c) => c.isParent);
  if (!parent) return null;
  const foreign = all.filter((c) => !c.isParent && !c.archivedAt && c.homeCurrency !== parent.homeCurrency);
  return { all, parent, foreign, choices: await groupChoices(db, foreign, parent.realmId) };
}

export const ctaRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider }) => {
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
      const group = await groupOf(db, authOf(req).user.accountId);
      if (!group) return { parentRealmId: null, parentCurrency: null, ctaAccountSuggestions: [], subsidiaries: [] };
      const { parent, foreign, choices } = group;
      const parentChart = await chartOf(db, parent.realmId);
      const byId = new Map(parentChart.map((a) => [a.id, a]));
      return {
        parentRealmId: parent.realmId,
        parentCurrency: parent.homeCurrency,
        ctaAccountSuggestions: suggestCtaAccounts(parentChart).map((s) => {
          const account = byId.get(s.accountId)!;
          return { ...s, name: account.name, reason: ctaSuggestionReason(account) };
        }),
        subsidiaries: await Promise.all(foreign.map((c) => subsidiaryView(db, c, choices))),
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

      await db.transaction(async (tx) => {
        if (body.ownershipPercent !== undefined) {
          await tx.update(companies).set({ ownershipPercent: body.ownershipPercent, updatedAt: new Date() }).where(eq(companies.realmId, company.realmId));
        }
        if (body.ctaAccountId !== undefined || body.dividendRatePolicy !== undefined || body.translationMethod !== undefined) {
          const set = {
            ...(body.ctaAccountId !== undefined ? { ctaAccountId: body.ctaAccountId } : {}),
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
        await audit(tx, { action: "cta.settings_changed", accountId: user.accountId, userId: user.id, details: { realmId: company.realmId, ...body }, ip: req.ip, requestId: req.id });
      });
      const after = await groupOf(db, user.accountId);
      const fresh = after?.foreign.find((c) => c.realmId === company.realmId);
      if (!after || !fresh) throw errors.notFound("No such company in your account.");
      return subsidiaryView(db, fresh, after.choices);
    },
  );

  app.post(
    "/cta/account",
    {
      schema: {
        tags,
        security,
        summary: "Create an equity account for the CTA in the parent's QuickBooks company and add it to the parent's chart here",
        description:
          "Equity, detail type Accumulated adjustment; the name defaults to \"Accumulated OCI – Translation\". A name QuickBooks already has answers 409 duplicate_account_name (with details.existingAccountId when it can be read); a parent QuickBooks no longer authorizes answers 409 qbo_reauthorization_required (errorCode 003200).",
        body: ctaAccountCreateSchema,
        response: { 200: ctaAccountCreatedSchema, ...err, 502: errorBodySchema },
      },
    },
    async (req) => createCtaAccount({ database, provider }, authOf(req).user, req.body.name, { ip: req.ip, requestId: req.id }),
  );
};
