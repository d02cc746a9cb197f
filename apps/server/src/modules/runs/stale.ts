import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { loadGroup } from "../group/service.ts";
import { asComputedLines, counterpartsOf } from "../posting/foreign-accounts.ts";
import { consolidationPostings } from "../../db/schema.ts";
import { realmPostings, requestedPeriod } from "../posting/postings.ts";
import type { RunPeriod } from "@groupledger/contract";
import { computePeriodEntry } from "./entry.ts";

type Line = { account: string; name: string; debit: number; credit: number };
export type Change = { account: string; name: string; posted: number; now: number };

/** Per parent account, what was posted against what the books give now (debit positive); equal lines are left out. */
export function diffLines(posted: readonly Line[], now: readonly Line[]): Change[] {
  const amounts = new Map<string, { name: string; posted: number; now: number }>();
  for (const l of posted) amounts.set(l.account, { name: l.name, posted: l.debit - l.credit, now: 0 });
  for (const l of now) {
    const a = amounts.get(l.account) ?? { name: l.name, posted: 0, now: 0 };
    a.now = l.debit - l.credit;
    amounts.set(l.account, a);
  }
  return [...amounts]
    .filter(([, a]) => a.posted !== a.now)
    .map(([account, a]) => ({ account, ...a }))
    .sort((x, y) => x.account.localeCompare(y.account));
}

/**
 * Every entry posted for `realmId` is computed again: `now` gives its lines from what the books
 * give now, or null (or throws, e.g. the opening period was reset) when it cannot be computed right
 * now, and then there is nothing to compare and the posting's history stays as it is. Where the
 * entry would differ, the posting is flagged with the difference by parent account, and the flag is
 * cleared when the books come back to what was posted. Nothing is re-posted here: that waits for
 * the user's approval.
 */
export async function flagChangedPostings(
  db: Db,
  accountId: string,
  realmId: string,
  now: (period: RunPeriod) => Promise<readonly Line[] | null>,
): Promise<{ checked: number; changed: number }> {
  const posted = await db
    .select()
    .from(consolidationPostings)
    .where(and(...realmPostings(accountId, realmId), eq(consolidationPostings.status, "posted")));
  let changed = 0;
  // Read once for all the rows: a line posted to a foreign-currency account's counterpart is that account's line (posting/foreign-accounts.ts).
  const parent = posted.length > 0 ? (await loadGroup(db, accountId)).parent : undefined;
  const counterparts = parent ? await counterpartsOf(db, parent) : new Map<string, string>();
  for (const row of posted) {
    const period = requestedPeriod(row);
    let lines: readonly Line[] | null;
    try {
      lines = await now(period);
    } catch {
      continue;
    }
    if (!lines) continue;
    const changes = diffLines(asComputedLines(counterparts, row.lines), lines);
    if (changes.length > 0) changed++;
    const stale = changes.length > 0 ? { detectedAt: row.stale && sameChanges(row.stale.changes, changes) ? row.stale.detectedAt : new Date().toISOString(), changes } : null;
    if (JSON.stringify(stale) !== JSON.stringify(row.stale ?? null)) {
      await db.update(consolidationPostings).set({ stale, updatedAt: new Date() }).where(eq(consolidationPostings.id, row.id));
    }
  }
  return { checked: posted.length, changed };
}

/** Re-consolidation detection, run after each sync of a subsidiary (flagChangedPostings). */
export async function detectChangedPostings(db: Db, accountId: string, realmId: string): Promise<{ checked: number; changed: number }> {
  return flagChangedPostings(db, accountId, realmId, async (period) => {
    const { preview } = await computePeriodEntry(db, accountId, realmId, period);
    return preview.entry?.lines ?? null; // null: the books cannot be translated right now
  });
}

const sameChanges = (a: readonly Change[], b: readonly Change[]) => JSON.stringify(a) === JSON.stringify(b);
