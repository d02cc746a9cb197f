import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
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
   * (a PostgreSQL advisory lock). Embedded PGlite serves one process, so a mutex suffices there.
   */
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A FIFO mutex per key, for one process. */
function keyedMutex() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

export function fromPglite(client: PGlite): Database {
  const withLock = keyedMutex();
  return {
    withLock,
    driver: "pglite",
    db: drizzlePglite(client, { schema }) as unknown as Db,
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

export function fromPool(pool: pg.Pool): Database {
  // An idle client losing its server (restart, failover, a forced drop) must not crash the
  // process; the pool discards it and the next query reconnects.
  pool.on("error", () => undefined);
  return {
    async withLock(key, fn) {
      // Session-level lock on a connection held for the duration: fn itself may use other connections.
      const conn = await pool.connect();
      try {
        await conn.query("select pg_advisory_lock(hashtextextended($1, 0))", [key]);
        try {
          return await fn();
        } finally {
          await conn.query("select pg_advisory_unlock(hashtextextended($1, 0))", [key]);
        }
      } finally {
        conn.release();
      }
    },
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
    close: () => pool.end(),
  };
}

export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    return fromPool(new pg.Pool({ connectionString: target.url, max: 10 }));
  }
  mkdirSync(target.dataDir, { recursive: true });
  return fromPglite(await PGlite.create(target.dataDir));
}
