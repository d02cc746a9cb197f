import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { journalEntriesQuerySchema } from "@groupledger/contract";
import { monthFromParts } from "@groupledger/domain";
import { journalEntrySchema } from "@groupledger/qbo";
import type { Db } from "../../db/client.ts";
import { userPreferences } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { loadGroup, NO_SUCH_COMPANY, type CompanyRow } from "../group/service.ts";
import { adjustmentsDocNumber, consolidationDocNumber, eliminationDocNumber, openingDocNumber } from "../posting/names.ts";
import { askQbo } from "../qbo/errors.ts";
import { resolvePeriod } from "../runs/entry.ts";
import { subsidiary } from "./trial-balance.ts";

/*
 * The check before a posting (SPEC §3 Journal entry): the entries already in the parent's
 * QuickBooks under the number the posting would use, and the user's "don't show again" choice.
 */

type JournalEntriesQuery = z.output<typeof journalEntriesQuerySchema>;

/** The entries in the parent's QuickBooks with the DocNumber the asked-for posting uses. */
export async function journalEntries(db: Db, provider: QboProvider, accountId: string, realmId: string, query: JournalEntriesQuery) {
  const month = monthFromParts(query.year, query.month);
  const period = (parent: CompanyRow) => resolvePeriod(parent, { kind: query.period, year: query.year, month: query.month });
  let parent: CompanyRow;
  let docNumber: string;
  if (query.flag === "eliminations" || query.flag === "adjustments") {
    // Eliminations and group adjustments belong to the group, not a subsidiary: asked for with the parent's realm.
    const company = (await loadGroup(db, accountId)).company(realmId, NO_SUCH_COMPANY);
    if (!company.isParent) throw errors.badRequest("not_parent", "Ask for elimination and group adjustment entries with the parent company's realmId.");
    parent = company;
    docNumber = query.flag === "adjustments" ? adjustmentsDocNumber(period(parent).code) : eliminationDocNumber(period(parent).code);
  } else {
    const found = await subsidiary(db, accountId, realmId);
    parent = found.parent;
    docNumber = query.flag === "consolidation" ? consolidationDocNumber(period(parent), found.company.realmId) : openingDocNumber(month, found.company.realmId);
  }
  const found = await askQbo({ subject: "parent", then: "post again", unavailable: (e) => `QuickBooks could not be asked for existing entries: ${e.message}.` }, () =>
    provider.client(parent.realmId).query(`SELECT * FROM JournalEntry WHERE DocNumber = '${docNumber}'`, journalEntrySchema),
  );
  const entries = found.map((e) => ({ id: e.id, docNumber: e.docNumber ?? null, txnDate: e.txnDate, url: provider.journalEntryUrl(parent.realmId, e.id) }));
  return { entriesFound: entries.length > 0, entries };
}

const dontShowKey = (je: string) => `dontShowDuplicateJE:${je}`;

/** Whether the user asked not to be warned again about duplicates of this kind of entry. */
export async function dontShowDuplicates(db: Db, userId: string, je: string): Promise<boolean> {
  const [row] = await db
    .select()
    .from(userPreferences)
    .where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, dontShowKey(je))))
    .limit(1);
  return row?.value === true;
}

export async function setDontShowDuplicates(db: Db, userId: string, je: string, checked: boolean): Promise<void> {
  await db
    .insert(userPreferences)
    .values({ userId, key: dontShowKey(je), value: checked })
    .onConflictDoUpdate({ target: [userPreferences.userId, userPreferences.key], set: { value: checked, updatedAt: new Date() } });
}
