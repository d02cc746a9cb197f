import { GROUP_ADJUSTMENTS_CLASS, type AdjustmentsView, type PostOutcome, type RunPeriod } from "@groupledger/contract";
import type { Database, Db } from "../../db/client.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { ADJUSTMENTS_REALM } from "../posting/names.ts";
import { outcomeOf, postedFor, postGroupEntry, postingBusy, postingLock, replaceGroupEntry, type Poster, type PostingRow } from "../posting/postings.ts";
import { detectChangedAdjustments } from "./stale.ts";
import { computeAdjustments } from "./view.ts";

const lockOf = (accountId: string) => postingLock(accountId, ADJUSTMENTS_REALM);
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

  async post(caller: Poster, period: RunPeriod): Promise<PostOutcome> {
    const result = await this.deps.database.withLock(lockOf(caller.accountId), busy, () => this.postLocked(caller, period));
    return outcomeOf(this.db, result);
  }

  /**
   * Replacing a posted group adjustment entry whose inputs changed (adjustments/stale.ts), after the
   * user approved the differences: the old entry is deleted in QuickBooks, then the period is posted
   * again from what it gives now. Later posted periods then differ too and are flagged in turn.
   */
  async replace(caller: Poster, postingId: string): Promise<PostOutcome> {
    const result = await replaceGroupEntry(this.deps, caller, {
      realmId: ADJUSTMENTS_REALM,
      postingId,
      what: "Group adjustments",
      lock: lockOf(caller.accountId),
      busy,
      postAgain: (period) => this.postLocked(caller, period),
    });
    // Later periods may move with this one: look again now rather than at the next sync.
    await detectChangedAdjustments(this.db, caller.accountId);
    return outcomeOf(this.db, result);
  }

  /** The posting protocol (modules/posting), under the "Group adjustments" class; the caller holds the lock. */
  private async postLocked(caller: Poster, period: RunPeriod): Promise<{ outcome: "posted" | "duplicate"; posting: PostingRow }> {
    const { view } = await computeAdjustments(this.db, caller.accountId, period);
    const p = view.period;
    return postGroupEntry(this.deps, {
      accountId: caller.accountId,
      userId: caller.userId,
      runId: caller.runId ?? null,
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
        ...(caller.meta ? { meta: caller.meta } : {}),
      },
    });
  }
}
