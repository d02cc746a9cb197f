import { eq } from "drizzle-orm";
import { QboError, type Account, type QboClient } from "@groupledger/qbo";
import { CTA_ACCOUNT_DEFAULT_NAME, type CompanyAccount } from "@groupledger/contract";
import { CTA_ACCOUNT_SUBTYPE } from "@groupledger/domain";
import type { Database } from "../../db/client.ts";
import { companies } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { RequestMeta } from "../../services/audit.ts";
import { audit } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { saveAccounts } from "../companies/chart.ts";
import { loadGroup } from "../group/service.ts";
import { qboApiError, reauthorizeMessage, refusalText } from "../qbo/errors.ts";

const DESCRIPTION = "Cumulative translation adjustment of foreign subsidiaries (created by GroupLedger).";

const AFTER_RECONNECTING = "create the account again";
export const REAUTHORIZE_FOR_ACCOUNT_MESSAGE = reauthorizeMessage("parent", AFTER_RECONNECTING);


/** Adds a QBO account to our copy of the chart, so it can be chosen before the next sync. */
async function remember(database: Database, realmId: string, a: Account, homeCurrency: string): Promise<CompanyAccount> {
  const [saved] = await saveAccounts(database.db, realmId, [a], homeCurrency);
  return {
    Id: saved!.qboId,
    name: saved!.name,
    fullyQualifiedName: saved!.fullyQualifiedName,
    acctNum: saved!.acctNum,
    accountType: saved!.accountType,
    accountSubType: saved!.accountSubType,
    classification: saved!.classification,
    currency: saved!.currency,
    active: saved!.active,
    everHadBalance: saved!.everHadBalance,
    latestAmount: null,
    latestMonth: null,
  };
}

/** After a 6240: the account QBO already has under that name (any case), if it can be read. */
async function existingNamed(client: QboClient, name: string): Promise<Account | undefined> {
  try {
    return (await client.accounts()).find((a) => a.name.toLowerCase() === name.toLowerCase());
  } catch {
    return undefined; // the duplicate is still the answer; finding it is a courtesy
  }
}

/**
 * Creates the CTA account in the parent's QuickBooks company, adds it to our copy of the
 * parent's chart and makes it the group's CTA account (every foreign subsidiary's CTA goes to it). One creation per parent at a time, so a double click meets QBO's duplicate-name
 * check instead of racing it.
 */
export async function createCtaAccount(
  deps: { database: Database; provider: QboProvider },
  user: UserRow,
  requestedName: string | undefined,
  meta: RequestMeta,
): Promise<CompanyAccount> {
  const { database, provider } = deps;
  const parent = (await loadGroup(database.db, user.accountId)).requireParent("the CTA account is created in the parent's QuickBooks company");
  if (parent.connection === "disconnected") {
    throw errors.conflict("parent_disconnected", `${parent.companyName} is disconnected from QuickBooks. Reconnect it on Connected Companies, then create the account.`);
  }
  const name = requestedName ?? CTA_ACCOUNT_DEFAULT_NAME;
  return database.withLock(`cta-account:${parent.realmId}`, `Another request is creating an account in ${parent.companyName}'s QuickBooks`, async () => {
    const client = provider.client(parent.realmId);
    let created: Account;
    try {
      created = await client.createAccount({ name, accountType: "Equity", accountSubType: CTA_ACCOUNT_SUBTYPE, description: DESCRIPTION });
    } catch (e) {
      // QuickBooks' answers about this account (its name taken, its fields refused) are the user's to fix; any other failure is mapped as everywhere.
      if (e instanceof QboError && e.code === "6240") {
        const existing = await existingNamed(client, name);
        if (existing) await remember(database, parent.realmId, existing, parent.homeCurrency);
        throw new AppError(
          409,
          "duplicate_account_name",
          `${parent.companyName} already has an account named "${existing?.name ?? name}" in QuickBooks. Choose it from the list, or give the new account another name.`,
          existing ? { existingAccountId: existing.id } : {},
        );
      }
      if (e instanceof QboError && e.kind === "validation") throw errors.badRequest("qbo_refused_account", `QuickBooks refused the account: ${refusalText(e)}.`);
      throw qboApiError(e, {
        subject: "parent",
        then: AFTER_RECONNECTING,
        unavailable: (qe) =>
          `QuickBooks did not answer the request to create the account (${qe.message}). Try again in a moment; if the account shows up in QuickBooks meanwhile, sync ${parent.companyName} and choose it.`,
      });
    }
    const saved = await remember(database, parent.realmId, created, parent.homeCurrency);
    // Made to be the group's CTA account: it receives every foreign subsidiary's CTA from now on.
    await database.db.transaction(async (tx) => {
      await tx.update(companies).set({ ctaAccountId: created.id, updatedAt: new Date() }).where(eq(companies.realmId, parent.realmId));
      await audit(tx, {
        action: "cta.account_created",
        accountId: user.accountId,
        userId: user.id,
        details: { realmId: parent.realmId, qboAccountId: created.id, name: created.name, groupCtaAccountBefore: parent.ctaAccountId },
        ...meta,
      });
    });
    return saved;
  });
}
