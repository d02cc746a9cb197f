import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";

export interface LimitResult {
  allowed: boolean;
  count: number;
  retryAfterMs: number;
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

  /** Reads without counting: for budgets that only failures consume. */
  async peek(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    const rows = await this.db.execute<{ count: number; window_start: Date | string }>(sql`
      select count, window_start from rate_limit_counters
      where key = ${key} and window_start >= now() - make_interval(secs => ${windowMs / 1000})`);
    return this.result(rows, limit, windowMs);
  }

  private result(rows: unknown, limit: number, windowMs: number): LimitResult {
    const row = rowsOf<{ count: number; window_start: Date | string }>(rows)[0];
    if (!row) return { allowed: true, count: 0, retryAfterMs: 0 };
    const count = Number(row.count);
    const resetAt = new Date(row.window_start).getTime() + windowMs;
    return { allowed: count <= limit, count, retryAfterMs: Math.max(1000, resetAt - Date.now()) };
  }
}
