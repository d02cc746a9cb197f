import { desc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  accountPatchSchema,
  accountSchema,
  auditListSchema,
  errorBodySchema,
  releaseNotesVersionRequestSchema,
  releaseNotesVersionSchema,
} from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { accounts, auditLog, users } from "../../db/schema.ts";
import { authOf } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";

const security = [{ bearer: [] }];
const err = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

type AccountRow = typeof accounts.$inferSelect;
const toAccount = (a: AccountRow) => ({
  id: a.id,
  name: a.name,
  onboarding: a.onboarding,
  onboardingStep: Number(a.onboardingStep),
  nabAccounts: a.nabAccounts,
  createdAt: a.createdAt.toISOString(),
});

async function loadAccount(db: Db, accountId: string): Promise<AccountRow> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
  if (!row) throw errors.notFound("Account not found.");
  return row;
}

/** Everything here is scoped to the caller's account id taken from the verified token, never from input. */
export const accountRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.get(
    "/account",
    { schema: { tags: ["account"], security, summary: "The caller's account (tenant)", response: { 200: accountSchema, ...err } } },
    async (req) => toAccount(await loadAccount(db, authOf(req).user.accountId)),
  );

  app.patch(
    "/account",
    {
      // Onboarding bookkeeping and the group's name: any member, also on a lapsed trial.
      config: { permission: "member", whenLapsed: "allowed" },
      schema: {
        tags: ["account"], security,
        summary: "Update onboarding, onboardingStep, nabAccounts or name",
        body: accountPatchSchema,
        response: { 200: accountSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { onboardingStep, ...rest } = req.body;
      const [row] = await db
        .update(accounts)
        .set({
          ...rest,
          ...(onboardingStep === undefined ? {} : { onboardingStep: String(onboardingStep) }),
          updatedAt: new Date(),
        })
        .where(eq(accounts.id, user.accountId))
        .returning();
      if (!row) throw errors.notFound("Account not found.");
      await audit(db, {
        action: "account.updated",
        accountId: user.accountId,
        userId: user.id,
        details: { fields: Object.keys(req.body) },
        ip: req.ip,
        requestId: req.id,
      });
      return toAccount(row);
    },
  );

  app.get(
    "/account/audit",
    {
      schema: {
        tags: ["account"], security,
        summary: "Recent audit log of the caller's account, newest first",
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
        response: { 200: auditListSchema, ...err },
      },
    },
    async (req) => {
      const rows = await db
        .select({
          id: auditLog.id,
          action: auditLog.action,
          userEmail: users.email,
          details: auditLog.details,
          createdAt: auditLog.createdAt,
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.userId))
        .where(eq(auditLog.accountId, authOf(req).user.accountId))
        .orderBy(desc(auditLog.id))
        .limit(req.query.limit);
      return { entries: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
    },
  );

  app.get(
    "/userpermission/releasenotesversion",
    {
      schema: {
        tags: ["account"], security,
        summary: "The release-notes version the user has acknowledged",
        response: { 200: releaseNotesVersionSchema, ...err },
      },
    },
    async (req) => ({ releaseNotesVersion: authOf(req).user.releaseNotesVersion }),
  );

  app.post(
    "/userpermission/releasenotesversion",
    {
      config: { permission: "member", whenLapsed: "allowed" },
      schema: {
        tags: ["account"], security,
        summary: "Acknowledge a release-notes version",
        body: releaseNotesVersionRequestSchema,
        response: { 200: releaseNotesVersionSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const [row] = await db
        .update(users)
        .set({ releaseNotesVersion: req.body.version, updatedAt: new Date() })
        .where(eq(users.id, user.id))
        .returning({ releaseNotesVersion: users.releaseNotesVersion });
      if (!row) throw errors.notFound("User not found.");
      return row;
    },
  );
};
