import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { obalCompanies } from "../../db/schema.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { openingDocNumber, openingRequestId } from "./names.ts";
import { type Attempt, type AttemptRecord, postEntry } from "./protocol.ts";

/**
 * A subsidiary's opening entry, through the posting protocol (protocol.ts). Its attempts are
 * recorded on the subsidiary's `obal_companies` row: `posting_request_id` is the pending attempt
 * (written before QuickBooks is called), `posted_at` and the entry once posted, and
 * `post_generation` is bumped when QuickBooks refuses the entry (or the entry was deleted in
 * QuickBooks), so the next attempt sends a new requestid. Callers hold the subsidiary's lock.
 */

type ObalRow = typeof obalCompanies.$inferSelect;

export interface OpeningEntryRequest {
  accountId: string;
  userId: string;
  /** The subsidiary's row, confirmed and not posted. */
  row: ObalRow;
  company: { realmId: string; companyName: string; homeCurrency: string };
  parent: { realmId: string; homeCurrency: string; companyName: string; bookCloseDate: string | null };
  /** The locked month, "2025-12", and its last day. */
  month: string;
  txnDate: string;
  /** The translated trial balance by parent account, debit positive. */
  lines: readonly { account: string; name: string; amount: number }[];
  meta: { ip: string; requestId: string };
}

export async function postOpeningEntry(deps: { database: Database; provider: QboProvider }, req: OpeningEntryRequest): Promise<void> {
  const { company, month } = req;
  await postEntry(deps, openingAttempts(deps.database, req), {
    parent: req.parent,
    lines: req.lines.map((l) => ({ account: l.account, name: l.name, debit: l.amount > 0 ? l.amount : 0, credit: l.amount < 0 ? -l.amount : 0 })),
    txnDate: req.txnDate,
    className: company.companyName,
    counterparty: company.companyName,
    privateNote: `GroupLedger: translated opening trial balance of ${company.companyName} (${company.homeCurrency}) at ${month}, with CTA.`,
    description: `${company.companyName} opening balance ${month}`,
    what: `the opening entry of ${company.companyName}`,
    instead: "choose a later opening month (the opening month is chosen on Opening Balance Sheet before it is locked)",
    audit: { action: "obal.posted", accountId: req.accountId, userId: req.userId, details: (_, journalEntryId) => ({ realmId: company.realmId, journalEntryId, month }), meta: req.meta },
  });
}

function openingAttempts(database: Database, req: OpeningEntryRequest): AttemptRecord<Attempt, void> {
  const { db } = database;
  const { row, month } = req;
  const thisRow = and(eq(obalCompanies.accountId, req.accountId), eq(obalCompanies.realmId, req.company.realmId));
  const docNumber = openingDocNumber(month, req.company.realmId);
  return {
    async begin(lines) {
      if (row.postingRequestId) return { requestId: row.postingRequestId, docNumber, lines, fresh: false };
      const requestId = openingRequestId(req.accountId, req.company.realmId, month, row.postGeneration);
      await db.update(obalCompanies).set({ postingRequestId: requestId, postingStartedAt: new Date(), updatedAt: new Date() }).where(thisRow);
      return { requestId, docNumber, lines, fresh: true };
    },
    async posted(_, entry) {
      await db
        .update(obalCompanies)
        .set({ postedAt: new Date(), journalEntryId: entry.id, journalEntryUrl: entry.url, postingRequestId: null, postingStartedAt: null, updatedAt: new Date() })
        .where(and(thisRow, isNull(obalCompanies.postedAt)));
    },
    async refused() {
      // A definitive refusal: the next attempt needs a new requestid, or QuickBooks replays this answer.
      await db
        .update(obalCompanies)
        .set({ postGeneration: row.postGeneration + 1, postingRequestId: null, postingStartedAt: null, updatedAt: new Date() })
        .where(and(thisRow, eq(obalCompanies.postGeneration, row.postGeneration)));
    },
    async abandon() {
      await db.update(obalCompanies).set({ postingRequestId: null, postingStartedAt: null, updatedAt: new Date() }).where(thisRow);
    },
  };
}
