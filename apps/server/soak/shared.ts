// What the soak (soak.ts) and its users' thread (users.ts) share.

export interface UsersInput {
  base: string;
  tokens: string[];
  seconds: number;
  /** Each user waits a random 0..2×thinkMs between answers and next requests (0: none, a stress test). */
  thinkMs: number;
  realms: string[];
  uk: string;
  canada: string;
  toggled: { id: string; mappedTo: string };
}

export interface UsersOutput {
  latencies: [string, number[]][];
  failures: string[];
  serverErrors: number;
}

/** Actions whose work is QuickBooks' round trips rather than ours (a post writes the entry, Verify reads every posted one back). */
export const LONG_JOBS = new Set(["run post", "verify"]);

/** The API over HTTP with a user's token: the answer's status and text, never thrown for a 4xx or 5xx. */
export const apiJson =
  (base: string) =>
  async (method: string, path: string, token: string, body?: unknown): Promise<{ status: number; text: string }> => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
