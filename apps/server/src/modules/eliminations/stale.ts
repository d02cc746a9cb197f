import type { Db } from "../../db/client.ts";
import { INTERCO_REALM } from "../posting/names.ts";
import { flagChangedPostings } from "../runs/stale.ts";
import { computeEliminations } from "./view.ts";

/**
 * Like runs (runs/stale.ts), for the posted elimination entries: each posted period is computed
 * again from the books as synced now (its pairs, and what earlier posted elimination entries
 * already eliminated); where the entry would differ, the posting is flagged with the difference by
 * parent account, and unflagged when the books come back. A late change in one month flags that
 * period and the later ones whose entry it moves, nothing else. Run after every sync of a group
 * company; replacing waits for the user's approval.
 */
export async function detectChangedEliminations(db: Db, accountId: string): Promise<{ checked: number; changed: number }> {
  return flagChangedPostings(db, accountId, INTERCO_REALM, async (period) => {
    const { view } = await computeEliminations(db, accountId, period);
    return view.ok ? (view.entry?.lines ?? []) : null; // null: cannot be computed right now
  });
}
