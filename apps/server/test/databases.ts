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
    const blob = new Blob([readFileSync(inject("pgliteDump"))]);
    const database = fromPglite(await PGlite.create({ loadDataDir: blob }), options);
    return { database, drop: () => database.close() };
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
