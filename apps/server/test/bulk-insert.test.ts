import { sql } from "drizzle-orm";
import { bigint, date, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertColumns } from "../src/db/bulk-insert.ts";
import { rowsOf } from "../src/db/client.ts";
import { createTestDatabase, drivers, type TestDatabase } from "./databases.ts";

const sample = pgTable("bulk_sample", {
  label: text("label"),
  amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
  month: date("month", { mode: "string" }).notNull(),
  at: timestamp("at", { withTimezone: true }),
  kept: integer("kept").notNull().default(7),
});

describe.each(drivers)("insertColumns on %s", (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
    await t.database.db.execute(sql.raw("create table bulk_sample (label text, amount_minor bigint not null, month date not null, at timestamptz, kept integer not null default 7)"));
  });
  afterAll(() => t.drop());
  const read = async () =>
    rowsOf<{ label: string | null; amount_minor: string | number; month: string; at: string | null; kept: number }>(
      await t.database.db.execute(sql.raw("select label, amount_minor::text, month::text, to_char(at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as at, kept from bulk_sample order by month")),
    );

  it("writes every value as given: text a PostgreSQL array literal would quote, null, bigints past 32 bits, dates and timestamps; other columns take their defaults", async () => {
    await t.database.db.execute(sql.raw("truncate bulk_sample"));
    const at = new Date("2026-03-04T05:06:07Z");
    await insertColumns(t.database.db, sample, ["label", "amountMinor", "month", "at"], [
      { label: `a "quoted", {braced} \\ back'slash`, amountMinor: -9_007_199_254_740_991, month: "2026-01-01", at },
      { label: "NULL", amountMinor: 2 ** 40, month: "2026-02-01", at: null },
      { label: null, amountMinor: 0, month: "2026-03-01", at },
    ]);
    expect(await read()).toEqual([
      { label: `a "quoted", {braced} \\ back'slash`, amount_minor: "-9007199254740991", month: "2026-01-01", at: "2026-03-04 05:06:07", kept: 7 },
      { label: "NULL", amount_minor: String(2 ** 40), month: "2026-02-01", at: null, kept: 7 },
      { label: null, amount_minor: "0", month: "2026-03-01", at: "2026-03-04 05:06:07", kept: 7 },
    ]);
  });

  it("writes tens of thousands of rows in one statement, and nothing for none", async () => {
    await t.database.db.execute(sql.raw("truncate bulk_sample"));
    await insertColumns(t.database.db, sample, ["amountMinor", "month"], []);
    const rows = Array.from({ length: 30_000 }, (_, i) => ({ amountMinor: i, month: `${2000 + Math.floor(i / 12) % 100}-${String((i % 12) + 1).padStart(2, "0")}-01` }));
    await insertColumns(t.database.db, sample, ["amountMinor", "month"], rows);
    const [sum] = rowsOf<{ n: number; total: string }>(await t.database.db.execute(sql.raw("select count(*)::int as n, sum(amount_minor)::text as total from bulk_sample")));
    expect(sum).toEqual({ n: 30_000, total: String((29_999 * 30_000) / 2) });
  });

  it("takes part in the caller's transaction: a rollback leaves nothing", async () => {
    await t.database.db.execute(sql.raw("truncate bulk_sample"));
    await expect(
      t.database.db.transaction(async (tx) => {
        await insertColumns(tx, sample, ["amountMinor", "month"], [{ amountMinor: 1, month: "2026-01-01" }]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await read()).toEqual([]);
  });

  it("refuses a column the table does not have", async () => {
    await expect(insertColumns(t.database.db, sample, ["nope" as "label"], [{ label: "x" }])).rejects.toThrow("bulk_sample has no column nope");
  });
});
