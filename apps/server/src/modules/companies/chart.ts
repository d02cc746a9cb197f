import { eq } from "drizzle-orm";
import type { ChartAccount } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { qboAccounts } from "../../db/schema.ts";

/** A synced QBO account as the domain's mapping and translation rules see it. */
export const toChartAccount = (r: typeof qboAccounts.$inferSelect): ChartAccount & { everHadBalance: boolean } => ({
  id: r.qboId,
  name: r.name,
  acctNum: r.acctNum,
  classification: r.classification,
  accountType: r.accountType,
  accountSubType: r.accountSubType,
  active: r.active,
  everHadBalance: r.everHadBalance,
});

/** A company's synced chart of accounts. */
export async function chartOf(db: Db, realmId: string): Promise<(ChartAccount & { everHadBalance: boolean })[]> {
  return (await db.select().from(qboAccounts).where(eq(qboAccounts.realmId, realmId))).map(toChartAccount);
}
