import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { fromPglite } from "../src/db/client.ts";
import { migrate, MigrationError, readMigrations, type MigrationFile } from "../src/db/migrate.ts";
import { createTestDatabase, drivers } from "./databases.ts";

const files = readMigrations();

describe("migration files", () => {
  it("are committed, ordered and non-empty", () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.map((f) => f.id)).toEqual([...files.map((f) => f.id)].sort());
    expect(files[0]!.sql).toContain('CREATE TABLE "users"');
  });
});

describe("migrate on a fresh embedded database", () => {
  it("applies every migration once", async () => {
    const db = fromPglite(await PGlite.create());
    try {
      expect(await migrate(db, files)).toEqual(files.map((f) => f.id));
      expect(await migrate(db, files)).toEqual([]);
      for (const table of ["accounts", "users", "verification_codes", "outbox_mail", "audit_log", "revoked_tokens"]) {
        const rows = await db.transaction((s) => s.query(`select count(*)::int as n from ${table}`));
        expect(rows[0]).toEqual({ n: 0 });
      }
    } finally {
      await db.close();
    }
  });
});

describe.each(drivers)("migrate on %s", (driver) => {
  const extra: MigrationFile = { id: "9999_later", sql: "create table later_thing (id int);", hash: "h-later" };

  it("applies only what is new, and refuses databases it does not match", async () => {
    const { database, drop } = await createTestDatabase(driver);
    try {
      expect(await migrate(database, files)).toEqual([]);
      expect(await migrate(database, [...files, extra])).toEqual(["9999_later"]);

      // Code older than the database: the applied list is not a prefix of the files.
      await expect(migrate(database, files)).rejects.toThrow(MigrationError);
      await expect(migrate(database, files)).rejects.toThrow(/has migration "9999_later" where this code expects none/);

      // A file edited after it was applied.
      const edited = [...files, { ...extra, hash: "h-edited" }];
      await expect(migrate(database, edited)).rejects.toThrow(/"9999_later" was changed after it was applied/);

      // A different history.
      const renamed = [{ ...files[0]!, id: "0000_other" }, ...files.slice(1), extra];
      await expect(migrate(database, renamed)).rejects.toThrow(/where this code expects "0000_other"/);
    } finally {
      await drop();
    }
  });

  it("rolls a failing migration back completely", async () => {
    const { database, drop } = await createTestDatabase(driver);
    try {
      const broken: MigrationFile = { id: "9999_broken", sql: "create table half_done (id int); select * from no_such_table;", hash: "h" };
      await expect(migrate(database, [...files, broken])).rejects.toThrow(/no_such_table/);
      const rows = await database.transaction((s) =>
        s.query<{ n: number }>("select count(*)::int as n from information_schema.tables where table_name = 'half_done'"),
      );
      expect(rows[0]!.n).toBe(0);
      expect(await migrate(database, files)).toEqual([]);
    } finally {
      await drop();
    }
  });
});
