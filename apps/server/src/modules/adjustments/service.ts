import { and, eq } from "drizzle-orm";
import { GROUP_ADJUSTMENTS_CLASS, type AdjustmentsView, type PostOutcome, type RunPeriod } from "@groupledger/contract";
import type { Database, Db } from "../../db/client.ts";
import { consolidationPostings } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { posterOf, type Actor } from "../../services/audit.ts";
import { loadGroup } from "../group/service.ts";
import { ADJUSTMENTS_REALM } from "../posting/names.ts";
import { outcomeOf, postedFor, postGroupEntry, postingBusy, requestedPeriod, retirePosting, type PostingRow } from "../posting/postings.ts";
import { computeAdjustments } from "./view.ts";

const lockOf = (accountId: string) => `consolidation-post:${accountId}:${ADJUSTMENTS_REALM}`;
const busy = postingBusy("the group adjustments");

/** Group adjustments (issue 16): a period's view, posting it once, and replacing a posted entry whose inputs changed. */
export class AdjustmentService {
  private readonly db: Db;

  constructor(private readonly deps: { database: Database; provider: QboProvider }) {
    this.db = deps.database.db;
  }

  /** The period's adjustments and entry, and the entry already posted for it, if any. */
  async view(accountId: string, period: RunPeriod): Promise<AdjustmentsView> {
    const { view } = await computeAdjustments(this.db, accountId, period);
    return { ...view, posted: await postedFor(this.db, accountId, ADJUSTMENTS_REALM, view.period) };
  }

  async post(caller: Actor, period: RunPeriod): Promise<PostOutcome> {
    const result = await this.deps.database.withLock(lockOf(caller.accountId), busy, () => this.postLocked(caller, period));
    return outcomeOf(this.db, result);
  }

  /**
   * Replacing a posted group adjustment entry whose inputs changed (adjustments/stale.ts), after the
   * user approved the differences: the old entry is deleted in QuickBooks, then the period is posted
   * again from what it gives now. Later posted periods then differ too and are flagged in turn.
   */
  async replace(caller: Actor, postingId: string): Promise<PostOutcome> {
    const { db } = this;
    const { accountId } = caller;
    const [row] = await db
      .select()
      .from(consolidationPostings)
      .where(and(eq(consolidationPostings.id, postingId), eq(consolidationPostings.accountId, accountId), eq(consolidationPostings.realmId, ADJUSTMENTS_REALM)))
      .limit(1);
    if (!row) throw errors.notFound("No such group adjustment entry in your account.");
    const parent = (await loadGroup(db, accountId)).requireParent();
    const result = await this.deps.database.withLock(lockOf(accountId), busy, async () => {
      const [current] = await db.select().from(consolidationPostings).where(eq(consolidationPostings.id, row.id)).limit(1);
      if (current?.status !== "posted") throw errors.conflict("not_posted", `Group adjustments ${row.periodLabel} are not a posted entry (it is ${current?.status ?? "gone"}).`);
      if (!current.stale) throw errors.conflict("not_changed", `Group adjustments ${row.periodLabel} have not changed since they were posted; there is nothing to re-post.`);
      await retirePosting(this.deps, current, parent.realmId, posterOf(caller));
      return this.postLocked(caller, requestedPeriod(current));
    });
    return outcomeOf(db, result);
  }

  /** The posting protocol (modules/posting), under the "Group adjustments" class; the caller holds the lock. */
  private async postLocked(caller: Actor, period: RunPeriod): Promise<{ outcome: "posted" | "duplicate"; posting: PostingRow }> {
    const { view } = await computeAdjustments(this.db, caller.accountId, period);
    const p = view.period;
    return postGroupEntry(this.deps, {
      accountId: caller.accountId,
      userId: caller.userId,
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
        meta: posterOf(caller).meta,
      },
    });
  }
}
