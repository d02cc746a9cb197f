import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  accountIdsRequestSchema,
  companyMapSchema,
  companyMapsSchema,
  errorBodySchema,
  mapRequestSchema,
  multimapRequestSchema,
  realmParamsSchema,
  suggestionsResponseSchema,
  type CompanyMap,
} from "@groupledger/contract";
import { chartMappingProblem, groupNames, isCompanyMapped, suggestMappings } from "@groupledger/domain";
import type { AppContext } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { accountMaps } from "../../db/schema.ts";
import { chartOf } from "../companies/chart.ts";
import { authOf } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import { loadGroup, NO_SUCH_COMPANY } from "../group/service.ts";

const security = [{ bearer: [] }];
const tags = ["mapping"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** A subsidiary of the caller's account and the account's parent, or the error that says what is missing. */
async function subsidiaryAndParent(db: Db, accountId: string, realmId: string) {
  const group = await loadGroup(db, accountId);
  const company = group.company(realmId, NO_SUCH_COMPANY);
  const parent = group.requireParent("subsidiaries are mapped onto the parent's chart of accounts");
  if (company.isParent) throw errors.conflict("parent_not_mapped", "The parent's chart is the one subsidiaries map onto; it is not mapped itself.");
  return { company, parent, all: group.companies };
}

async function loadMap(db: Db, realmId: string, parentRealmId: string): Promise<CompanyMap> {
  const [sub, parentChart, rows] = await Promise.all([
    chartOf(db, realmId),
    chartOf(db, parentRealmId),
    db.select().from(accountMaps).where(eq(accountMaps.realmId, realmId)),
  ]);
  const subById = new Map(sub.map((a) => [a.id, a]));
  const parentById = new Map(parentChart.map((a) => [a.id, a]));
  const map: Record<string, string> = {};
  const invalid: CompanyMap["invalid"] = [];
  for (const row of rows) {
    map[row.subAccountId] = row.parentAccountId;
    const s = subById.get(row.subAccountId);
    const p = parentById.get(row.parentAccountId);
    const reason = !s
      ? "This account is no longer in the subsidiary's QuickBooks chart."
      : !p
        ? "The parent account it maps to is no longer in the parent's QuickBooks chart."
        : chartMappingProblem(s, p);
    if (reason) invalid.push({ accountId: row.subAccountId, parentAccountId: row.parentAccountId, reason });
  }
  const neverABalance = sub.filter((a) => !a.everHadBalance).map((a) => a.id);
  const withBalance = sub.filter((a) => a.everHadBalance);
  return {
    realmId,
    parentRealmId,
    map,
    mapped: withBalance.filter((a) => map[a.id] !== undefined).length,
    toMap: withBalance.length,
    complete: sub.length > 0 && isCompanyMapped(sub.map((a) => a.id), Object.keys(map), neverABalance),
    invalid,
  };
}

export const mappingRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  /** Checks every pair before writing any: a batch with one bad pair changes nothing. */
  async function writePairs(accountId: string, userId: string, realmId: string, pairs: [string, string][], req: { ip: string; id: string }) {
    const { parent } = await subsidiaryAndParent(db, accountId, realmId);
    const [sub, parentChart] = await Promise.all([chartOf(db, realmId), chartOf(db, parent.realmId)]);
    const subById = new Map(sub.map((a) => [a.id, a]));
    const parentById = new Map(parentChart.map((a) => [a.id, a]));
    const fields: { path: string; message: string }[] = [];
    for (const [subId, parentId] of pairs) {
      const s = subById.get(subId);
      const p = parentById.get(parentId);
      const problem = !s
        ? `Account ${subId} is not in this subsidiary's chart of accounts.`
        : !p
          ? `Account ${parentId} is not in the parent's chart of accounts.`
          : chartMappingProblem(s, p);
      if (problem) fields.push({ path: `map.${subId}`, message: problem });
    }
    if (fields.length > 0) {
      throw new AppError(400, "invalid_mapping", fields.length === 1 ? fields[0]!.message : `${fields.length} accounts cannot be mapped as asked; nothing was changed.`, { fields });
    }
    await db.transaction(async (tx) => {
      for (let i = 0; i < pairs.length; i += 2000) {
        const batch = pairs.slice(i, i + 2000).map(([subAccountId, parentAccountId]) => ({ realmId, subAccountId, parentAccountId, mappedBy: userId, updatedAt: new Date() }));
        await tx
          .insert(accountMaps)
          .values(batch)
          .onConflictDoUpdate({
            target: [accountMaps.realmId, accountMaps.subAccountId],
            set: { parentAccountId: sql`excluded.parent_account_id`, mappedBy: userId, updatedAt: new Date() },
          });
      }
    });
    await audit(db, { action: "mapping.mapped", accountId, userId, details: { realmId, count: pairs.length, pairs: pairs.slice(0, 50) }, ip: req.ip, requestId: req.id });
    return loadMap(db, realmId, parent.realmId);
  }

  async function removeMaps(accountId: string, userId: string, realmId: string, accountIds: string[] | null, action: string, req: { ip: string; id: string }) {
    const { parent } = await subsidiaryAndParent(db, accountId, realmId);
    const where = accountIds === null ? eq(accountMaps.realmId, realmId) : and(eq(accountMaps.realmId, realmId), inArray(accountMaps.subAccountId, accountIds));
    const removed = await db.delete(accountMaps).where(where).returning({ id: accountMaps.subAccountId });
    await audit(db, { action, accountId, userId, details: { realmId, removed: removed.length, accountIds: removed.slice(0, 50).map((r) => r.id) }, ip: req.ip, requestId: req.id });
    return loadMap(db, realmId, parent.realmId);
  }

  app.get(
    "/companies/:realmId/map",
    { schema: { tags, security, summary: "A subsidiary's account map onto the parent's chart", params: realmParamsSchema, response: { 200: companyMapSchema, ...err } } },
    async (req) => {
      const { parent } = await subsidiaryAndParent(db, authOf(req).user.accountId, req.params.realmId);
      return loadMap(db, req.params.realmId, parent.realmId);
    },
  );

  app.get(
    "/companies/maps",
    { schema: { tags, security, summary: "Account maps of every subsidiary, keyed by realmId", response: { 200: companyMapsSchema, ...err } } },
    async (req) => {
      const { parent, subsidiaries } = await loadGroup(db, authOf(req).user.accountId);
      if (!parent) return {};
      return Object.fromEntries(await Promise.all(subsidiaries.map(async (c) => [c.realmId, await loadMap(db, c.realmId, parent.realmId)] as const)));
    },
  );

  app.post(
    "/companies/:realmId/map",
    { schema: { tags, security, summary: "Map subsidiary accounts to parent accounts (all or nothing)", params: realmParamsSchema, body: mapRequestSchema, response: { 200: companyMapSchema, ...err } } },
    async (req) => {
      const { user } = authOf(req);
      return writePairs(user.accountId, user.id, req.params.realmId, Object.entries(req.body.map), req);
    },
  );

  app.post(
    "/companies/:realmId/multimap",
    {
      schema: {
        tags,
        security,
        summary: "Map many subsidiary accounts onto one parent account each (keyed by the parent account)",
        params: realmParamsSchema,
        body: multimapRequestSchema,
        response: { 200: companyMapSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const pairs = Object.entries(req.body.map).flatMap(([parentId, subIds]) => subIds.map((s) => [s, parentId] as [string, string]));
      const seen = new Set<string>();
      const twice = pairs.find(([s]) => (seen.has(s) ? true : (seen.add(s), false)));
      if (twice) throw errors.badRequest("invalid_mapping", `Account ${twice[0]} is listed under two parent accounts; an account maps to one.`);
      return writePairs(user.accountId, user.id, req.params.realmId, pairs, req);
    },
  );

  app.post(
    "/companies/:realmId/unmap",
    { schema: { tags, security, summary: "Remove the maps of these subsidiary accounts", params: realmParamsSchema, body: accountIdsRequestSchema, response: { 200: companyMapSchema, ...err } } },
    async (req) => {
      const { user } = authOf(req);
      return removeMaps(user.accountId, user.id, req.params.realmId, req.body.accountIds, "mapping.unmapped", req);
    },
  );

  app.delete(
    "/companies/:realmId/map",
    { schema: { tags, security, summary: "Remove every map of this subsidiary", params: realmParamsSchema, response: { 200: companyMapSchema, ...err } } },
    async (req) => {
      const { user } = authOf(req);
      return removeMaps(user.accountId, user.id, req.params.realmId, null, "mapping.cleared", req);
    },
  );

  app.post(
    "/companies/:realmId/unmap/invalidmaps",
    {
      schema: {
        tags,
        security,
        summary: "Remove the maps of these accounts that are invalid (valid ones are kept)",
        params: realmParamsSchema,
        body: accountIdsRequestSchema,
        response: { 200: companyMapSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { parent } = await subsidiaryAndParent(db, user.accountId, req.params.realmId);
      const current = await loadMap(db, req.params.realmId, parent.realmId);
      const asked = new Set(req.body.accountIds);
      const invalidIds = current.invalid.map((i) => i.accountId).filter((id) => asked.has(id));
      if (invalidIds.length === 0) return current;
      return removeMaps(user.accountId, user.id, req.params.realmId, invalidIds, "mapping.invalid_unmapped", req);
    },
  );

  app.get(
    "/companies/:realmId/map/suggestions",
    {
      schema: {
        tags,
        security,
        summary: "Ranked parent accounts for each unmapped account with a balance (never an incompatible one); the first is confident or says why not",
        params: realmParamsSchema,
        querystring: z.object({ all: z.enum(["true", "false"]).default("false") }),
        response: { 200: suggestionsResponseSchema, ...err },
      },
    },
    async (req) => {
      const { company, parent, all } = await subsidiaryAndParent(db, authOf(req).user.accountId, req.params.realmId);
      const [sub, parentChart, current] = await Promise.all([chartOf(db, req.params.realmId), chartOf(db, parent.realmId), loadMap(db, req.params.realmId, parent.realmId)]);
      const todo = sub.filter((a) => a.everHadBalance && (req.query.all === "true" || current.map[a.id] === undefined));
      // Intercompany accounts are recognised by the group's company names (archived ones too: their balances still name them).
      const group = groupNames({ parent: parent.companyName, self: company.companyName, others: all.map((c) => c.companyName) }, parentChart);
      const suggestions = suggestMappings(todo, parentChart, { group });
      return {
        suggestions: Object.fromEntries(
          [...suggestions].map(([id, list]) => [
            id,
            list.map((s) => ({ parentAccountId: s.parentId, score: s.score, reasons: s.reasons, confident: s.confident, caution: s.caution })),
          ]),
        ),
      };
    },
  );
};

