import { asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { companies } from "../../db/schema.ts";
import { groupOf, type CompanyRow, type Group } from "./group.ts";

export { groupOf, NO_SUCH_COMPANY, toCompany, type CompanyRow, type Group } from "./group.ts";

const listQuery = (db: Db) =>
  db
    .select()
    .from(companies)
    .where(eq(companies.accountId, sql.placeholder("accountId")))
    .orderBy(desc(companies.isParent), asc(companies.companyName))
    .prepare("list_companies");

/**
 * The query prepared once per database handle: most requests read the group, some twice (about 50
 * a second in the soak), and a named statement is parsed and planned once (on PGlite, bound and
 * executed in one call into the backend: db/pglite-statements.ts).
 */
const prepared = new WeakMap<Db, ReturnType<typeof listQuery>>();

/** The parent first, then subsidiaries by name: the order every screen lists them in. */
function listCompanies(db: Db, accountId: string): Promise<CompanyRow[]> {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = listQuery(db)));
  return query.execute({ accountId });
}

/** An account's group, read once (one query): its companies, parent, subsidiaries and lookup by realm. */
export async function loadGroup(db: Db, accountId: string): Promise<Group> {
  return groupOf(await listCompanies(db, accountId));
}
