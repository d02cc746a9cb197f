// The databases a bench runs on: embedded PGlite always, and PostgreSQL too when BENCH_DATABASE_URL
// (or TEST_DATABASE_URL) names a server: a fresh database created on it for the run, dropped after.
// BENCH_DRIVERS=postgres (or pglite) runs on one of them only.
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { fromPglite, openDatabase, rowsOf, type Database } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { databaseUrl } from "../test/pg-url.ts";
import { statCpuMs } from "./machine.ts";

export type BenchDriver = "pglite" | "postgres";

const serverUrl = () => process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

/** PGlite, and PostgreSQL when a server is named; BENCH_DRIVERS picks among them. */
export function benchDrivers(): BenchDriver[] {
  const available: BenchDriver[] = serverUrl() ? ["pglite", "postgres"] : ["pglite"];
  const asked = process.env.BENCH_DRIVERS?.split(",").map((d) => d.trim());
  return asked ? available.filter((d) => asked.includes(d)) : available;
}

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
  const url = databaseUrl(admin, name);
  await onServer(admin, `create database ${name}`);
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

/**
 * PostgreSQL: the CPU its server processes have used for this database's connections (ms, by
 * process), read from /proc on this machine; empty for PGlite or a server elsewhere. Connections
 * closed before the reading are missed, so a phase's figure is a lower bound.
 */
export async function serverCpuByProcess(bench: BenchDatabase): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (bench.driver !== "postgres") return out;
  const rows = rowsOf<{ pid: number }>(await bench.database.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`));
  for (const { pid } of rows) {
    const ms = statCpuMs(`/proc/${pid}/stat`);
    if (ms !== undefined) out.set(pid, ms); // else not on this machine
  }
  return out;
}

/** CPU the server spent between two readings of `serverCpuByProcess`, connections opened between them included. */
export const serverCpuBetween = (before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
