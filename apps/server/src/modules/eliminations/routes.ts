import { and, eq, inArray } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  companyNamesQuerySchema,
  companyNamesSchema,
  eliminationPairRequestSchema,
  eliminationPairSchema,
  eliminationPairsSchema,
  eliminationPostRequestSchema,
  eliminationsQuerySchema,
  eliminationToleranceRequestSchema,
  eliminationToleranceViewSchema,
  eliminationViewSchema,
  errorBodySchema,
  pairParamsSchema,
  postingSummarySchema,
  type RunPeriod,
} from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/client.ts";
import { consolidationPostings, eliminationPairs, qboAccounts, qboNames } from "../../db/schema.ts";
import { authOf } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { loadGroup } from "../group/service.ts";
import { INTERCO_REALM } from "../posting/names.ts";
import { postGroupEntry, postingBusy, summarize, type PostingRow } from "../posting/postings.ts";
import { enqueueSync } from "../sync/enqueue.ts";
import { setTolerance, toleranceView } from "./tolerance.ts";
import { computeEliminations, INTERCO_CLASS, pairRows, pairViews } from "./view.ts";
import { comparableCompanyName } from "@groupledger/domain";

const security = [{ bearer: [] }];
const tags = ["eliminations"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 502: errorBodySchema };

const ASSET_OR_LIABILITY = new Set(["Asset", "Liability"]);
const REVENUE_OR_EXPENSE = new Set(["Revenue", "Expense"]);

type PairRow = typeof eliminationPairs.$inferSelect;
type NewSide = { realmId: string; accountId: string; name?: { kind: string; id: string } | null | undefined };

/**
 * The first existing pair whose side covers amounts a new side would also take: the same account,
 * and either side on the whole account or both on the same customer or vendor. `twin`: the
 * existing pair has exactly the new pair's two sides.
 */
function overlappingPair(existing: readonly PairRow[], sides: readonly NewSide[]): { pair: PairRow; side: number; twin: boolean } | undefined {
  const sidesOf = (r: PairRow) => [
    { realmId: r.leftRealmId, accountId: r.leftAccountId, kind: r.leftNameKind, id: r.leftNameId },
    { realmId: r.rightRealmId, accountId: r.rightAccountId, kind: r.rightNameKind, id: r.rightNameId },
  ];
  const same = (o: ReturnType<typeof sidesOf>[number], s: NewSide) => o.realmId === s.realmId && o.accountId === s.accountId && o.kind === (s.name?.kind ?? "") && o.id === (s.name?.id ?? "");
  const twin = existing.find((r) => sidesOf(r).every((o, i) => same(o, sides[i]!)));
  if (twin) return { pair: twin, side: 0, twin: true };
  for (const [side, s] of sides.entries()) {
    const pair = existing.find((r) => sidesOf(r).some((o) => o.realmId === s.realmId && o.accountId === s.accountId && (!o.kind || !s.name || (o.kind === s.name.kind && o.id === s.name.id))));
    if (pair) return { pair, side, twin: false };
  }
  return undefined;
}

export const eliminationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider, queue }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);
  const meta = (req: { ip: string; id: string }) => ({ ip: req.ip, requestId: req.id });

  app.get(
    "/eliminations/pairs",
    { schema: { tags, security, summary: "Intercompany pairs of the account", response: { 200: eliminationPairsSchema, ...err } } },
    async (req) => {
      const { user } = authOf(req);
      return { pairs: await pairViews(db, user.accountId, await pairRows(db, user.accountId)) };
    },
  );

  app.post(
    "/eliminations/pairs",
    {
      config: { permission: "member" },
      schema: {
        tags,
        security,
        summary: "Define an intercompany pair: a receivable (or revenue) account in one company against a payable (or expense) account in another",
        body: eliminationPairRequestSchema,
        response: { 200: eliminationPairSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const body = req.body;
      const group = await loadGroup(db, user.accountId);
      const sides = [body.left, body.right].map((s, i) => {
        const company = group.company(s.realmId);
        return { ...s, company, label: i === 0 ? (body.kind === "receivablePayable" ? "receivable" : "revenue") : body.kind === "receivablePayable" ? "payable" : "expense" };
      });
      if (sides[0]!.realmId === sides[1]!.realmId) throw errors.badRequest("same_company", "Both sides are in the same company; an intercompany pair is between two group companies.");
      const accounts = await db.select().from(qboAccounts).where(inArray(qboAccounts.realmId, sides.map((s) => s.realmId)));
      for (const s of sides) {
        const a = accounts.find((x) => x.realmId === s.realmId && x.qboId === s.accountId);
        if (!a) throw errors.notFound(`Account ${s.accountId} is not in ${s.company.companyName}'s chart of accounts.`);
        const allowed = body.kind === "receivablePayable" ? ASSET_OR_LIABILITY : REVENUE_OR_EXPENSE;
        if (!allowed.has(a.classification)) {
          throw errors.badRequest(
            "incompatible_account",
            `${s.company.companyName}'s ${a.name} is ${a.classification.toLowerCase()}: a ${body.kind === "receivablePayable" ? "receivable/payable pair takes asset and liability accounts" : "revenue/expense pair takes revenue and expense accounts"}.`,
          );
        }
      }
      const [left, right] = sides.map((s) => accounts.find((x) => x.realmId === s.realmId && x.qboId === s.accountId)!);
      if (left!.classification === right!.classification) {
        throw errors.badRequest("incompatible_account", `Both sides are ${left!.classification.toLowerCase()} accounts; one side must be ${body.kind === "receivablePayable" ? "an asset and the other a liability" : "revenue and the other an expense"}.`);
      }
      const named = sides.filter((s) => s.name);
      const knownNames = named.length === 0 ? [] : await db.select().from(qboNames).where(inArray(qboNames.realmId, named.map((s) => s.realmId)));
      for (const s of named) {
        const n = knownNames.find((k) => k.realmId === s.realmId && k.kind === s.name!.kind && k.qboId === s.name!.id);
        if (!n) throw errors.notFound(`${s.name!.kind} ${s.name!.id} is not among ${s.company.companyName}'s customers and vendors; sync the company if it was added in QuickBooks since.`);
      }
      // Each side is eliminated in full: the same amounts in two pairs would be eliminated twice.
      const clash = overlappingPair(await pairRows(db, user.accountId), sides);
      if (clash?.twin) throw errors.conflict("pair_exists", `These two accounts are already paired ("${clash.pair.name}").`);
      if (clash) {
        const s = sides[clash.side]!;
        const account = clash.side === 0 ? left! : right!;
        throw errors.conflict(
          "pair_exists",
          `${s.company.companyName}'s ${account.name}${s.name ? " (for that name)" : ""} is already in the pair "${clash.pair.name}"; an amount can be eliminated only once. Limit each pair to a different customer or vendor, or remove "${clash.pair.name}" first.`,
        );
      }
      const [created] = await db
        .insert(eliminationPairs)
        .values({
          accountId: user.accountId,
          name: body.name,
          kind: body.kind,
          leftRealmId: body.left.realmId,
          leftAccountId: body.left.accountId,
          leftNameKind: body.left.name?.kind ?? "",
          leftNameId: body.left.name?.id ?? "",
          rightRealmId: body.right.realmId,
          rightAccountId: body.right.accountId,
          rightNameKind: body.right.name?.kind ?? "",
          rightNameId: body.right.name?.id ?? "",
          differenceTo: body.differenceTo,
          createdBy: user.id,
        })
        .onConflictDoNothing()
        .returning();
      if (!created) throw errors.conflict("pair_exists", "These two accounts are already paired.");
      await audit(db, { action: "eliminations.pair_created", accountId: user.accountId, userId: user.id, details: { pairId: created.id, name: created.name }, ...meta(req) });
      // A name never paired before has no balances yet: its company's sync fetches them.
      for (const realmId of new Set(named.map((s) => s.realmId))) {
        const unfetched = named.some((s) => s.realmId === realmId && !knownNames.find((k) => k.realmId === realmId && k.kind === s.name!.kind && k.qboId === s.name!.id)?.balancesThrough);
        const company = group.company(realmId);
        if (unfetched && company.connection === "connected") await enqueueSync(database, queue, company);
      }
      return (await pairViews(db, user.accountId, [created]))[0]!;
    },
  );

  app.get(
    "/eliminations/names",
    {
      schema: {
        tags,
        security,
        summary: "A company's customers and vendors, for limiting a pair side to the one that stands for a group member",
        querystring: companyNamesQuerySchema,
        response: { 200: companyNamesSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const group = await loadGroup(db, user.accountId);
      const company = group.company(req.query.realmId);
      const rows = await db.select().from(qboNames).where(eq(qboNames.realmId, company.realmId));
      const others = group.companies.filter((c) => c.realmId !== company.realmId).map((c) => ({ key: comparableCompanyName(c.companyName), realmId: c.realmId, companyName: c.companyName }));
      const names = rows
        .map((n) => {
          const key = comparableCompanyName(n.displayName);
          const match = others.find((o) => o.key !== "" && o.key === key);
          return { kind: n.kind, id: n.qboId, displayName: n.displayName, active: n.active, represents: match ? { realmId: match.realmId, companyName: match.companyName } : null };
        })
        // Group members first, then by name.
        .sort((a, b) => Number(b.represents !== null) - Number(a.represents !== null) || a.displayName.localeCompare(b.displayName) || a.kind.localeCompare(b.kind));
      const syncedAt = rows.reduce<Date | null>((m, n) => (m === null || n.syncedAt > m ? n.syncedAt : m), null);
      return { realmId: company.realmId, syncedAt: syncedAt?.toISOString() ?? company.lastSyncedAt?.toISOString() ?? null, names };
    },
  );

  app.delete(
    "/eliminations/pairs/:pairId",
    {
      config: { permission: "member" },
      schema: { tags, security, summary: "Remove an intercompany pair (entries already posted stay in QuickBooks)", params: pairParamsSchema, response: { 200: z.object({ deleted: z.literal(true) }), ...err } },
    },
    async (req) => {
      const { user } = authOf(req);
      const [deleted] = await db.delete(eliminationPairs).where(and(eq(eliminationPairs.id, req.params.pairId), eq(eliminationPairs.accountId, user.accountId))).returning();
      if (!deleted) throw errors.notFound("No such pair in your account.");
      await audit(db, { action: "eliminations.pair_deleted", accountId: user.accountId, userId: user.id, details: { pairId: deleted.id, name: deleted.name }, ...meta(req) });
      return { deleted: true as const };
    },
  );

  app.get(
    "/eliminations/tolerance",
    {
      schema: {
        tags,
        security,
        summary: "The group's elimination tolerance: pairs whose sides differ by no more (parent-currency minor units) count as matched",
        response: { 200: eliminationToleranceViewSchema, ...err },
      },
    },
    async (req) => toleranceView(db, authOf(req).user.accountId),
  );

  app.put(
    "/eliminations/tolerance",
    {
      config: { permission: "member" },
      schema: {
        tags,
        security,
        summary:
          "Set the group's elimination tolerance in the parent currency's minor units (0 = exact matching, at most 100000). Differences within it are still shown and posted to the pair's difference account",
        body: eliminationToleranceRequestSchema,
        response: { 200: eliminationToleranceViewSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { before } = await setTolerance(db, user.accountId, req.body.tolerance);
      await audit(db, { action: "eliminations.tolerance_set", accountId: user.accountId, userId: user.id, details: { before, tolerance: req.body.tolerance }, ...meta(req) });
      return toleranceView(db, user.accountId);
    },
  );

  app.get(
    "/eliminations",
    {
      schema: {
        tags,
        security,
        summary: "A period's eliminations: both sides of each pair in the parent currency, the difference and its translation part, and the entry to post",
        querystring: eliminationsQuerySchema,
        response: { 200: eliminationViewSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { view } = await computeEliminations(db, user.accountId, req.query);
      const [live] = await db
        .select()
        .from(consolidationPostings)
        .where(and(eq(consolidationPostings.accountId, user.accountId), eq(consolidationPostings.realmId, INTERCO_REALM), eq(consolidationPostings.periodFrom, view.period.from), eq(consolidationPostings.periodTo, view.period.to), eq(consolidationPostings.status, "posted")))
        .limit(1);
      return { ...view, posted: live ? ((await summarize(db, [live]))[0] ?? null) : null };
    },
  );

  app.post(
    "/eliminations/post",
    {
      schema: {
        tags,
        security,
        summary: "Post a period's elimination entry into the parent's QuickBooks under the Interco class, once",
        body: eliminationPostRequestSchema,
        response: { 200: z.object({ outcome: z.enum(["posted", "duplicate"]), posting: postingSummarySchema }), ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const result = await database.withLock(`consolidation-post:${user.accountId}:${INTERCO_REALM}`, postingBusy("the intercompany eliminations"), () =>
        postEliminations({ database, provider }, user.accountId, user.id, req.body.period, meta(req)),
      );
      const [summary] = await summarize(db, [result.posting]);
      return { outcome: result.outcome, posting: summary! };
    },
  );
};

/** The posting protocol (modules/posting), under the Interco class. */
async function postEliminations(
  deps: { database: Database; provider: QboProvider },
  accountId: string,
  userId: string,
  period: RunPeriod,
  meta: { ip: string; requestId: string },
): Promise<{ outcome: "posted" | "duplicate"; posting: PostingRow }> {
  const { view, pairLines } = await computeEliminations(deps.database.db, accountId, period);
  const p = view.period;
  return postGroupEntry(deps, {
    accountId,
    userId,
    realmId: INTERCO_REALM,
    what: "eliminations",
    view,
    nothingDefined: view.pairs.length === 0 ? "Define an intercompany pair first: there is nothing to eliminate." : null,
    post: {
      inputs: { pairs: pairLines },
      className: INTERCO_CLASS,
      counterparty: "Intercompany eliminations",
      privateNote: `GroupLedger: intercompany eliminations for ${p.label} (${view.pairs.length} pair${view.pairs.length === 1 ? "" : "s"}).`,
      description: `Intercompany elimination ${p.label}`,
      auditAction: "eliminations.posted",
      meta,
    },
  });
}
