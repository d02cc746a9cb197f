import { and, asc, desc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { companiesResponseSchema, companyStatusMapSchema, errorBodySchema, type Company, type CompanyStatus } from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { companies } from "../../db/schema.ts";
import { authOf } from "../../http/auth.ts";

const security = [{ bearer: [] }];
const err = { 401: errorBodySchema };

type CompanyRow = typeof companies.$inferSelect;

export const toCompany = (c: CompanyRow): Company => ({
  realmId: c.realmId,
  companyName: c.companyName,
  country: c.country,
  homeCurrency: c.homeCurrency,
  parent: c.isParent,
  earliestTransactionDate: c.earliestTransactionDate,
  fiscalYearStartMonth: c.fiscalYearStartMonth,
  ownershipPercent: String(Number(c.ownershipPercent)),
  archivedAt: c.archivedAt,
  connectedAt: c.createdAt.toISOString(),
});

const toStatus = (c: CompanyRow): CompanyStatus => ({
  connection: c.connection,
  sync: {
    state: c.syncState,
    progress: c.syncProgress === null ? null : Number(c.syncProgress),
    message: c.syncMessage,
    lastSyncedAt: c.lastSyncedAt?.toISOString() ?? null,
  },
});

/** The parent first, then subsidiaries by name: the order every screen lists them in. */
export function listCompanies(db: Db, accountId: string): Promise<CompanyRow[]> {
  return db
    .select()
    .from(companies)
    .where(eq(companies.accountId, accountId))
    .orderBy(desc(companies.isParent), asc(companies.companyName));
}

export async function parentOf(db: Db, accountId: string): Promise<CompanyRow | undefined> {
  const [row] = await db
    .select()
    .from(companies)
    .where(and(eq(companies.accountId, accountId), eq(companies.isParent, true)))
    .limit(1);
  return row;
}

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
    async (req) => (await listCompanies(db, authOf(req).user.accountId)).map(toCompany),
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
      const rows = await listCompanies(db, authOf(req).user.accountId);
      return Object.fromEntries(rows.map((c) => [c.realmId, toStatus(c)]));
    },
  );
};
