import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { NightlySync, nightlySyncRequestSchema } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { accounts } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import { audit, type RequestMeta } from "../../services/audit.ts";

/**
 * The group's nightly sync setting (accounts.nightly_sync_*): on or off, the time of day and the
 * time zone it is read in, and whether the changed entries it finds are replaced after it
 * (accounts.nightly_replace_changed, modules/reconsolidation/nightly.ts). The scheduler (modules/sync/nightly.ts) reads the same columns; the
 * contract's schema checks the time and canonicalises the zone, so the form and the API agree.
 */
export async function nightlySyncOf(db: Db, accountId: string): Promise<NightlySync> {
  const [row] = await db
    .select({
      enabled: accounts.nightlySyncEnabled,
      time: accounts.nightlySyncTime,
      timeZone: accounts.nightlySyncTimeZone,
      lastRunDate: accounts.nightlySyncLastDate,
      replaceChanged: accounts.nightlyReplaceChanged,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!row) throw errors.notFound("Account not found.");
  return row;
}

/**
 * Saves the setting, audited with the one it replaced. The day already run stays taken: a later
 * time the same day does not sync the group twice; the next local day runs at the new time.
 */
export async function setNightlySync(db: Db, user: UserRow, input: z.output<typeof nightlySyncRequestSchema>, meta: RequestMeta): Promise<NightlySync> {
  const before = await nightlySyncOf(db, user.accountId);
  await db
    .update(accounts)
    .set({
      nightlySyncEnabled: input.enabled,
      nightlySyncTime: input.time,
      nightlySyncTimeZone: input.timeZone,
      ...(input.replaceChanged === undefined ? {} : { nightlyReplaceChanged: input.replaceChanged }),
      updatedAt: new Date(),
    })
    .where(eq(accounts.id, user.accountId));
  const after = await nightlySyncOf(db, user.accountId);
  const was = { enabled: before.enabled, time: before.time, timeZone: before.timeZone, replaceChanged: before.replaceChanged };
  await audit(db, { action: "settings.nightly_sync_set", accountId: user.accountId, userId: user.id, details: { before: was, ...input }, ...meta });
  return after;
}
