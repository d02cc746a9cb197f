export interface RetryOptions {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** Backoff cap of the first retry; doubles with each further one. */
  readonly baseDelayMs: number;
  /** No single wait is longer than this, Retry-After included. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = Object.freeze({ maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 60_000 });

/**
 * Wait before the retry that follows failed attempt `attempt` (1-based): "full jitter"
 * (uniform in [0, min(max, base * 2^(attempt-1))]) so clients that failed together do not retry
 * together. A Retry-After from the server is a floor, plus a little jitter for the same reason.
 */
export function backoffDelay(attempt: number, options: RetryOptions, random: () => number, retryAfterMs?: number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  if (retryAfterMs === undefined) return jittered;
  return Math.min(options.maxDelayMs, retryAfterMs + Math.floor(random() * options.baseDelayMs));
}
