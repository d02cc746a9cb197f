import type { Db } from "../../db/client.ts";
import { ADJUSTMENTS_REALM } from "../posting/names.ts";
import { flagChangedPostings } from "../runs/stale.ts";
import { computeAdjustments } from "./view.ts";

/**
 * Like runs (runs/stale.ts), for the group adjustment entries: each posted period is computed
 * again from what the books and the recorded acquisitions, stock and dividend settings give now;
 * where the entry would differ, the posting is flagged with the difference by parent account (and
 * unflagged when it comes back). Replacing waits for the user's approval. Run after every sync of a
 * group company and after every change to acquisitions or intra-group trade.
 */
export async function detectChangedAdjustments(db: Db, accountId: string): Promise<{ checked: number; changed: number }> {
  return flagChangedPostings(db, accountId, ADJUSTMENTS_REALM, async (period) => {
    const { view } = await computeAdjustments(db, accountId, period);
    return view.ok ? (view.entry?.lines ?? []) : null; // null: cannot be computed right now
  });
}
