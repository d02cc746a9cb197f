import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  errorBodySchema,
  multiRunRequestSchema,
  postingParamsSchema,
  postingsQuerySchema,
  postingsResponseSchema,
  postingSummarySchema,
  repostRequestSchema,
  runDetailSchema,
  runParamsSchema,
  runPreviewSchema,
  runRequestSchema,
  runsResponseSchema,
  type RunDetail,
  type RunSummary,
} from "@groupledger/contract";
import { monthList } from "@groupledger/domain";
import type { AppContext } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { companies, consolidationPostings, consolidationRunItems, consolidationRuns, users } from "../../db/schema.ts";
import { authOf } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import { loadGroup } from "../group/service.ts";
import { computePeriodEntry, openingOf } from "./entry.ts";
import { activeRunFilter, enqueueRun, itemCounts } from "./job.ts";
import { summarize } from "../posting/postings.ts";
import { postPeriod, replacePosting } from "./post.ts";

const security = [{ bearer: [] }];
const err = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 502: errorBodySchema };
/** A run of more items than this is better split: it would hold the parent's QBO for hours. */
export const MAX_RUN_ITEMS = 1200;

export const runRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { database, requireAuth, provider, queue } = ctx;
  const { db } = database;
  app.addHook("onRequest", requireAuth);
  const meta = (req: { ip: string; id: string }) => ({ ip: req.ip, requestId: req.id });
  const deps = { database, provider };

  app.post(
    "/consolidation/preview",
    {
      // Computes without changing anything: members may, and so may a lapsed trial.
      config: { permission: "member", whenLapsed: "allowed" },
      schema: {
        tags: ["consolidation"],
        security,
        summary: "Preview one subsidiary-period as the journal entry that would post it: translated, mapped, with the CTA line and its explanation",
        body: runRequestSchema,
        response: { 200: runPreviewSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { preview } = await computePeriodEntry(db, user.accountId, req.body.realmId, req.body.period);
      const [live] = await db
        .select()
        .from(consolidationPostings)
        .where(
          and(
            eq(consolidationPostings.accountId, user.accountId),
            eq(consolidationPostings.realmId, req.body.realmId),
            eq(consolidationPostings.periodFrom, preview.period.from),
            eq(consolidationPostings.periodTo, preview.period.to),
            eq(consolidationPostings.status, "posted"),
          ),
        )
        .limit(1);
      const [posted] = live ? await summarize(db, [live]) : [];
      return { ...preview, posted: posted ?? null };
    },
  );

  app.post(
    "/consolidation/post",
    {
      schema: {
        tags: ["consolidation"],
        security,
        summary: "Post one subsidiary-period into the parent's QuickBooks, tagged with the subsidiary's class; a repeat returns the entry already posted",
        body: runRequestSchema,
        response: { 200: z.object({ outcome: z.enum(["posted", "duplicate"]), posting: postingSummarySchema }), ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { outcome, posting } = await postPeriod(deps, { accountId: user.accountId, userId: user.id, realmId: req.body.realmId, period: req.body.period, meta: meta(req) });
      const [summary] = await summarize(db, [posting]);
      return { outcome, posting: summary! };
    },
  );

  app.get(
    "/consolidation/postings",
    {
      schema: {
        tags: ["consolidation"],
        security,
        summary: "Entries posted by consolidation runs, newest period first, with any change detected in the books since",
        querystring: postingsQuerySchema,
        response: { 200: postingsResponseSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const rows = await db
        .select()
        .from(consolidationPostings)
        .where(and(eq(consolidationPostings.accountId, user.accountId), req.query.realmId ? eq(consolidationPostings.realmId, req.query.realmId) : undefined))
        .orderBy(desc(consolidationPostings.periodTo), asc(consolidationPostings.realmId), desc(consolidationPostings.generation))
        .limit(2000);
      return { postings: await summarize(db, rows) };
    },
  );

  app.post(
    "/consolidation/postings/:postingId/repost",
    {
      schema: {
        tags: ["consolidation"],
        security,
        summary: "Replace a posted entry whose books changed: delete it in QuickBooks, then post the period again (after the user approved the changes)",
        params: postingParamsSchema,
        body: repostRequestSchema,
        response: { 200: z.object({ outcome: z.enum(["posted", "duplicate"]), posting: postingSummarySchema }), ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { outcome, posting } = await replacePosting(deps, { accountId: user.accountId, userId: user.id, postingId: req.params.postingId, meta: meta(req) });
      const [summary] = await summarize(db, [posting]);
      return { outcome, posting: summary! };
    },
  );

  // --- Multi Period / Company ---------------------------------------------------------------

  app.post(
    "/multipleconsolidation/runs",
    {
      schema: {
        tags: ["consolidation"],
        security,
        summary: "Start a background run posting each chosen subsidiary for each month of a range, in order",
        body: multiRunRequestSchema,
        response: { 200: runDetailSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { from, to } = req.body;
      if (to < from) throw errors.badRequest("invalid_period", `The run ends (${to}) before it starts (${from}).`);
      const group = await loadGroup(db, user.accountId);
      const parent = group.requireParent("runs post into the parent's QuickBooks");
      const realmIds = [...new Set(req.body.realmIds)];
      for (const realmId of realmIds) {
        const company = group.company(realmId);
        if (company.isParent) throw errors.badRequest("parent_not_subsidiary", `${company.companyName} is the parent; choose only subsidiaries.`);
      }
      const opening = await openingOf(db, user.accountId, parent);
      if (from <= opening.month) {
        throw errors.badRequest("period_in_opening_balances", `The run starts in ${from}, not after the opening month ${opening.month}: the opening balances already hold it.`);
      }
      const months = monthList(from, to);
      if (months.length * realmIds.length > MAX_RUN_ITEMS) {
        throw errors.badRequest("run_too_large", `${months.length} months × ${realmIds.length} companies is ${months.length * realmIds.length} entries; one run posts at most ${MAX_RUN_ITEMS}. Split it.`);
      }
      const [active] = await db.select({ id: consolidationRuns.id }).from(consolidationRuns).where(activeRunFilter(user.accountId)).limit(1);
      if (active) throw errors.conflict("run_in_progress", "Another run is in progress for this account; wait for it to finish, or pause it, before starting a new one.");

      const run = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(consolidationRuns)
          .values({ accountId: user.accountId, createdBy: user.id, realmIds, fromMonth: from, toMonth: to, status: "queued" })
          .returning();
        const items = months.flatMap((month) => realmIds.map((realmId) => ({ realmId, month })));
        await tx.insert(consolidationRunItems).values(items.map((it, seq) => ({ runId: created!.id, seq, ...it })));
        return created!;
      });
      const job = await enqueueRun(queue, run);
      await db.update(consolidationRuns).set({ jobId: job.id }).where(eq(consolidationRuns.id, run.id));
      return runDetail(db, user.accountId, run.id);
    },
  );

  app.get(
    "/multipleconsolidation/runs",
    { schema: { tags: ["consolidation"], security, summary: "Multi-period runs of the account, newest first", response: { 200: runsResponseSchema, ...err } } },
    async (req) => {
      const { user } = authOf(req);
      const rows = await db.select().from(consolidationRuns).where(eq(consolidationRuns.accountId, user.accountId)).orderBy(desc(consolidationRuns.createdAt)).limit(50);
      return { runs: await Promise.all(rows.map((r) => runSummary(db, r))) };
    },
  );

  app.get(
    "/multipleconsolidation/runs/:runId",
    { schema: { tags: ["consolidation"], security, summary: "A run with its items and progress", params: runParamsSchema, response: { 200: runDetailSchema, ...err } } },
    async (req) => runDetail(db, authOf(req).user.accountId, req.params.runId),
  );

  app.post(
    "/multipleconsolidation/runs/:runId/pause",
    { schema: { tags: ["consolidation"], security, summary: "Pause a run after the item it is posting", params: runParamsSchema, response: { 200: runDetailSchema, ...err } } },
    async (req) => {
      const { user } = authOf(req);
      const run = await ownRun(db, user.accountId, req.params.runId);
      if (run.status === "queued" || run.status === "running") {
        await db.update(consolidationRuns).set({ status: run.status === "queued" ? "paused" : "pausing", message: "Pausing after the current entry", updatedAt: new Date() }).where(eq(consolidationRuns.id, run.id));
      } else if (run.status !== "pausing" && run.status !== "paused") {
        throw errors.conflict("run_not_active", `The run has ${run.status === "succeeded" ? "finished" : `ended (${run.status.replaceAll("_", " ")})`}; there is nothing to pause.`);
      }
      return runDetail(db, user.accountId, run.id);
    },
  );

  app.post(
    "/multipleconsolidation/runs/:runId/resume",
    { schema: { tags: ["consolidation"], security, summary: "Resume a paused (or stopped) run where it left off", params: runParamsSchema, response: { 200: runDetailSchema, ...err } } },
    async (req) => {
      const { user } = authOf(req);
      const run = await ownRun(db, user.accountId, req.params.runId);
      if (!["paused", "pausing", "failed"].includes(run.status)) {
        throw errors.conflict("run_not_paused", run.status === "running" || run.status === "queued" ? "The run is already going." : "The run has finished; start a new one for other periods.");
      }
      const counts = await itemCounts(database, run.id);
      if (counts.pending === 0 && run.status === "failed") {
        // A stopped run whose skipped items were only waiting for a re-authorization: try them again.
        await db.update(consolidationRunItems).set({ status: "pending", message: null, updatedAt: new Date() }).where(and(eq(consolidationRunItems.runId, run.id), inArray(consolidationRunItems.status, ["skipped", "failed"])));
      }
      await db.update(consolidationRuns).set({ status: "queued", message: "Resuming", finishedAt: null, updatedAt: new Date() }).where(eq(consolidationRuns.id, run.id));
      const job = await enqueueRun(queue, run);
      await db.update(consolidationRuns).set({ jobId: job.id }).where(eq(consolidationRuns.id, run.id));
      return runDetail(db, user.accountId, run.id);
    },
  );
};

type RunRow = typeof consolidationRuns.$inferSelect;

async function ownRun(db: Db, accountId: string, runId: string): Promise<RunRow> {
  const [run] = await db.select().from(consolidationRuns).where(and(eq(consolidationRuns.id, runId), eq(consolidationRuns.accountId, accountId))).limit(1);
  if (!run) throw errors.notFound("No such run in your account.");
  return run;
}

async function runSummary(db: Db, run: RunRow): Promise<RunSummary> {
  const items = await db.select({ status: consolidationRunItems.status }).from(consolidationRunItems).where(eq(consolidationRunItems.runId, run.id));
  const counts = { total: items.length, pending: 0, posted: 0, skipped: 0, failed: 0 };
  for (const i of items) counts[i.status]++;
  const [creator] = run.createdBy ? await db.select({ email: users.email }).from(users).where(eq(users.id, run.createdBy)).limit(1) : [];
  return {
    id: run.id,
    status: run.status,
    from: run.fromMonth,
    to: run.toMonth,
    realmIds: run.realmIds,
    createdAt: run.createdAt.toISOString(),
    createdBy: creator?.email ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    counts,
    progress: counts.total === 0 ? 1 : (counts.total - counts.pending) / counts.total,
    message: run.message,
  };
}

async function runDetail(db: Db, accountId: string, runId: string): Promise<RunDetail> {
  const run = await ownRun(db, accountId, runId);
  const items = await db.select().from(consolidationRunItems).where(eq(consolidationRunItems.runId, run.id)).orderBy(asc(consolidationRunItems.seq));
  const postingIds = items.map((i) => i.postingId).filter((p): p is string => !!p);
  const postings = new Map(
    postingIds.length
      ? (await db.select({ id: consolidationPostings.id, je: consolidationPostings.journalEntryId, url: consolidationPostings.journalEntryUrl }).from(consolidationPostings).where(inArray(consolidationPostings.id, postingIds))).map((p) => [p.id, p])
      : [],
  );
  const names = new Map((await db.select({ realmId: companies.realmId, name: companies.companyName }).from(companies).where(inArray(companies.realmId, run.realmIds))).map((c) => [c.realmId, c.name]));
  return {
    ...(await runSummary(db, run)),
    items: items.map((i) => {
      const p = i.postingId ? postings.get(i.postingId) : undefined;
      return {
        seq: i.seq,
        realmId: i.realmId,
        companyName: names.get(i.realmId) ?? i.realmId,
        month: i.month,
        status: i.status,
        message: i.message,
        journalEntryId: p?.je ?? null,
        journalEntryUrl: p?.url ?? null,
      };
    }),
  };
}
