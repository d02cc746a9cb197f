import { and, eq, inArray } from "drizzle-orm";
import {
  classBody,
  customerOrVendorSchema,
  DELETED_SUFFIX,
  nameBody,
  namedListItemSchema,
  type BatchQueryItem,
  type BatchWriteItem,
  type CustomerOrVendor,
  type NamedListItem,
  type NewJournalLineEntity,
  type QboError,
} from "@groupledger/qbo";
import type { Db } from "../../db/client.ts";
import { qboAccounts } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";

type Client = ReturnType<QboProvider["client"]>;
type Kind = NewJournalLineEntity["type"];

/**
 * What an entry's lines carry in the parent's QuickBooks besides accounts: the class of the
 * subsidiary (or "Interco", "Group adjustments") and the names on receivable and payable lines.
 *
 * QuickBooks refuses a journal line on an Accounts Receivable account without a customer, or on an
 * Accounts Payable account without a vendor (ValidationFault 6000, "you must choose a customer in
 * the Name field"). GroupLedger's entries carry a subsidiary's receivables and payables as a whole,
 * so they name one customer and one vendor per subsidiary (and per eliminations), created in the
 * parent's QuickBooks when missing. QuickBooks keeps one namespace for customers, vendors and
 * employees, so the two names differ; neither is the name of the group company itself, which the
 * parent may use for its own intercompany dealings (and which intercompany pairs may read).
 *
 * The class and the names are looked up together (one batch: issue 20 item 6), the missing ones
 * created together; a `ReferenceCache` (a run's) keeps what was found for the run's later postings.
 */
export const counterpartyNames = (owner: string): Record<Kind, string> => ({
  Customer: `${owner} (consolidated receivables)`,
  Vendor: `${owner} (consolidated payables)`,
});

const KIND_OF_TYPE: Record<string, Kind> = { "Accounts Receivable": "Customer", "Accounts Payable": "Vendor" };

type Reference = { kind: "Class"; name: string } | { kind: Kind; name: string };
type Found = NamedListItem | CustomerOrVendor;

/**
 * What a series of postings into one parent found or created, so that the next posting of a run
 * looks nothing up again. Cleared when a posting fails: what it holds may be what QuickBooks refused.
 */
export class ReferenceCache {
  private readonly found = new Map<string, Found>();
  private static key = (realmId: string, r: Reference) => `${realmId}\u0000${r.kind}\u0000${r.name}`;
  get(realmId: string, r: Reference): Found | undefined {
    return this.found.get(ReferenceCache.key(realmId, r));
  }
  set(realmId: string, r: Reference, value: Found): void {
    this.found.set(ReferenceCache.key(realmId, r), value);
  }
  clear(): void {
    this.found.clear();
  }
}

export interface EntryReferences {
  /** The entry's class (when a class name was asked for). */
  klass: NamedListItem | undefined;
  /** The Name each line on a receivable or payable account needs, by parent account id. */
  names: Map<string, NewJournalLineEntity>;
}

/** QBO's query language escapes a quote in a string with a backslash. */
const quoted = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/**
 * The look-up of a reference. A class by its name, inactive ones too (whatever QuickBooks holds
 * under the name is the class); a name among the active ones, or — after QuickBooks said the name
 * is taken — among every one, an inactive one answering as "<name> (deleted)".
 */
function lookup(r: Reference, activeToo: boolean): BatchQueryItem<Found> {
  if (r.kind === "Class") return { query: `SELECT * FROM Class WHERE Name = ${quoted(r.name)} AND Active IN (true, false)`, schema: namedListItemSchema };
  const names = activeToo ? `IN (${quoted(r.name)}, ${quoted(`${r.name}${DELETED_SUFFIX}`)}) AND Active IN (true, false)` : `= ${quoted(r.name)}`;
  return { query: `SELECT * FROM ${r.kind} WHERE DisplayName ${names}`, schema: customerOrVendorSchema };
}

/** The row that is the reference: the class named exactly so; the name, an active one first. */
function pick(r: Reference, rows: readonly Found[]): Found | undefined {
  if (r.kind === "Class") return (rows as NamedListItem[]).find((k) => k.name === r.name);
  return [...(rows as CustomerOrVendor[])].sort((a, b) => Number(b.active) - Number(a.active))[0];
}

/** Answers the items' rows in order, one call for all of them; a refused look-up fails like a call. */
async function lookUp(client: Client, refs: readonly Reference[], activeToo: boolean): Promise<(Found | undefined)[]> {
  if (refs.length === 0) return [];
  const outcomes = await client.batch(refs.map((r) => lookup(r, activeToo)));
  return outcomes.map((o, i) => {
    if (!o.ok) throw o.error;
    return pick(refs[i]!, o.value);
  });
}

function nameTaken(r: Reference, found: Found | undefined): AppError {
  const kind = r.kind.toLowerCase();
  return new AppError(
    409,
    "qbo_name_taken",
    found
      ? `The parent's QuickBooks has an inactive ${kind} named "${r.name}"; GroupLedger names the lines on receivable and payable accounts with it. Make it active again in QuickBooks, then post again.`
      : `The name "${r.name}" is taken in the parent's QuickBooks by a ${r.kind === "Customer" ? "vendor" : "customer"} or an employee; GroupLedger needs it for a ${kind} that names the lines on ${r.kind === "Customer" ? "receivable" : "payable"} accounts. Rename that one in QuickBooks, then post again.`,
  );
}

/**
 * Finds the references in the parent (one call), creates those missing (one call), and reads
 * again those whose creation QuickBooks refused as a duplicate name (another writer was first,
 * or the name is taken by something we cannot use).
 */
async function resolve(client: Client, refs: readonly Reference[]): Promise<Found[]> {
  const found = await lookUp(client, refs, false);
  const missing = refs.map((r, i) => ({ r, i })).filter(({ i }) => found[i] === undefined);
  if (missing.length === 0) return found as Found[];
  const creates = missing.map(({ r }): BatchWriteItem<Found> =>
    r.kind === "Class"
      ? { operation: "create", entity: "Class", body: classBody(r.name), schema: namedListItemSchema }
      : { operation: "create", entity: r.kind, body: nameBody(r.name), schema: customerOrVendorSchema },
  );
  const created = await client.batch(creates);
  const taken: { r: Reference; i: number; error: QboError }[] = [];
  for (const [j, outcome] of created.entries()) {
    const { r, i } = missing[j]!;
    if (outcome.ok) found[i] = outcome.value;
    else if (outcome.error.code === "6240") taken.push({ r, i, error: outcome.error });
    else throw outcome.error;
  }
  const again = await lookUp(client, taken.map((t) => t.r), true);
  for (const [j, { r, i, error }] of taken.entries()) {
    const any = again[j];
    if (r.kind === "Class") {
      if (!any) throw error;
      found[i] = any;
    } else if (any && (any as CustomerOrVendor).active) {
      found[i] = any;
    } else {
      throw nameTaken(r, any);
    }
  }
  return found as Found[];
}

/**
 * The class (when `className` is given) and the Names an entry's lines need in the parent, by
 * parent account id for the lines on receivable and payable accounts, created when missing.
 * Those `cache` holds are not looked up again.
 */
export async function entryReferences(
  db: Db,
  client: Client,
  parentRealmId: string,
  entry: { className: string; accountIds: readonly string[]; owner: string },
  cache?: ReferenceCache,
): Promise<EntryReferences & { klass: NamedListItem }>;
export async function entryReferences(db: Db, client: Client, parentRealmId: string, entry: { accountIds: readonly string[]; owner: string }, cache?: ReferenceCache): Promise<EntryReferences>;
export async function entryReferences(
  db: Db,
  client: Client,
  parentRealmId: string,
  entry: { className?: string; accountIds: readonly string[]; owner: string },
  cache: ReferenceCache = new ReferenceCache(),
): Promise<EntryReferences> {
  return (await entriesReferences(db, client, parentRealmId, [entry], cache))[0]!;
}

type EntryOfReferences = { className?: string; accountIds: readonly string[]; owner: string };

/**
 * `entryReferences` of several entries at once (a batch of a run's postings, posting/batch.ts): the
 * references none of them has in `cache` looked up together (30 to a batch request) and the missing
 * ones created together, so a batch of 30 subsidiaries' entries costs a few requests, not 30.
 */
export async function entriesReferences(db: Db, client: Client, parentRealmId: string, entries: readonly (EntryOfReferences & { className: string })[], cache?: ReferenceCache): Promise<(EntryReferences & { klass: NamedListItem })[]>;
export async function entriesReferences(db: Db, client: Client, parentRealmId: string, entries: readonly EntryOfReferences[], cache?: ReferenceCache): Promise<EntryReferences[]>;
export async function entriesReferences(
  db: Db,
  client: Client,
  parentRealmId: string,
  entries: readonly EntryOfReferences[],
  cache: ReferenceCache = new ReferenceCache(),
): Promise<EntryReferences[]> {
  const accountIds = [...new Set(entries.flatMap((e) => e.accountIds))];
  const rows = accountIds.length
    ? await db
        .select({ id: qboAccounts.qboId, type: qboAccounts.accountType })
        .from(qboAccounts)
        .where(and(eq(qboAccounts.realmId, parentRealmId), inArray(qboAccounts.qboId, accountIds), inArray(qboAccounts.accountType, Object.keys(KIND_OF_TYPE))))
    : [];
  const typeOf = new Map(rows.map((row) => [row.id, row.type]));
  const wanted = entries.map((entry) => {
    const own = [...new Set(entry.accountIds)].filter((id) => typeOf.has(id)).map((id) => ({ id, type: typeOf.get(id)! }));
    const names = counterpartyNames(entry.owner);
    const kinds = [...new Set(own.map((row) => KIND_OF_TYPE[row.type]!))].sort();
    const refs: Reference[] = [...(entry.className === undefined ? [] : [{ kind: "Class" as const, name: entry.className }]), ...kinds.map((kind) => ({ kind, name: names[kind] }))];
    return { entry, own, names, refs };
  });
  const unknown = new Map<string, Reference>();
  for (const r of wanted.flatMap((w) => w.refs)) if (cache.get(parentRealmId, r) === undefined) unknown.set(`${r.kind}\u0000${r.name}`, r);
  const asked = [...unknown.values()];
  for (const [i, value] of (await resolve(client, asked)).entries()) cache.set(parentRealmId, asked[i]!, value);

  return wanted.map(({ entry, own, names }) => {
    const entityOf = (kind: Kind): NewJournalLineEntity => {
      const record = cache.get(parentRealmId, { kind, name: names[kind] }) as CustomerOrVendor;
      return { type: kind, id: record.id, name: record.displayName };
    };
    return {
      klass: entry.className === undefined ? undefined : (cache.get(parentRealmId, { kind: "Class", name: entry.className }) as NamedListItem),
      names: new Map(own.map((row) => [row.id, entityOf(KIND_OF_TYPE[row.type]!)])),
    };
  });
}

/** The Name each line on a receivable or payable account of the parent needs, by parent account id. */
export async function counterpartiesFor(db: Db, client: Client, parentRealmId: string, accountIds: readonly string[], owner: string): Promise<Map<string, NewJournalLineEntity>> {
  return (await entryReferences(db, client, parentRealmId, { accountIds, owner })).names;
}
