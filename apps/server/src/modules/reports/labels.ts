import type { Db } from "../../db/client.ts";
import { chartOf } from "../companies/chart.ts";
import { loadGroup } from "../group/service.ts";
import type { WorkbookLabels } from "./workbook.ts";

/**
 * What the exported files call things: the parent's name in titles, and its account numbers
 * (QuickBooks AcctNum) in the Account columns. The report itself keys rows by QuickBooks'
 * internal account ids, which mean nothing to a reader; an account without a number shows none
 * (its name is in the next column).
 */
export async function exportLabels(db: Db, accountId: string): Promise<WorkbookLabels & { parentName: string | null }> {
  const { parent } = await loadGroup(db, accountId);
  const numbers = new Map<string, string>();
  if (parent) for (const a of await chartOf(db, parent.realmId)) if (a.acctNum) numbers.set(a.id, a.acctNum);
  return { companyName: parent?.companyName ?? "Group", parentName: parent?.companyName ?? null, accountNumber: (id) => numbers.get(id) ?? "" };
}
