import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { fromPglite, fromPool } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { databaseUrl } from "./pg-url.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteDump: string;
    pgTemplate: string | null;
  }
}

/**
 * PGlite takes seconds to start and migrate, so it is done once here and every suite starts
 * from a copy of the migrated data directory. On PostgreSQL the same is a template database.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), "gl-test-"));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = adminUrl ? `gl_template_${process.pid}` : null;
  // Both at once: PGlite migrates in this process while PostgreSQL does its own work in its server
  // (no test starts before the global setups are done: CI time).
  const [dumpFile] = await Promise.all([migratedPgliteDump(dir), adminUrl && template ? migratedTemplate(adminUrl, template) : null]);
  project.provide("pgliteDump", dumpFile);
  project.provide("pgTemplate", template);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (adminUrl && template) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    }
  };
}

async function migratedPgliteDump(dir: string): Promise<string> {
  const pglite = await PGlite.create();
  await migrate(fromPglite(pglite));
  const dump = await pglite.dumpDataDir("none");
  const dumpFile = join(dir, "migrated.tar");
  writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  return dumpFile;
}

async function migratedTemplate(adminUrl: string, template: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const pool = new pg.Pool({ connectionString: databaseUrl(adminUrl, template) });
  await migrate(fromPool(pool));
  await pool.end();
  await admin.end();
}
