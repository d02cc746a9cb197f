import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { loadGroup } from "../group/service.ts";
import { asComputedLines } from "../posting/foreign-accounts.ts";
import { consolidationPostings } from "../../db/schema.ts";
import { ADJUSTMENTS_REALM } from "../posting/names.ts";
import { requestedPeriod } from "../posting/postings.ts";
import { diffLines, type Change } from "../runs/stale.ts";
import { computeAdjustments } from "./view.ts";

/**
 * Like runs (runs/stale.ts), for the group adjustment entries: each posted period is computed
 * again from what the books and the recorded acquisitions, stock and dividend settings give now;
 * where the entry would differ, the posting is flagged with the difference by parent account (and
 * unflagged when it comes back). Replacing waits for the user's approval. Run after every sync of a
 * group company and after every change to acquisitions or intra-group trade.
 */
export async function detectChangedAdjustments(db: Db, accountId: string): Promise<{ checked: number; changed: number }> {
  const posted = await db
    .select()
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.accountId, accountId), eq(consolidationPostings.realmId, ADJUSTMENTS_REALM), eq(consolidationPostings.status, "posted")));
  let changed = 0;
  const parent = posted.length > 0 ? (await loadGroup(db, accountId)).parent : undefined;
  for (const row of posted) {
    const period = requestedPeriod(row);
    let lines: { account: string; name: string; debit: number; credit: number }[];
    try {
      const { view } = await computeAdjustments(db, accountId, period);
      if (!view.ok) continue; // cannot be computed right now: nothing to compare
      lines = view.entry?.lines ?? [];
    } catch {
      continue;
    }
    // A line posted to a foreign-currency account's counterpart is that account's line (posting/foreign-accounts.ts).
    const changes = diffLines(parent ? await asComputedLines(db, parent, row.lines) : row.lines, lines);
    if (changes.length > 0) changed++;
    const stale = changes.length > 0 ? { detectedAt: row.stale && same(row.stale.changes, changes) ? row.stale.detectedAt : new Date().toISOString(), changes } : null;
    if (JSON.stringify(stale) !== JSON.stringify(row.stale ?? null)) {
      await db.update(consolidationPostings).set({ stale, updatedAt: new Date() }).where(eq(consolidationPostings.id, row.id));
    }
  }
  return { checked: posted.length, changed };
}

const same = (a: readonly Change[], b: readonly Change[]) => JSON.stringify(a) === JSON.stringify(b);
