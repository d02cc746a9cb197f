import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Database } from "./client.ts";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations/", import.meta.url));

export interface MigrationFile {
  id: string;
  sql: string;
  hash: string;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((file) => {
      const sql = readFileSync(`${dir}/${file}`, "utf8");
      return { id: file.replace(/\.sql$/, ""), sql, hash: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so two processes
 * starting together cannot both migrate. Refuses to run when the database has migrations
 * this code does not know, or ones whose file changed after it was applied: that database
 * belongs to other code, and guessing would corrupt it.
 */
export async function migrate(database: Database, files = readMigrations()): Promise<string[]> {
  return database.transaction(async (s) => {
    await s.query("select pg_advisory_xact_lock(727001)");
    await s.exec(`create table if not exists _migrations (
      id text primary key,
      hash text not null,
      applied_at timestamptz not null default now()
    )`);
    const applied = await s.query<{ id: string; hash: string }>("select id, hash from _migrations order by id");
    applied.forEach((row, i) => {
      const file = files[i];
      if (!file || file.id !== row.id) {
        throw new MigrationError(
          `Refusing to start: the database has migration "${row.id}" where this code expects ` +
            `${file ? `"${file.id}"` : "none"}. Applied migrations must be a prefix of apps/server/migrations.`,
        );
      }
      if (file.hash !== row.hash) {
        throw new MigrationError(`Refusing to start: migration "${row.id}" was changed after it was applied.`);
      }
    });
    const pending = files.slice(applied.length);
    for (const file of pending) {
      await s.exec(file.sql.replaceAll("--> statement-breakpoint", ""));
      await s.query("insert into _migrations (id, hash) values ($1, $2)", [file.id, file.hash]);
    }
    return pending.map((f) => f.id);
  });
}
