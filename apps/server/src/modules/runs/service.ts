import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { MAX_RUN_ITEMS, type MultiRunRequest, type ReplaceChangedRequest, type PostingSummary, type PostOutcome, type RunDetail, type RunPreview, type RunRequest, type RunSummary } from "@groupledger/contract";
import { monthList } from "@groupledger/domain";
import type { Database, Db } from "../../db/client.ts";
import { companies, consolidationPostings, consolidationRunItems, consolidationRuns, users } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { posterOf, type Actor } from "../../services/audit.ts";
import { DataVersionCache } from "../../services/data-version-cache.ts";
import { loadGroup, type CompanyRow } from "../group/service.ts";
import { outcomeOf, postedFor, realmName, summarize } from "../posting/postings.ts";
import { approvedChanges } from "../reconsolidation/service.ts";
import { computePeriodEntry, openingNotPosted, openingOf } from "./entry.ts";
import { activeRunFilter, enqueueRun, itemCounts } from "./job.ts";
import { postPeriod, replacePosting } from "./post.ts";

/**
 * Consolidation runs (issue 9): one subsidiary-period previewed and posted at a time, and
 * multi-period runs that the `consolidation.run` job posts month by month (job.ts). What the
 * routes serve, for the account of the caller.
 */

type RunRow = typeof consolidationRuns.$inferSelect;

let previewsComputed = 0;
/** How many previews were computed (not served as kept) in this process: tests of the preview cache. */
export const previewComputations = () => previewsComputed;

export class RunService {
  private readonly db: Db;

  constructor(private readonly deps: { database: Database; provider: QboProvider; queue: JobQueue }) {
    this.db = deps.database.db;
  }

  /**
   * Previews by account, subsidiary, period and data version: computed from the same inputs as a
   * report (the group, books, maps, rates, settings, the locked period: what moves the version),
   * so the same question asked again is answered without building the engine's input or running
   * it. What the version does not cover is read per request: whether the opening balance is
   * posted, and the entry already posted.
   */
  private readonly previews = new DataVersionCache<{ preview: Omit<RunPreview, "posted">; company: Pick<CompanyRow, "realmId" | "companyName">; openingMonth: string }>(200);

  /**
   * The entry that would post the subsidiary-period, and the one already posted for it, if any.
   * `dataVersion`: the account's, as the request read it (auth.ts).
   */
  async preview(accountId: string, request: RunRequest, dataVersion: number): Promise<RunPreview> {
    const { realmId, period } = request;
    const kept = await this.previews.get(accountId, dataVersion, `preview|${realmId}|${period.kind}|${period.year}|${period.month}`, async () => {
      const { preview, company, inputs } = await computePeriodEntry(this.db, accountId, realmId, period, { openingCheck: false });
      previewsComputed++;
      return { preview, company: { realmId: company.realmId, companyName: company.companyName }, openingMonth: inputs["openingMonth"] as string };
    });
    const notPosted = await openingNotPosted(this.db, accountId, kept.company, kept.openingMonth);
    // First among the problems, as computePeriodEntry puts it.
    const preview = notPosted ? { ...kept.preview, ok: false, problems: [{ code: notPosted.code, message: notPosted.message }, ...kept.preview.problems] } : kept.preview;
    return { ...preview, posted: await postedFor(this.db, accountId, realmId, preview.period) };
  }

  async post(caller: Actor, request: RunRequest): Promise<PostOutcome> {
    return outcomeOf(this.db, await postPeriod(this.deps, { ...posterOf(caller), realmId: request.realmId, period: request.period }));
  }

  async repost(caller: Actor, postingId: string): Promise<PostOutcome> {
    return outcomeOf(this.db, await replacePosting(this.deps, { ...posterOf(caller), postingId }));
  }

  /** Posted entries (every realm's, or one's), newest period first. */
  async postings(accountId: string, realmId: string | undefined): Promise<PostingSummary[]> {
    const rows = await this.db
      .select()
      .from(consolidationPostings)
      .where(and(eq(consolidationPostings.accountId, accountId), realmId ? eq(consolidationPostings.realmId, realmId) : undefined))
      .orderBy(desc(consolidationPostings.periodTo), asc(consolidationPostings.realmId), desc(consolidationPostings.generation))
      .limit(2000);
    return summarize(this.db, rows);
  }

  /** Checks the run and queues its job: each chosen subsidiary for each month, months in order. */
  async start(caller: Pick<Actor, "accountId" | "userId">, request: MultiRunRequest): Promise<RunDetail> {
    const { db } = this;
    const { accountId } = caller;
    const { from, to } = request;
    if (to < from) throw errors.badRequest("invalid_period", `The run ends (${to}) before it starts (${from}).`);
    const group = await loadGroup(db, accountId);
    const parent = group.requireParent("runs post into the parent's QuickBooks");
    const realmIds = [...new Set(request.realmIds)];
    for (const realmId of realmIds) {
      const company = group.company(realmId);
      if (company.isParent) throw errors.badRequest("parent_not_subsidiary", `${company.companyName} is the parent; choose only subsidiaries.`);
    }
    const opening = await openingOf(db, accountId, parent);
    if (from <= opening.month) {
      throw errors.badRequest("period_in_opening_balances", `The run starts in ${from}, not after the opening month ${opening.month}: the opening balances already hold it.`);
    }
    const months = monthList(from, to);
    if (months.length * realmIds.length > MAX_RUN_ITEMS) {
      throw errors.badRequest("run_too_large", `${months.length} months × ${realmIds.length} companies is ${months.length * realmIds.length} entries; one run posts at most ${MAX_RUN_ITEMS}. Split it.`);
    }
    await this.noActiveRun(accountId);

    const run = await db.transaction(async (tx) => {
      const [created] = await tx.insert(consolidationRuns).values({ accountId, createdBy: caller.userId, realmIds, fromMonth: from, toMonth: to, status: "queued" }).returning();
      const items = months.flatMap((month) => realmIds.map((realmId) => ({ realmId, month })));
      await tx.insert(consolidationRunItems).values(items.map((it, seq) => ({ runId: created!.id, seq, ...it })));
      return created!;
    });
    await this.queue(run);
    return this.detail(accountId, run.id);
  }

  /**
   * "Replace all changed", after one approval: the reviewed changed entries (each still changed as
   * reviewed, reconsolidation/service.ts) are replaced in order by a `replace` run, one item per
   * entry, resumable and exactly once like any run (reconsolidation/replace.ts).
   */
  async startReplace(caller: { accountId: string; userId: string | null }, request: ReplaceChangedRequest, trigger: "user" | "nightly" = "user"): Promise<RunDetail> {
    const { db } = this;
    const { accountId } = caller;
    const entries = await approvedChanges(db, accountId, request.postings);
    await this.noActiveRun(accountId);
    const months = entries.map((e) => e.periodTo);
    const run = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(consolidationRuns)
        .values({
          accountId,
          kind: "replace",
          trigger,
          createdBy: caller.userId,
          realmIds: [...new Set(entries.map((e) => e.realmId))],
          fromMonth: months.reduce((a, b) => (a < b ? a : b)),
          toMonth: months.reduce((a, b) => (a > b ? a : b)),
          status: "queued",
        })
        .returning();
      await tx.insert(consolidationRunItems).values(entries.map((e, seq) => ({ runId: created!.id, seq, realmId: e.realmId, month: e.periodTo, replaces: e.id })));
      return created!;
    });
    await this.queue(run);
    return this.detail(accountId, run.id);
  }

  /** One run at a time per account: runs and replacements post into the same parent. */
  private async noActiveRun(accountId: string): Promise<void> {
    const [active] = await this.db.select({ id: consolidationRuns.id }).from(consolidationRuns).where(activeRunFilter(accountId)).limit(1);
    if (active) throw errors.conflict("run_in_progress", "Another run is in progress for this account; wait for it to finish, or pause it, before starting a new one.");
  }

  /** The account's runs, newest first. */
  async list(accountId: string): Promise<RunSummary[]> {
    const rows = await this.db.select().from(consolidationRuns).where(eq(consolidationRuns.accountId, accountId)).orderBy(desc(consolidationRuns.createdAt)).limit(50);
    return Promise.all(rows.map((r) => this.summary(r)));
  }

  /** Pausing is a flag the job reads between items: a queued run stops at once, a running one after its current item. */
  async pause(accountId: string, runId: string): Promise<RunDetail> {
    const run = await this.own(accountId, runId);
    if (run.status === "queued" || run.status === "running") {
      await this.db
        .update(consolidationRuns)
        .set({ status: run.status === "queued" ? "paused" : "pausing", message: "Pausing after the current entry", updatedAt: new Date() })
        .where(eq(consolidationRuns.id, run.id));
    } else if (run.status !== "pausing" && run.status !== "paused") {
      throw errors.conflict("run_not_active", `The run has ${run.status === "succeeded" ? "finished" : `ended (${run.status.replaceAll("_", " ")})`}; there is nothing to pause.`);
    }
    return this.detail(accountId, run.id);
  }

  /** A paused or stopped run carries on where it left off. */
  async resume(accountId: string, runId: string): Promise<RunDetail> {
    const { db } = this;
    const run = await this.own(accountId, runId);
    if (!["paused", "pausing", "failed"].includes(run.status)) {
      throw errors.conflict("run_not_paused", run.status === "running" || run.status === "queued" ? "The run is already going." : "The run has finished; start a new one for other periods.");
    }
    const counts = await itemCounts(this.deps.database, run.id);
    if (counts.pending === 0 && run.status === "failed") {
      // A stopped run whose skipped items were only waiting for a re-authorization: try them again.
      await db
        .update(consolidationRunItems)
        .set({ status: "pending", message: null, updatedAt: new Date() })
        .where(and(eq(consolidationRunItems.runId, run.id), inArray(consolidationRunItems.status, ["skipped", "failed"])));
    }
    await db.update(consolidationRuns).set({ status: "queued", message: "Resuming", finishedAt: null, updatedAt: new Date() }).where(eq(consolidationRuns.id, run.id));
    await this.queue(run);
    return this.detail(accountId, run.id);
  }

  /** A run with its items and the entries they posted. */
  async detail(accountId: string, runId: string): Promise<RunDetail> {
    const { db } = this;
    const run = await this.own(accountId, runId);
    const items = await db.select().from(consolidationRunItems).where(eq(consolidationRunItems.runId, run.id)).orderBy(asc(consolidationRunItems.seq));
    const postingIds = items.flatMap((i) => [i.postingId, i.replaces]).filter((p): p is string => !!p);
    const postings = new Map(
      postingIds.length
        ? (
            await db
              .select({ id: consolidationPostings.id, je: consolidationPostings.journalEntryId, url: consolidationPostings.journalEntryUrl, label: consolidationPostings.periodLabel })
              .from(consolidationPostings)
              .where(inArray(consolidationPostings.id, postingIds))
          ).map((p) => [p.id, p])
        : [],
    );
    const names = new Map(
      (await db.select({ realmId: companies.realmId, name: companies.companyName }).from(companies).where(inArray(companies.realmId, run.realmIds))).map((c) => [c.realmId, c.name]),
    );
    return {
      ...(await this.summary(run)),
      items: items.map((i) => {
        const p = i.postingId ? postings.get(i.postingId) : undefined;
        return {
          seq: i.seq,
          realmId: i.realmId,
          companyName: realmName(names, i.realmId),
          month: i.month,
          label: (i.replaces ? postings.get(i.replaces)?.label : undefined) ?? i.month,
          status: i.status,
          message: i.message,
          journalEntryId: p?.je ?? null,
          journalEntryUrl: p?.url ?? null,
        };
      }),
    };
  }

  /** Queues (or re-queues) the run's job and remembers it on the run. */
  private async queue(run: RunRow): Promise<void> {
    const job = await enqueueRun(this.deps.queue, run);
    await this.db.update(consolidationRuns).set({ jobId: job.id }).where(eq(consolidationRuns.id, run.id));
  }

  private async own(accountId: string, runId: string): Promise<RunRow> {
    const [run] = await this.db
      .select()
      .from(consolidationRuns)
      .where(and(eq(consolidationRuns.id, runId), eq(consolidationRuns.accountId, accountId)))
      .limit(1);
    if (!run) throw errors.notFound("No such run in your account.");
    return run;
  }

  private async summary(run: RunRow): Promise<RunSummary> {
    const { db } = this;
    const items = await db.select({ status: consolidationRunItems.status }).from(consolidationRunItems).where(eq(consolidationRunItems.runId, run.id));
    const counts = { total: items.length, pending: 0, posted: 0, skipped: 0, failed: 0 };
    for (const i of items) counts[i.status]++;
    const [creator] = run.createdBy ? await db.select({ email: users.email }).from(users).where(eq(users.id, run.createdBy)).limit(1) : [];
    return {
      id: run.id,
      kind: run.kind,
      trigger: run.trigger,
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
}
