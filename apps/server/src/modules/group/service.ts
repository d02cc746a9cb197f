import { asc, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { companies } from "../../db/schema.ts";
import { groupOf, type CompanyRow, type Group } from "./group.ts";

export { groupOf, NO_SUCH_COMPANY, toCompany, type CompanyRow, type Group } from "./group.ts";

/** The parent first, then subsidiaries by name: the order every screen lists them in. */
function listCompanies(db: Db, accountId: string): Promise<CompanyRow[]> {
  return db
    .select()
    .from(companies)
    .where(eq(companies.accountId, accountId))
    .orderBy(desc(companies.isParent), asc(companies.companyName));
}

/** An account's group, read once (one query): its companies, parent, subsidiaries and lookup by realm. */
export async function loadGroup(db: Db, accountId: string): Promise<Group> {
  return groupOf(await listCompanies(db, accountId));
}
