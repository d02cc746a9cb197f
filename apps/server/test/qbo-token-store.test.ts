import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { fromPool } from "../src/db/client.ts";
import { accounts, companies } from "../src/db/schema.ts";
import { PgTokenStore } from "../src/services/qbo-token-store.ts";
import { rowsOf } from "../src/db/client.ts";
import { createTestDatabase, drivers } from "./databases.ts";

const SECRET = "token-store-test-secret-0123456789abcdef";
const tokens = {
  accessToken: "eyJ.access.token-PLAINTEXT-A",
  refreshToken: "AB11-refresh-PLAINTEXT-R",
  tokenType: "bearer",
  accessTokenExpiresAt: Date.parse("2026-11-21T13:00:00.000Z"),
  refreshTokenExpiresAt: Date.parse("2027-03-01T00:00:00.000Z"),
};

describe.each(drivers)("QBO token store on %s", (driver) => {
  it("keeps tokens sealed at rest, round-trips them, and drops them with their company", async () => {
    const { database, drop } = await createTestDatabase(driver);
    try {
      const [account] = await database.db.insert(accounts).values({ name: "T" }).returning();
      await database.db.insert(companies).values({ accountId: account!.id, realmId: "9130", companyName: "C", country: "US", homeCurrency: "USD" });
      const store = new PgTokenStore(database, SECRET);
      expect(await store.load("9130")).toBeNull();
      await store.save("9130", tokens);
      expect(await store.load("9130")).toEqual(tokens);
      await store.save("9130", { ...tokens, refreshToken: "rotated-PLAINTEXT" });
      expect((await store.load("9130"))?.refreshToken).toBe("rotated-PLAINTEXT");

      const raw = JSON.stringify(rowsOf(await database.db.execute(sql`select * from qbo_tokens`)));
      expect(raw).not.toContain("PLAINTEXT");
      expect(raw).toContain("v1:");

      await expect(new PgTokenStore(database, "a-different-secret-0123456789abcdefgh").load("9130")).rejects.toThrow();
      await expect(store.save("no-such-company", tokens)).rejects.toThrow();

      await database.db.execute(sql`delete from companies where realm_id = '9130'`);
      expect(await store.load("9130")).toBeNull();
    } finally {
      await drop();
    }
  });

  it("serializes refreshes of one realm and lets other realms run in parallel", async () => {
    const { database, drop, url } = await createTestDatabase(driver);
    // On PostgreSQL a second pool stands for a second app process.
    const second = url ? fromPool(new pg.Pool({ connectionString: url, max: 3 })) : null;
    const other = second ?? database;
    try {
      const stores = [new PgTokenStore(database, SECRET), new PgTokenStore(other, SECRET)];
      let active = 0;
      let maxActive = 0;
      const order: string[] = [];
      const critical = (name: string) => async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        order.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, 30));
        order.push(`end ${name}`);
        active--;
      };
      await Promise.all(Array.from({ length: 6 }, (_, i) => stores[i % 2]!.withRefreshLock("realm-1", critical(String(i)))));
      expect(maxActive).toBe(1);
      for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]!.replace("start", "end"));

      active = 0;
      maxActive = 0;
      await Promise.all([stores[0]!.withRefreshLock("realm-a", critical("a")), stores[1]!.withRefreshLock("realm-b", critical("b"))]);
      expect(maxActive).toBe(2);

      // A failure inside the lock releases it.
      await expect(stores[0]!.withRefreshLock("realm-1", async () => Promise.reject(new Error("refresh failed")))).rejects.toThrow("refresh failed");
      await expect(stores[1]!.withRefreshLock("realm-1", async () => "next")).resolves.toBe("next");
    } finally {
      await second?.close();
      await drop();
    }
  });
});
