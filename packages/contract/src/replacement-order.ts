import { ADJUSTMENTS_REALM } from "./adjustments.ts";
import { INTERCO_REALM } from "./eliminations.ts";

type Entry = { realmId: string; periodFrom: string; periodTo: string };

/** Within a period: the subsidiaries' entries, then the eliminations, then the group adjustments, as a month-end close posts them. */
const rank = (realmId: string) => (realmId === INTERCO_REALM ? 1 : realmId === ADJUSTMENTS_REALM ? 2 : 0);

/**
 * The order changed entries are replaced in ("Replace all changed": the server's replace run, and
 * the list the user reviews, in the same order): period by period, earliest first (a later period's
 * entry may build on an earlier one's, as balance-pair eliminations do); within a period as
 * `rank` says, then by company name and period start, so the order is the same every time.
 */
export function replacementOrder<T extends Entry>(entries: readonly T[], nameOf: (realmId: string) => string): T[] {
  return [...entries].sort(
    (a, b) =>
      a.periodTo.localeCompare(b.periodTo) ||
      rank(a.realmId) - rank(b.realmId) ||
      nameOf(a.realmId).localeCompare(nameOf(b.realmId)) ||
      a.realmId.localeCompare(b.realmId) ||
      a.periodFrom.localeCompare(b.periodFrom),
  );
}
