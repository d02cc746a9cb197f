import { and, eq, inArray } from "drizzle-orm";
import { customerOrVendorSchema, DELETED_SUFFIX, QboError, type CustomerOrVendor, type NewJournalLineEntity } from "@groupledger/qbo";
import type { Db } from "../../db/client.ts";
import { qboAccounts } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";

type Client = ReturnType<QboProvider["client"]>;
type Kind = NewJournalLineEntity["type"];

/**
 * QuickBooks refuses a journal line on an Accounts Receivable account without a customer, or on an
 * Accounts Payable account without a vendor (ValidationFault 6000, "you must choose a customer in
 * the Name field"). GroupLedger's entries carry a subsidiary's receivables and payables as a whole,
 * so they name one customer and one vendor per subsidiary (and per eliminations), created in the
 * parent's QuickBooks when missing. QuickBooks keeps one namespace for customers, vendors and
 * employees, so the two names differ; neither is the name of the group company itself, which the
 * parent may use for its own intercompany dealings (and which intercompany pairs may read).
 */
export const counterpartyNames = (owner: string): Record<Kind, string> => ({
  Customer: `${owner} (consolidated receivables)`,
  Vendor: `${owner} (consolidated payables)`,
});

const KIND_OF_TYPE: Record<string, Kind> = { "Accounts Receivable": "Customer", "Accounts Payable": "Vendor" };

/** The Name each line on a receivable or payable account of the parent needs, by parent account id. */
export async function counterpartiesFor(db: Db, client: Client, parentRealmId: string, accountIds: readonly string[], owner: string): Promise<Map<string, NewJournalLineEntity>> {
  const out = new Map<string, NewJournalLineEntity>();
  if (accountIds.length === 0) return out;
  const rows = await db
    .select({ id: qboAccounts.qboId, type: qboAccounts.accountType })
    .from(qboAccounts)
    .where(and(eq(qboAccounts.realmId, parentRealmId), inArray(qboAccounts.qboId, [...new Set(accountIds)]), inArray(qboAccounts.accountType, Object.keys(KIND_OF_TYPE))));
  const names = counterpartyNames(owner);
  const found = new Map<Kind, NewJournalLineEntity>();
  for (const row of rows) {
    const kind = KIND_OF_TYPE[row.type]!;
    let entity = found.get(kind);
    if (!entity) {
      const record = await findOrCreate(client, kind, names[kind]);
      entity = { type: kind, id: record.id, name: record.displayName };
      found.set(kind, entity);
    }
    out.set(row.id, entity);
  }
  return out;
}

/** QBO's query language escapes a quote in a string with a backslash. */
const quoted = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

async function findOrCreate(client: Client, kind: Kind, displayName: string): Promise<CustomerOrVendor> {
  // An inactive one answers as "<name> (deleted)", so looking for inactive ones asks for both.
  const lookup = async (activeToo: boolean) => {
    const names = activeToo ? `IN (${quoted(displayName)}, ${quoted(`${displayName}${DELETED_SUFFIX}`)}) AND Active IN (true, false)` : `= ${quoted(displayName)}`;
    const rows = await client.query(`SELECT * FROM ${kind} WHERE DisplayName ${names}`, customerOrVendorSchema);
    return [...rows].sort((a, b) => Number(b.active) - Number(a.active));
  };
  const [active] = await lookup(false);
  if (active) return active;
  try {
    return kind === "Customer" ? await client.createCustomer(displayName) : await client.createVendor(displayName);
  } catch (e) {
    if (!(e instanceof QboError && e.code === "6240")) throw e;
    // Another writer created it first, or the name is taken by something we cannot use.
    const [any] = await lookup(true);
    if (any?.active) return any;
    throw new AppError(
      409,
      "qbo_name_taken",
      any
        ? `The parent's QuickBooks has an inactive ${kind.toLowerCase()} named "${displayName}"; GroupLedger names the lines on receivable and payable accounts with it. Make it active again in QuickBooks, then post again.`
        : `The name "${displayName}" is taken in the parent's QuickBooks by a ${kind === "Customer" ? "vendor" : "customer"} or an employee; GroupLedger needs it for a ${kind.toLowerCase()} that names the lines on ${kind === "Customer" ? "receivable" : "payable"} accounts. Rename that one in QuickBooks, then post again.`,
    );
  }
}
