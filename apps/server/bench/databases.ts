// The databases a bench runs on: embedded PGlite always, and PostgreSQL too when BENCH_DATABASE_URL
// (or TEST_DATABASE_URL) names a server: a fresh database created on it for the run, dropped after.
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { fromPglite, openDatabase, type Database } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { databaseUrl } from "../test/pg-url.ts";

export type BenchDriver = "pglite" | "postgres";

const serverUrl = () => process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

/** PGlite, and PostgreSQL when a server is named. */
export const benchDrivers = (): BenchDriver[] => (serverUrl() ? ["pglite", "postgres"] : ["pglite"]);

export interface BenchDatabase {
  readonly driver: BenchDriver;
  readonly database: Database;
  /** PostgreSQL: the run's own database, for more pools (more app instances). */
  readonly url?: string;
  close(): Promise<void>;
}

/** A migrated database of the run's own: in-memory PGlite, or a new database on the server (a pool of 10, as production opens). */
export async function benchDatabase(driver: BenchDriver): Promise<BenchDatabase> {
  if (driver === "pglite") {
    const database = fromPglite(await PGlite.create());
    await migrate(database);
    return { driver, database, close: () => database.close() };
  }
  const admin = serverUrl();
  if (!admin) throw new Error("PostgreSQL benches need BENCH_DATABASE_URL or TEST_DATABASE_URL");
  const name = `gl_bench_${randomBytes(5).toString("hex")}`;
  await onServer(admin, `create database ${name}`);
  const url = databaseUrl(admin, name);
  const database = await openDatabase({ kind: "postgres", url });
  await migrate(database);
  return {
    driver,
    database,
    url,
    async close() {
      await database.close();
      await onServer(admin, `drop database if exists ${name} with (force)`);
    },
  };
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
