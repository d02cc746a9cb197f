/**
 * Answers computed from an account's data (consolidated reports, run previews), kept by the
 * account's data version: database triggers bump it in the writer's transaction on any change to
 * what these answers read (migration 0013 and later), so a kept answer is never stale, whichever
 * process made the change. The version is the one the request read before asking (auth.ts reads it
 * with the caller): an answer computed while a change lands is kept under the older version, which
 * no later request asks for.
 *
 * The key always starts with the account and its version: no answer can be served to another
 * account, nor after a change. The same answer asked again while it is being computed waits for
 * that computation instead of starting its own. At most `limit` answers, the oldest dropped first.
 */
export class DataVersionCache<T> {
  private readonly kept = new Map<string, T>();
  private readonly computing = new Map<string, Promise<T>>();

  constructor(private readonly limit: number) {}

  /** The answer for `variant` (what else it depends on: a period, a company) at this account's `version`. */
  async get(accountId: string, version: number, variant: string, compute: () => Promise<T>): Promise<T> {
    const key = `${accountId}|${version}|${variant}`;
    const hit = this.kept.get(key);
    if (hit !== undefined) return hit;
    const pending = this.computing.get(key);
    if (pending) return pending;
    const computation = compute().then((value) => {
      if (this.kept.size >= this.limit) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, value);
      return value;
    });
    this.computing.set(key, computation);
    try {
      return await computation;
    } finally {
      this.computing.delete(key);
    }
  }
}
