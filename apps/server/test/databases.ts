import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { fromPglite, fromPool, type Database, type DatabaseOptions } from "../src/db/client.ts";
import { databaseUrl } from "./pg-url.ts";

export type Driver = "pglite" | "postgres";

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const drivers: Driver[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export interface TestDatabase {
  database: Database;
  /** PostgreSQL only: the copy's URL, for a second connection pool (a second "process"). */
  url?: string;
  /** Closes the connection and removes the copy. */
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own for one suite. */
export async function createTestDatabase(driver: Driver, options: DatabaseOptions = {}): Promise<TestDatabase> {
  if (driver === "pglite") {
    const pglite = await emptiedPglite();
    const database = fromPglite(pglite, options);
    return { database, drop: () => putBack(pglite) };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = inject("pgTemplate");
  if (!adminUrl || !template) throw new Error("TEST_DATABASE_URL is set but the template database was not prepared");
  const name = `gl_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(adminUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  const database = fromPool(pool, options);
  return {
    database,
    url,
    async drop() {
      await database.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * PGlite instances of this worker that a suite has dropped, emptied for the next one. Loading the
 * migrated dump costs about 1 s of CPU (the 42 MB archive copied in, the backend started); about a
 * hundred suites do it in a run (CI time, issue 22). Emptying one costs a few tens of ms.
 */
const emptied: PGlite[] = [];
let migratedSchema: Promise<string> | undefined;

async function emptiedPglite(): Promise<PGlite> {
  const reused = emptied.pop();
  if (reused) return reused;
  const pglite = await PGlite.create({ loadDataDir: new Blob([readFileSync(inject("pgliteDump"))]) });
  migratedSchema ??= schemaOf(pglite);
  await migratedSchema;
  return pglite;
}

/**
 * A dropped suite's PGlite, emptied as if loaded again: the session reset (prepared statements,
 * settings, listeners, locks), every table of the migrated schema emptied and its sequences
 * restarted. Only one whose schema is still exactly the migrated one is kept (a suite may have
 * altered it, or closed the instance itself); any doubt closes it, and the next suite loads anew.
 */
async function putBack(pglite: PGlite): Promise<void> {
  if (pglite.closed) return;
  try {
    await pglite.exec("discard all");
    const { rows } = await pglite.query<{ name: string }>(
      "select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema') and tablename <> '_migrations'",
    );
    if (rows.length > 0) await pglite.exec(`truncate ${rows.map((r) => r.name).join(", ")} restart identity cascade`);
    if (migratedSchema && (await schemaOf(pglite)) === (await migratedSchema)) {
      emptied.push(pglite);
      return;
    }
  } catch {
    // Not reusable: closed below.
  }
  await pglite.close();
}

/** Everything of a database but its rows: relations and their columns, functions, triggers, migrations applied, sequences. */
async function schemaOf(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ schema: string }>(`
    select concat_ws('|',
      (select string_agg(concat_ws(':', n.nspname, c.relname, c.relkind, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid)), ',' order by n.nspname, c.relname, a.attnum)
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
         left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
         where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')),
      (select string_agg(concat_ws(':', p.proname, md5(p.prosrc)), ',' order by p.proname, p.oid) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')),
      (select string_agg(concat_ws(':', t.tgrelid::regclass::text, t.tgname, t.tgenabled), ',' order by t.tgrelid::regclass::text, t.tgname) from pg_trigger t where not t.tgisinternal),
      (select string_agg(concat_ws(':', id, hash), ',' order by id) from _migrations),
      (select string_agg(concat_ws(':', sequencename, last_value), ',' order by sequencename) from pg_sequences)
    ) as schema`);
  return rows[0]?.schema ?? "";
}
