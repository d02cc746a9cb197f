import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";

export interface PurgeCounts {
  revokedTokens: number;
  rateLimitCounters: number;
  verificationCodes: number;
}

/**
 * Deletes rows that can no longer matter: deny-list entries of tokens that have expired anyway,
 * counters whose window closed a day ago, and codes dead (used or expired) for a day.
 */
export async function purgeExpired(db: Db): Promise<PurgeCounts> {
  const count = async (query: ReturnType<typeof sql>) => rowsOf<{ n: number }>(await db.execute(query))[0]?.n ?? 0;
  return {
    revokedTokens: await count(sql`with d as (delete from revoked_tokens where expires_at < now() returning 1) select count(*)::int as n from d`),
    rateLimitCounters: await count(
      sql`with d as (delete from rate_limit_counters where window_start < now() - interval '1 day' returning 1) select count(*)::int as n from d`,
    ),
    verificationCodes: await count(
      sql`with d as (delete from verification_codes where coalesce(used_at, expires_at) < now() - interval '1 day' returning 1) select count(*)::int as n from d`,
    ),
  };
}
