import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

/**
 * Named locks for sections that must not run twice at once (posting an entry, creating the CTA
 * account, refreshing QuickBooks tokens). Two rules keep them from starving the server:
 *
 * - Waiting never holds a pool connection. Waiters of one process queue in memory (`KeyedMutex`),
 *   so a process has at most one contender per key at the database; that one asks PostgreSQL with
 *   pg_try_advisory_lock, which answers at once, and polls. (Blocking in pg_advisory_lock on a pool
 *   connection per waiter let ten waiters take the whole pool while the holder needed one.)
 * - Waiting is bounded: past `waitMs` the caller gets a `LockBusyError` (the API answers 409 with
 *   the caller's sentence), never an endless queue.
 *
 * Held locks live on one dedicated connection per process (`AdvisoryLockSession`), outside the
 * pool: one session holds any number of keys, so nested locks (a posting that refreshes a token)
 * cannot exhaust anything, and no transaction stays open across the QuickBooks calls inside.
 */

/** How long a request waits for a lock before it is told someone else is at it. */
export const DEFAULT_LOCK_WAIT_MS = 20_000;

/**
 * Thrown when a lock stays taken for longer than the wait allows. The message is for a person
 * (the API answers 409 with it; a run's job shows it while it waits to retry).
 */
export class LockBusyError extends Error {
  override name = "LockBusyError";
  constructor(
    readonly key: string,
    /** What is in progress, as the caller put it ("Another posting of … is in progress"). */
    readonly busy: string,
    readonly waitedMs: number,
  ) {
    const seconds = Math.round(waitedMs / 1000);
    super(`${busy} and has not finished within ${seconds} second${seconds === 1 ? "" : "s"}.`);
  }
}

/** One holder per key within this process, waiters first come first served, each with a deadline. */
export class KeyedMutex {
  /** Per held key, the waiters in order; a key is absent when nobody holds it. */
  private readonly queues = new Map<string, Array<() => void>>();

  /** Resolves with the release function once `key` is ours; rejects with LockBusyError at `deadline`. */
  acquire(key: string, deadline: number, busy: string, waitMs: number): Promise<() => void> {
    const queue = this.queues.get(key);
    if (!queue) {
      this.queues.set(key, []);
      return Promise.resolve(this.releaser(key));
    }
    return new Promise((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(this.releaser(key));
      };
      const timer = setTimeout(() => {
        const at = queue.indexOf(wake);
        if (at >= 0) queue.splice(at, 1);
        reject(new LockBusyError(key, busy, waitMs));
      }, Math.max(0, deadline - Date.now()));
      queue.push(wake);
    });
  }

  private releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queues.get(key)?.shift();
      if (next) next();
      else this.queues.delete(key);
    };
  }
}

/**
 * PostgreSQL advisory locks of one process, all held on one connection of their own. Taking a
 * lock never blocks that connection (pg_try_advisory_lock), so it serves every key at once.
 *
 * If the connection is lost, PostgreSQL releases what it held: sections running at that moment
 * lose their cross-process exclusivity (within the process the mutex still holds, and the posting
 * protocol's request ids keep QuickBooks from booking an entry twice); the next lock reconnects.
 */
export class AdvisoryLockSession {
  private connection: Promise<pg.Client> | null = null;
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {}

  private client(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error("the lock connection is closed"));
    if (!this.connection) {
      const client = new pg.Client({
        connectionTimeoutMillis: 10_000,
        ...this.config,
        // Named, so an administrator can tell it from the pool's; kept alive, so a dead peer is noticed.
        application_name: "groupledger-locks",
        keepAlive: true,
      });
      const ready = client.connect().then(() => client);
      const forget = () => {
        if (this.connection === ready) this.connection = null;
      };
      // A dropped connection must not crash the process; its locks are gone, the next use reconnects.
      client.on("error", forget);
      client.on("end", forget);
      ready.catch(forget);
      this.connection = ready;
    }
    return this.connection;
  }

  /** Takes `key` if no other session holds it; the release function when it did. */
  async tryLock(key: string): Promise<(() => Promise<void>) | null> {
    const client = await this.client();
    const { rows } = await client.query<{ ok: boolean }>("select pg_try_advisory_lock(hashtextextended($1, 0)) as ok", [key]);
    if (!rows[0]?.ok) return null;
    return async () => {
      // Only the session that took it can release it; if that session is gone, so is the lock.
      if (this.connection !== null && (await this.connection.catch(() => null)) === client) {
        await client.query("select pg_advisory_unlock(hashtextextended($1, 0))", [key]).catch(() => {
          // Cannot say whether it was released: end the session rather than leave the key taken for good.
          void client.end().catch(() => undefined);
        });
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.connection;
    this.connection = null;
    const client = await pending?.catch(() => null);
    await client?.end().catch(() => undefined);
  }
}

/** The first polls come quickly (a posting often takes a few hundred ms), later ones less often. */
const POLL_MS = [10, 25, 50, 100, 200];

/** withLock for PostgreSQL: the process's mutex first, then the advisory lock, polled until the deadline. */
export function advisoryLocks(config: pg.ClientConfig, waitMs: number) {
  const local = new KeyedMutex();
  const session = new AdvisoryLockSession(config);
  return {
    async withLock<T>(key: string, busy: string, fn: () => Promise<T>): Promise<T> {
      const deadline = Date.now() + waitMs;
      const releaseLocal = await local.acquire(key, deadline, busy, waitMs);
      try {
        let release = await session.tryLock(key);
        for (let attempt = 0; !release; attempt++) {
          const left = deadline - Date.now();
          if (left <= 0) throw new LockBusyError(key, busy, waitMs);
          await sleep(Math.min(POLL_MS[Math.min(attempt, POLL_MS.length - 1)]!, left));
          release = await session.tryLock(key);
        }
        try {
          return await fn();
        } finally {
          await release();
        }
      } finally {
        releaseLocal();
      }
    },
    close: () => session.close(),
  };
}

/** withLock for embedded PGlite, which serves one process: the mutex is the whole lock. */
export function processLocks(waitMs: number) {
  const local = new KeyedMutex();
  return async <T>(key: string, busy: string, fn: () => Promise<T>): Promise<T> => {
    const release = await local.acquire(key, Date.now() + waitMs, busy, waitMs);
    try {
      return await fn();
    } finally {
      release();
    }
  };
}
