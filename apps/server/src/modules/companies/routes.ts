import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  accountsByCompanySchema,
  archiveRequestSchema,
  companiesResponseSchema,
  companyAccountsSchema,
  companyStatusMapSchema,
  errorBodySchema,
  neverABalanceQuerySchema,
  neverABalanceResponseSchema,
  realmParamsSchema,
  setParentRequestSchema,
  syncStartedSchema,
  type CompanyAccount,
  type CompanyStatus,
} from "@groupledger/contract";
import { byQboId, monthOf } from "@groupledger/domain";
import type { AppContext } from "../../context.ts";
import { rowsOf, type Db } from "../../db/client.ts";
import { companies, qboAccounts } from "../../db/schema.ts";
import { authOf } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import { loadGroup, NO_SUCH_COMPANY, toCompany, type CompanyRow } from "../group/service.ts";
import { enqueueSync } from "../sync/enqueue.ts";

const security = [{ bearer: [] }];
const err = { 401: errorBodySchema };

const toStatus = (c: CompanyRow): CompanyStatus => ({
  connection: c.connection,
  sync: {
    state: c.syncState,
    progress: c.syncProgress === null ? null : Number(c.syncProgress),
    message: c.syncMessage,
    lastSyncedAt: c.lastSyncedAt?.toISOString() ?? null,
  },
});

export const companyRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.get(
    "/companies",
    {
      schema: {
        tags: ["companies"],
        security,
        summary: "Connected companies of the caller's account, parent first",
        response: { 200: companiesResponseSchema, ...err },
      },
    },
    async (req) => (await loadGroup(db, authOf(req).user.accountId)).companies.map(toCompany),
  );

  app.get(
    "/companies/status",
    {
      schema: {
        tags: ["companies"],
        security,
        summary: "Connection and sync status of each company, keyed by realmId",
        response: { 200: companyStatusMapSchema, ...err },
      },
    },
    async (req) => {
      const group = await loadGroup(db, authOf(req).user.accountId);
      return Object.fromEntries(group.companies.map((c) => [c.realmId, toStatus(c)]));
    },
  );
};

export const companyActionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, queue, provider, tokenStore }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);
  const tags = ["companies"];
  const actionErr = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

  /** The caller's company, or 404: another account's realm is indistinguishable from none. */
  const own = async (accountId: string, realmId: string): Promise<CompanyRow> => (await loadGroup(db, accountId)).company(realmId, NO_SUCH_COMPANY);
  const log = (req: FastifyRequest, action: string, details: Record<string, unknown>) =>
    audit(db, { action, accountId: authOf(req).user.accountId, userId: authOf(req).user.id, details, ip: req.ip, requestId: req.id });

  app.post(
    "/companies/parent",
    { schema: { tags, security, summary: "Make a company the parent (the previous parent becomes a subsidiary)", body: setParentRequestSchema, response: { 200: companiesResponseSchema, ...actionErr } } },
    async (req) => {
      const { accountId } = authOf(req).user;
      const target = await own(accountId, req.body.realmId);
      if (target.archivedAt) throw errors.conflict("company_archived", "An archived company cannot be the parent. Unarchive it first.");
      await db.transaction(async (tx) => {
        await tx.update(companies).set({ isParent: false, updatedAt: new Date() }).where(and(eq(companies.accountId, accountId), eq(companies.isParent, true)));
        await tx.update(companies).set({ isParent: true, ownershipPercent: "100", updatedAt: new Date() }).where(eq(companies.realmId, target.realmId));
      });
      await log(req, "company.parent_set", { realmId: target.realmId });
      return (await loadGroup(db, accountId)).companies.map(toCompany);
    },
  );

  app.delete(
    "/companies/:realmId",
    { schema: { tags, security, summary: "Remove a company with its synced data (QuickBooks itself is untouched)", params: realmParamsSchema, response: { 204: z.null(), ...actionErr } } },
    async (req, reply) => {
      const company = await own(authOf(req).user.accountId, req.params.realmId);
      await revokeQuietly(company.realmId, req);
      await db.delete(companies).where(eq(companies.realmId, company.realmId));
      await log(req, "company.removed", { realmId: company.realmId, companyName: company.companyName });
      return reply.status(204).send(null);
    },
  );

  app.put(
    "/companies/disconnect/:realmId",
    { schema: { tags, security, summary: "Disconnect: revoke the tokens at QuickBooks; synced data stays", params: realmParamsSchema, response: { 204: z.null(), ...actionErr } } },
    async (req, reply) => {
      const company = await own(authOf(req).user.accountId, req.params.realmId);
      await revokeQuietly(company.realmId, req);
      await db.update(companies).set({ connection: "disconnected", updatedAt: new Date() }).where(eq(companies.realmId, company.realmId));
      await log(req, "company.disconnected", { realmId: company.realmId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/companies/archive/:realmId",
    {
      schema: {
        tags,
        security,
        summary: "Archive a company from a date (it leaves consolidations after it); null unarchives",
        params: realmParamsSchema,
        body: archiveRequestSchema,
        response: { 204: z.null(), ...actionErr },
      },
    },
    async (req, reply) => {
      const company = await own(authOf(req).user.accountId, req.params.realmId);
      if (company.isParent && req.body.date) throw errors.conflict("parent_archive", "The parent cannot be archived. Make another company the parent first.");
      await db.update(companies).set({ archivedAt: req.body.date, updatedAt: new Date() }).where(eq(companies.realmId, company.realmId));
      await log(req, req.body.date ? "company.archived" : "company.unarchived", { realmId: company.realmId, date: req.body.date });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/companies/:realmId/sync",
    { schema: { tags, security, summary: "Sync now (returns the running sync if one is already under way)", params: realmParamsSchema, response: { 202: syncStartedSchema, ...actionErr } } },
    async (req, reply) => {
      const company = await own(authOf(req).user.accountId, req.params.realmId);
      if (company.connection !== "connected") throw errors.conflict("not_connected", "Reconnect this company before syncing it.");
      return reply.status(202).send(await enqueueSync(database, queue, company));
    },
  );

  app.get(
    "/companies/:realmId/accounts",
    { schema: { tags, security, summary: "A company's synced chart of accounts with latest amounts", params: realmParamsSchema, response: { 200: companyAccountsSchema, ...actionErr } } },
    async (req) => {
      const company = await own(authOf(req).user.accountId, req.params.realmId);
      return (await accountsOf(db, [company.realmId])).get(company.realmId) ?? [];
    },
  );

  app.get(
    "/companies/accounts",
    { schema: { tags, security, summary: "Synced accounts of every company, keyed by realmId", response: { 200: accountsByCompanySchema, ...actionErr } } },
    async (req) => {
      const realms = (await loadGroup(db, authOf(req).user.accountId)).companies.map((c) => c.realmId);
      const byRealm = await accountsOf(db, realms);
      return Object.fromEntries(realms.map((r) => [r, byRealm.get(r) ?? []]));
    },
  );

  app.get(
    "/companies/neverabalance",
    {
      schema: {
        tags,
        security,
        summary: "Accounts that never had a balance, per company",
        querystring: neverABalanceQuerySchema,
        response: { 200: neverABalanceResponseSchema, ...actionErr },
      },
    },
    async (req) => {
      const { accountId } = authOf(req).user;
      const { realmId, forAllCompanies, status } = req.query;
      const group = await loadGroup(db, accountId);
      const realms = forAllCompanies === "true" ? group.companies.map((c) => c.realmId) : [group.company(realmId ?? "", NO_SUCH_COMPANY).realmId];
      const byRealm = await accountsOf(db, realms);
      return realms.map((r) => ({
        realmId: r,
        neverABalanceAccountsForCompany: (byRealm.get(r) ?? [])
          .filter((a) => !a.everHadBalance && (status === "all" || a.active === (status === "active")))
          .map((a) => a.Id)
          .sort(byQboId),
      }));
    },
  );

  /** Revoking is best effort: the company is disconnected on our side whatever QuickBooks says. */
  async function revokeQuietly(realmId: string, req: FastifyRequest): Promise<void> {
    const tokens = await tokenStore.load(realmId).catch(() => null);
    if (tokens) {
      await provider
        .oauth("http://localhost/qbo/auth/complete")
        .revoke(tokens.refreshToken)
        .catch((err: unknown) => req.log.warn({ err, realmId }, "revoking at QuickBooks failed; the tokens are deleted anyway"));
    }
    await tokenStore.delete(realmId);
  }
};

/** QBO ids are numbers in text: "9" before "10". */

/**
 * Accounts with their latest synced amount, in chart order (number, then name): a balance-sheet
 * account's closing balance at the latest synced month-end; an income or expense account's
 * activity in the last full month before `now` (the current month is still being booked, and its
 * activity so far, often nothing, says little about the account).
 */
async function accountsOf(db: Db, realmIds: readonly string[], now = new Date()): Promise<Map<string, CompanyAccount[]>> {
  const result = new Map<string, CompanyAccount[]>();
  if (realmIds.length === 0) return result;
  const rows = await db
    .select()
    .from(qboAccounts)
    .where(inArray(qboAccounts.realmId, [...realmIds]))
    .orderBy(asc(qboAccounts.realmId), asc(qboAccounts.acctNum), asc(qboAccounts.fullyQualifiedName));
  // The latest synced month of each account. A separate query: correlated subqueries in a
  // single-table drizzle select lose their table qualifiers (realm_id would match itself).
  const latest = rowsOf<{ realm_id: string; qbo_account_id: string; amount: string; month: string }>(
    await db.execute(sql`
      select distinct on (realm_id, qbo_account_id) realm_id, qbo_account_id, amount_minor::text as amount, to_char(month, 'YYYY-MM') as month
      from monthly_balances
      where realm_id in (${sql.join(
        realmIds.map((r) => sql`${r}`),
        sql`, `,
      )})
        and (kind = 'closing' or month < ${`${monthOf(now)}-01`}::date)
      order by realm_id, qbo_account_id, month desc`),
  );
  const latestOf = new Map(latest.map((l) => [`${l.realm_id}:${l.qbo_account_id}`, l]));
  for (const r of rows) {
    const list = result.get(r.realmId) ?? [];
    list.push({
      Id: r.qboId,
      name: r.name,
      fullyQualifiedName: r.fullyQualifiedName,
      acctNum: r.acctNum,
      accountType: r.accountType,
      accountSubType: r.accountSubType,
      classification: r.classification,
      currency: r.currency,
      active: r.active,
      everHadBalance: r.everHadBalance,
      latestAmount: latestOf.has(`${r.realmId}:${r.qboId}`) ? Number(latestOf.get(`${r.realmId}:${r.qboId}`)!.amount) : null,
      latestMonth: latestOf.get(`${r.realmId}:${r.qboId}`)?.month ?? null,
    });
    result.set(r.realmId, list);
  }
  return result;
}
