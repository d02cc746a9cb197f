import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { purgeExpired } from "../src/services/maintenance.ts";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

describe.each(drivers)("purging expired rows on %s", (driver) => {
  const t = useTestApp(driver);

  it("drops only rows that can no longer matter, and logged-out tokens stay refused", async () => {
    const token = await signedInUser(t.app, "purge@example.com");
    await post(t.app, "/api/session/logout", undefined, token);
    const db = t.db.database.db;
    await db.execute(sql`insert into revoked_tokens (jti, expires_at) values ('old', now() - interval '1 minute')`);
    await db.execute(sql`insert into rate_limit_counters (key, window_start, count) values ('old', now() - interval '2 days', 3), ('new', now(), 1)`);
    await db.execute(
      sql`insert into verification_codes (user_id, purpose, code_hash, expires_at, used_at)
          select id, 'verify_email', 'stale', now() - interval '3 days', null from users where email = 'purge@example.com'`,
    );

    expect(await purgeExpired(db)).toEqual({ revokedTokens: 1, rateLimitCounters: 1, verificationCodes: 1 });
    expect(await purgeExpired(db)).toEqual({ revokedTokens: 0, rateLimitCounters: 0, verificationCodes: 0 });
    expect((await get(t.app, "/api/session", token)).statusCode).toBe(401);
  });
});
