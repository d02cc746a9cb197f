import { and, eq, ne } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { companies } from "../../db/schema.ts";
import type { NamedListItem } from "@groupledger/qbo";
import type { MonthlyAmount } from "./balances.ts";
import { GROUP_ADJUSTMENTS_CLASS } from "@groupledger/contract";

/** The class eliminations post under (modules/eliminations); kept here so sync does not import the posting side. */
export const GROUPLEDGER_INTERCO_CLASS = "Interco";

/**
 * The parent's QuickBooks holds, besides its own books, what GroupLedger posts there: opening
 * balances and runs under each subsidiary's class, eliminations under "Interco", group adjustments under "Group adjustments". The engine needs
 * the parent's OWN books (the subsidiaries come in from their own companies), so a parent's sync
 * subtracts the lines carrying those classes (the Reports API's `class` filter) from what it
 * reads. The consequence, documented: a parent that tags its own transactions with a class named
 * exactly like a subsidiary (or "Interco") sees them treated as GroupLedger's.
 *
 * Returns the ids of those classes among the company's (`classes`, read by the sync once for
 * this and its segments; none: nothing was ever posted).
 */
export async function groupLedgerClassIds(database: Database, classes: readonly NamedListItem[], company: typeof companies.$inferSelect): Promise<string[]> {
  if (!company.isParent) return [];
  const subsidiaries = await database.db
    .select({ name: companies.companyName })
    .from(companies)
    .where(and(eq(companies.accountId, company.accountId), ne(companies.realmId, company.realmId)));
  const names = new Set([...subsidiaries.map((s) => s.name), GROUPLEDGER_INTERCO_CLASS, GROUP_ADJUSTMENTS_CLASS]);
  return classes
    .filter((k) => names.has(k.name))
    .map((k) => k.id)
    .sort();
}

/** What the company booked itself: every amount minus what the GroupLedger classes hold. */
export function withoutPosted(all: readonly MonthlyAmount[], posted: readonly MonthlyAmount[]): MonthlyAmount[] {
  const key = (a: MonthlyAmount) => `${a.qboAccountId}|${a.month}|${a.kind}`;
  const out = new Map(all.map((a) => [key(a), { ...a }]));
  for (const p of posted) {
    const k = key(p);
    const row = out.get(k);
    if (row) row.amountMinor -= p.amountMinor;
    else out.set(k, { ...p, amountMinor: -p.amountMinor });
  }
  return [...out.values()];
}
