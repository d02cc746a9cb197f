import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { namedStatements } from "./pglite-statements.ts";
import { advisoryLocks, DEFAULT_LOCK_WAIT_MS, processLocks } from "./locks.ts";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Rows of a raw `db.execute(sql)`: both drivers answer `{ rows }`, but drizzle types it per driver. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** The few raw operations the migration runner needs, on either driver. */
export interface SqlSession {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Several statements at once, no parameters. */
  exec(text: string): Promise<void>;
}

export interface Database {
  readonly driver: "pglite" | "postgres";
  readonly db: Db;
  /** Runs fn in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Runs fn while holding a lock named `key` that every process on this database respects
   * (a PostgreSQL advisory lock; embedded PGlite serves one process, so a mutex suffices there).
   * Waiting holds no connection and is bounded: past the wait it throws `LockBusyError`, which
   * the API answers with 409 and `busy`, a sentence saying what is in progress (db/locks.ts).
   */
  withLock<T>(key: string, busy: string, fn: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** How long withLock waits before giving up with LockBusyError (DEFAULT_LOCK_WAIT_MS). */
  lockWaitMs?: number;
}

export function fromPglite(client: PGlite, options: DatabaseOptions = {}): Database {
  return {
    withLock: processLocks(options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS),
    driver: "pglite",
    // The statements drizzle is asked to prepare by name are named statements here too (issue 22).
    db: namedStatements(drizzlePglite(client, { schema }), client) as unknown as Db,
    transaction: (fn) =>
      client.transaction((tx) =>
        fn({
          query: async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows,
          exec: async (text: string) => {
            await tx.exec(text);
          },
        }),
      ),
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
  };
}

export function fromPool(pool: pg.Pool, options: DatabaseOptions = {}): Database {
  // An idle client losing its server (restart, failover, a forced drop) must not crash the
  // process; the pool discards it and the next query reconnects.
  pool.on("error", () => undefined);
  // Held locks live on a connection of their own, outside the pool (db/locks.ts).
  const locks = advisoryLocks(pool.options, options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS);
  return {
    withLock: locks.withLock,
    driver: "postgres",
    db: drizzlePg(pool, { schema }) as unknown as Db,
    async transaction(fn) {
      const conn = await pool.connect();
      try {
        await conn.query("begin");
        const result = await fn({
          query: async <T>(text: string, params?: unknown[]) =>
            (await conn.query(text, params)).rows as T[],
          exec: async (text: string) => {
            await conn.query(text);
          },
        });
        await conn.query("commit");
        return result;
      } catch (err) {
        await conn.query("rollback").catch(() => undefined);
        throw err;
      } finally {
        conn.release();
      }
    },
    ping: async () => {
      await pool.query("select 1");
    },
    close: async () => {
      await locks.close();
      await pool.end();
    },
  };
}

export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

export async function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Promise<Database> {
  if (target.kind === "postgres") {
    return fromPool(new pg.Pool({ connectionString: target.url, max: 10 }), options);
  }
  mkdirSync(target.dataDir, { recursive: true });
  return fromPglite(await PGlite.create(target.dataDir), options);
}
