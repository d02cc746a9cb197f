import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  adjustmentsPostRequestSchema,
  adjustmentsQuerySchema,
  adjustmentsViewSchema,
  errorBodySchema,
  postingParamsSchema,
  repostRequestSchema,
  GROUP_ADJUSTMENTS_CLASS,
  postingSummarySchema,
  type RunPeriod,
} from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import type { Database } from "../../db/client.ts";
import { consolidationPostings } from "../../db/schema.ts";
import { authOf } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { loadGroup } from "../group/service.ts";
import { ADJUSTMENTS_REALM } from "../posting/names.ts";
import { postGroupEntry, postingBusy, retirePosting, summarize, type PostingRow } from "../posting/postings.ts";
import { computeAdjustments } from "./view.ts";

const security = [{ bearer: [] }];
const tags = ["group adjustments"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 502: errorBodySchema };

export const adjustmentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);
  const meta = (req: { ip: string; id: string }) => ({ ip: req.ip, requestId: req.id });

  app.get(
    "/consolidation/adjustments",
    {
      schema: {
        tags,
        security,
        summary: "A period's group adjustments (investments against equity at acquisition, goodwill, NCI at acquisition), each line explained, and the entry to post",
        querystring: adjustmentsQuerySchema,
        response: { 200: adjustmentsViewSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { view } = await computeAdjustments(db, user.accountId, req.query);
      const [live] = await db
        .select()
        .from(consolidationPostings)
        .where(
          and(
            eq(consolidationPostings.accountId, user.accountId),
            eq(consolidationPostings.realmId, ADJUSTMENTS_REALM),
            eq(consolidationPostings.periodFrom, view.period.from),
            eq(consolidationPostings.periodTo, view.period.to),
            eq(consolidationPostings.status, "posted"),
          ),
        )
        .limit(1);
      return { ...view, posted: live ? ((await summarize(db, [live]))[0] ?? null) : null };
    },
  );

  app.post(
    "/consolidation/adjustments/:postingId/repost",
    {
      schema: {
        tags,
        security,
        summary: "Replace a posted group adjustment entry whose inputs changed: delete it in QuickBooks, then post the period again (after the user approved the changes)",
        params: postingParamsSchema,
        body: repostRequestSchema,
        response: { 200: z.object({ outcome: z.enum(["posted", "duplicate"]), posting: postingSummarySchema }), ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const result = await replaceAdjustments({ database, provider }, user.accountId, user.id, req.params.postingId, meta(req));
      const [summary] = await summarize(db, [result.posting]);
      return { outcome: result.outcome, posting: summary! };
    },
  );

  app.post(
    "/consolidation/adjustments/post",
    {
      schema: {
        tags,
        security,
        summary: `Post a period's group adjustments into the parent's QuickBooks under the class "${GROUP_ADJUSTMENTS_CLASS}", once`,
        body: adjustmentsPostRequestSchema,
        response: { 200: z.object({ outcome: z.enum(["posted", "duplicate"]), posting: postingSummarySchema }), ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const result = await database.withLock(`consolidation-post:${user.accountId}:${ADJUSTMENTS_REALM}`, postingBusy("the group adjustments"), () =>
        postAdjustments({ database, provider }, user.accountId, user.id, req.body.period, meta(req)),
      );
      const [summary] = await summarize(db, [result.posting]);
      return { outcome: result.outcome, posting: summary! };
    },
  );
};

/**
 * Replacing a posted group adjustment entry whose inputs changed (adjustments/stale.ts), after the
 * user approved the differences: the old entry is deleted in QuickBooks, then the period is posted
 * again from what it gives now. Later posted periods then differ too and are flagged in turn.
 */
async function replaceAdjustments(deps: { database: Database; provider: QboProvider }, accountId: string, userId: string, postingId: string, meta: { ip: string; requestId: string }) {
  const { db } = deps.database;
  const [row] = await db
    .select()
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.id, postingId), eq(consolidationPostings.accountId, accountId), eq(consolidationPostings.realmId, ADJUSTMENTS_REALM)))
    .limit(1);
  if (!row) throw errors.notFound("No such group adjustment entry in your account.");
  const parent = (await loadGroup(db, accountId)).requireParent();
  return deps.database.withLock(`consolidation-post:${accountId}:${ADJUSTMENTS_REALM}`, postingBusy("the group adjustments"), async () => {
    const [current] = await db.select().from(consolidationPostings).where(eq(consolidationPostings.id, row.id)).limit(1);
    if (current?.status !== "posted") throw errors.conflict("not_posted", `Group adjustments ${row.periodLabel} are not a posted entry (it is ${current?.status ?? "gone"}).`);
    if (!current.stale) throw errors.conflict("not_changed", `Group adjustments ${row.periodLabel} have not changed since they were posted; there is nothing to re-post.`);
    await retirePosting(deps, current, parent.realmId, { accountId, userId, meta });
    const period = { kind: current.periodKind, year: Number(current.periodTo.slice(0, 4)), month: Number(current.periodTo.slice(5, 7)) };
    return postAdjustments(deps, accountId, userId, period, meta);
  });
}

/** The posting protocol (modules/posting), under the "Group adjustments" class. */
async function postAdjustments(
  deps: { database: Database; provider: QboProvider },
  accountId: string,
  userId: string,
  period: RunPeriod,
  meta: { ip: string; requestId: string },
): Promise<{ outcome: "posted" | "duplicate"; posting: PostingRow }> {
  const { view } = await computeAdjustments(deps.database.db, accountId, period);
  const p = view.period;
  return postGroupEntry(deps, {
    accountId,
    userId,
    realmId: ADJUSTMENTS_REALM,
    what: "group adjustments",
    view,
    nothingDefined: view.adjustments.length === 0 ? "Confirm the subsidiaries' acquisitions on Setup → Acquisitions first: there is no group adjustment to post." : null,
    post: {
      inputs: { adjustments: view.adjustments },
      className: GROUP_ADJUSTMENTS_CLASS,
      counterparty: "Group adjustments",
      privateNote: `GroupLedger: group adjustments for ${p.label} (${view.adjustments.map((a) => a.description).join("; ")}).`,
      description: `Group adjustments ${p.label}`,
      auditAction: "adjustments.posted",
      meta,
    },
  });
}
