/**
 * Entry lines on the parent's foreign-currency accounts (QBO multicurrency).
 *
 * QuickBooks takes only entries in a foreign-currency account's own currency (a USD journal entry
 * naming a GBP account is refused, 6000), and a GBP entry converts every line at one exchange rate,
 * so no entry can take exactly the dollars an elimination or a translated balance needs off a GBP
 * account. GroupLedger's entries are in the parent's currency, so a line on such an account goes to
 * the account's home-currency counterpart instead: an account of the same type named
 * "<name> - group entries (USD)", made in the parent's QuickBooks the first time it is needed. In
 * the parent's balance sheet the two sit side by side and add up to what the group holds; its own
 * books are untouched (the counterpart only ever holds GroupLedger's class, which sync leaves out).
 */
import { and, eq, inArray, ne } from "drizzle-orm";
import { QboError, type Account } from "@groupledger/qbo";
import type { Database, Db } from "../../db/client.ts";
import { qboAccounts } from "../../db/schema.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { saveAccounts } from "../companies/chart.ts";
import { qboApiError, refusalText } from "../qbo/errors.ts";
import { AppError } from "../../http/errors.ts";

/** QuickBooks' limit on an account's Name. */
const NAME_MAX = 100;

/** "<name> - group entries (USD)", the name cut so the whole fits QuickBooks' 100 characters. */
export function counterpartName(name: string, homeCurrency: string): string {
  const suffix = ` - group entries (${homeCurrency})`;
  return `${name.slice(0, NAME_MAX - suffix.length).trimEnd()}${suffix}`;
}

/** QuickBooks keeps at most 100 characters of a Description. */
const DESCRIPTION = (name: string, currency: string) => `GroupLedger entries for ${currency} account ${name}`.slice(0, 100);

/** The lines with every foreign-currency account of the parent replaced by its home-currency counterpart. */
export async function homeCurrencyLines<L extends { account: string; name: string }>(
  deps: { database: Database; provider: QboProvider },
  parent: { realmId: string; homeCurrency: string; companyName: string },
  lines: readonly L[],
): Promise<readonly L[]> {
  const { db } = deps.database;
  const ids = [...new Set(lines.map((l) => l.account))];
  if (ids.length === 0) return lines;
  const foreign = await db
    .select()
    .from(qboAccounts)
    .where(and(eq(qboAccounts.realmId, parent.realmId), inArray(qboAccounts.qboId, ids), ne(qboAccounts.currency, parent.homeCurrency)));
  if (foreign.length === 0) return lines;
  const counterpart = new Map<string, { id: string; name: string }>();
  await deps.database.withLock(`foreign-counterparts:${parent.realmId}`, `Another posting is making accounts in ${parent.companyName}'s QuickBooks`, async () => {
    for (const a of foreign) counterpart.set(a.qboId, await counterpartOf(deps, parent, a));
  });
  return lines.map((l) => {
    const to = counterpart.get(l.account);
    return to ? { ...l, account: to.id, name: to.name } : l;
  });
}

async function counterpartOf(
  deps: { database: Database; provider: QboProvider },
  parent: { realmId: string; homeCurrency: string; companyName: string },
  account: typeof qboAccounts.$inferSelect,
): Promise<{ id: string; name: string }> {
  const { db } = deps.database;
  const name = counterpartName(account.name, parent.homeCurrency);
  const known = (await db.select().from(qboAccounts).where(and(eq(qboAccounts.realmId, parent.realmId), eq(qboAccounts.currency, parent.homeCurrency)))).find(
    (a) => a.name.toLowerCase() === name.toLowerCase() && a.parentQboId === null,
  );
  if (known) {
    if (!known.active) {
      throw new AppError(409, "counterpart_inactive", `${parent.companyName}'s account "${known.name}" receives GroupLedger's entries for ${account.name} (a ${account.currency} account) and is inactive. Make it active again in QuickBooks, then post again.`);
    }
    return { id: known.qboId, name: label(known) };
  }
  const client = deps.provider.client(parent.realmId);
  let made: Account;
  try {
    made = await client.createAccount({ name, accountType: account.accountType, ...(account.accountSubType ? { accountSubType: account.accountSubType } : {}), description: DESCRIPTION(account.name, account.currency) });
  } catch (e) {
    // Made by an earlier attempt that did not hear back, or by hand: the account QuickBooks has under that name is the one.
    if (e instanceof QboError && e.code === "6240") {
      const existing = (await client.accounts()).find((a) => a.name.toLowerCase() === name.toLowerCase() && a.parentId === undefined);
      if (existing && (existing.currency ?? parent.homeCurrency) === parent.homeCurrency) made = existing;
      else throw new AppError(409, "counterpart_name_taken", `${parent.companyName} has an account named "${name}" that is not in ${parent.homeCurrency}; rename it in QuickBooks so GroupLedger can make its own, then post again.`);
    } else {
      throw qboApiError(e, {
        subject: "parent",
        then: "post again",
        refused: (qe) => `QuickBooks refused the account "${name}" that takes GroupLedger's entries for ${account.name} (a ${account.currency} account): ${refusalText(qe)}. Nothing was posted.`,
        unavailable: (qe) => `QuickBooks did not answer the request to make the account "${name}" (${qe.message}). Post again: nothing was posted.`,
      });
    }
  }
  const [saved] = await saveAccounts(db, parent.realmId, [made], parent.homeCurrency);
  return { id: made.id, name: saved ? label(saved) : made.name };
}

/**
 * The parent's counterparts, each to its foreign-currency account (counterpart id → foreign id):
 * what the group holds on a GBP account is the two together, as a check of the parent's books
 * against the consolidation (reports/verify.ts) reads them.
 */
export async function counterpartsOf(db: Db, parent: { realmId: string; homeCurrency: string }): Promise<Map<string, string>> {
  const chart = await db.select().from(qboAccounts).where(eq(qboAccounts.realmId, parent.realmId));
  const byName = new Map(chart.filter((a) => a.currency === parent.homeCurrency && a.parentQboId === null).map((a) => [a.name.toLowerCase(), a.qboId]));
  const out = new Map<string, string>();
  for (const a of chart) {
    if (a.currency === parent.homeCurrency) continue;
    const id = byName.get(counterpartName(a.name, parent.homeCurrency).toLowerCase());
    if (id) out.set(id, a.qboId);
  }
  return out;
}

/**
 * Lines as posted, read back as they were computed: a counterpart's line is its foreign-currency
 * account's (`counterparts` from counterpartsOf). What re-consolidation compares with the entry the
 * books give now (runs/stale.ts).
 */
export function asComputedLines<L extends { account: string }>(counterparts: ReadonlyMap<string, string>, lines: readonly L[]): L[] {
  return lines.map((l) => {
    const own = counterparts.get(l.account);
    return own === undefined ? l : { ...l, account: own };
  });
}

const label = (a: { acctNum: string | null; name: string }) => (a.acctNum ? `${a.acctNum} ${a.name}` : a.name);
