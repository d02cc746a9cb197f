import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { replacementOrder, type ReplaceChangedRequest } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { companies, consolidationPostings } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import { realmName, type PostingRow } from "../posting/postings.ts";

/**
 * Re-consolidation (issue 21): the posted entries a sync found changed (runs/stale.ts and the
 * eliminations' and adjustments' stale.ts flag them), and what "Replace all changed" takes from
 * them. The replacing itself is a `replace` run (runs/job.ts, item by item in replace.ts).
 */

/** Company names by realm, to name a realm's entries (`realmName`). */
async function companyNames(db: Db, accountId: string): Promise<Map<string, string>> {
  const rows = await db.select({ realmId: companies.realmId, name: companies.companyName }).from(companies).where(eq(companies.accountId, accountId));
  return new Map(rows.map((c) => [c.realmId, c.name]));
}

/** Every posted entry of the account whose books changed since, in the order they are replaced. */
export async function changedPostings(db: Db, accountId: string): Promise<PostingRow[]> {
  const rows = await db
    .select()
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.accountId, accountId), eq(consolidationPostings.status, "posted"), isNotNull(consolidationPostings.stale)));
  const names = await companyNames(db, accountId);
  return replacementOrder(rows, (realmId) => realmName(names, realmId));
}

/**
 * The entries of an approval, checked against what is flagged now and put in replacement order:
 * each must be a posted entry of the account that is still changed with the very differences the
 * user reviewed (`detectedAt`). Otherwise nothing is started and the answer says which entry moved.
 */
export async function approvedChanges(db: Db, accountId: string, approved: ReplaceChangedRequest["postings"]): Promise<PostingRow[]> {
  const ids = approved.map((a) => a.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw errors.badRequest("posting_listed_twice", `Entry ${twice} is listed twice; list each changed entry once.`);
  const rows = await db
    .select()
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.accountId, accountId), inArray(consolidationPostings.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const names = await companyNames(db, accountId);
  for (const a of approved) {
    const row = byId.get(a.id);
    if (!row) throw errors.notFound(`No such posted entry in your account (${a.id}).`);
    const what = `${realmName(names, row.realmId)} ${row.periodLabel} (entry ${row.docNumber})`;
    if (row.status !== "posted") throw errors.conflict("not_posted", `${what} is ${row.status} now, not a posted entry; review the changed entries again.`);
    if (!row.stale) throw errors.conflict("not_changed", `${what} no longer differs from the books; review the changed entries again.`);
    if (row.stale.detectedAt !== a.detectedAt) {
      throw errors.conflict("changes_moved", `${what} changed again since you reviewed it; review the changed entries again before replacing them.`);
    }
  }
  return replacementOrder(rows, (realmId) => realmName(names, realmId));
}
