import { PGlite } from "@electric-sql/pglite";
import { expect } from "vitest";
import { fromPglite, type Database } from "../src/db/client.ts";
import { migrate, readMigrations } from "../src/db/migrate.ts";

/**
 * A data migration on rows that predate it: a fresh embedded database is migrated up to the
 * migration `picks` finds, `seed` (SQL) fills it, the migration runs, and `check` reads the
 * result. The database is closed after.
 */
export async function afterMigration(picks: (id: string) => boolean, seed: string, check: (db: Database) => Promise<void>): Promise<void> {
  const files = readMigrations();
  const index = files.findIndex((f) => picks(f.id));
  expect(index).toBeGreaterThan(0);
  const db = fromPglite(await PGlite.create());
  try {
    await migrate(db, files.slice(0, index));
    await db.transaction(async (s) => {
      await s.exec(seed);
    });
    await migrate(db, files.slice(0, index + 1));
    await check(db);
  } finally {
    await db.close();
  }
}
