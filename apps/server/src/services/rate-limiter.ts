import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import { errors } from "../http/errors.ts";

export interface LimitResult {
  allowed: boolean;
  count: number;
  retryAfterMs: number;
}

/** The 429 for a refused hit: `message` is told the whole minutes to wait (at least 1); Retry-After says the seconds. */
export function tooManyRequests(r: LimitResult, message: (minutes: number) => string) {
  return errors.tooManyRequests(message(Math.max(1, Math.ceil(r.retryAfterMs / 60_000))), r.retryAfterMs);
}

/**
 * Fixed-window counters in PostgreSQL, so every app process sees the same count and a
 * restart does not reset an attacker's budget. One round trip per hit.
 */
export class RateLimiter {
  constructor(private readonly db: Db) {}

  async hit(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    const rows = await this.db.execute<{ count: number; window_start: Date | string }>(sql`
      insert into rate_limit_counters (key, window_start, count)
      values (${key}, now(), 1)
      on conflict (key) do update set
        count = case when rate_limit_counters.window_start < now() - make_interval(secs => ${windowMs / 1000})
                     then 1 else rate_limit_counters.count + 1 end,
        window_start = case when rate_limit_counters.window_start < now() - make_interval(secs => ${windowMs / 1000})
                     then now() else rate_limit_counters.window_start end
      returning count, window_start`);
    return this.result(rows, limit, windowMs);
  }

  /** Counts a try; past the limit, the 429 of `tooManyRequests` in `message`'s words. */
  async enforce(key: string, limit: number, windowMs: number, message: (minutes: number) => string): Promise<void> {
    const r = await this.hit(key, limit, windowMs);
    if (!r.allowed) throw tooManyRequests(r, message);
  }

  /**
   * Gives back one hit taken to reserve a try that turned out not to count (a right password, a
   * right code, a try refused by another limit). Reserving first and refunding after is what keeps
   * a parallel burst from evaluating more tries than the limit: each one's count comes from the
   * single atomic upsert in `hit`.
   */
  async refund(key: string): Promise<void> {
    await this.db.execute(sql`update rate_limit_counters set count = greatest(count - 1, 0) where key = ${key}`);
  }

  /** Forgets a counter: e.g. a sign-in from an address forgives that address's earlier typos. */
  async reset(key: string): Promise<void> {
    await this.db.execute(sql`delete from rate_limit_counters where key = ${key}`);
  }

  private result(rows: unknown, limit: number, windowMs: number): LimitResult {
    const row = rowsOf<{ count: number; window_start: Date | string }>(rows)[0];
    if (!row) return { allowed: true, count: 0, retryAfterMs: 0 };
    const count = Number(row.count);
    const resetAt = new Date(row.window_start).getTime() + windowMs;
    return { allowed: count <= limit, count, retryAfterMs: Math.max(1000, resetAt - Date.now()) };
  }
}
