import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { QboWebhookPayload } from "@groupledger/contract";
import type { Database } from "../../db/client.ts";
import { companies } from "../../db/schema.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { enqueueSyncAfterChanges } from "../sync/enqueue.ts";
import { onlyOwnEntries } from "./own-entries.ts";

/**
 * A verified webhook notification: the sync of each connected company it names is queued (one per
 * company, `enqueueSyncAfterChanges`); what changed is read by that sync through CDC, never from the
 * notification. Companies no account has connected, or that are not connected now, are logged and
 * left alone, and so is a parent's notification that tells only of GroupLedger's own entries
 * (`onlyOwnEntries`: its postings' creates and the deletes of those it replaced). Only queueing
 * happens here, so Intuit hears back well within its 3 seconds.
 */
export async function queueWebhookSyncs(database: Database, queue: JobQueue, payload: QboWebhookPayload, log: FastifyBaseLogger): Promise<{ received: number }> {
  const notifications = payload.eventNotifications;
  const realms = [...new Set(notifications.map((n) => n.realmId))];
  if (realms.length === 0) return { received: 0 };
  const known = await database.db
    .select({ accountId: companies.accountId, realmId: companies.realmId, connection: companies.connection, isParent: companies.isParent })
    .from(companies)
    .where(inArray(companies.realmId, realms));
  const byRealm = new Map(known.map((c) => [c.realmId, c]));
  for (const realmId of realms) {
    const named = notifications.filter((n) => n.realmId === realmId).flatMap((n) => n.dataChangeEvent?.entities ?? []);
    const entities = named.length;
    const company = byRealm.get(realmId);
    if (!company) {
      log.info({ realmId, entities }, "QuickBooks webhook for a company no account has connected: ignored");
    } else if (company.connection !== "connected") {
      log.info({ realmId, entities, connection: company.connection }, "QuickBooks webhook for a company that is not connected: ignored");
    } else if (await onlyOwnEntries(database, company, named)) {
      log.info({ realmId, entities }, "QuickBooks webhook about GroupLedger's own entries only: no sync needed");
    } else {
      const queued = await enqueueSyncAfterChanges(database, queue, company);
      log.info({ realmId, entities, ...queued }, "QuickBooks webhook: sync queued");
    }
  }
  return { received: notifications.length };
}
