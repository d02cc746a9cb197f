// Load in alternating slices (issue 22): a figure and its floor measured in turns over the same
// minutes, so the machine's load falls on both and their ratio holds.
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import type { FastifyInstance } from "fastify";
import { mainThreadCpuMs } from "./machine.ts";

export const CONNECTIONS = 50;

/** What the slices of one side add up to. */
export interface Tally {
  requests: number;
  seconds: number;
  p50s: number[];
  p99s: number[];
  /** Errors and non-2xx answers. */
  bad: number;
  /** CPU the server's thread (this process's main thread) used in the slices, ms. */
  serverCpuMs: number;
}

export const tally = (): Tally => ({ requests: 0, seconds: 0, p50s: [], p99s: [], bad: 0, serverCpuMs: 0 });
/** The server thread's CPU per answered request, µs. */
export const cpuPerRequestUs = (t: Tally) => Math.round((1000 * t.serverCpuMs) / Math.max(1, t.requests));
export const perSecond = (t: Tally) => t.requests / t.seconds;
/** The worst slice's: a figure that holds for every slice. */
export const worstP50 = (t: Tally) => Math.max(...t.p50s);
export const worstP99 = (t: Tally) => Math.max(...t.p99s);

/** One slice of `seconds` of load on `url` with CONNECTIONS connections, added to `into`; `headers` besides the token's. */
export async function slice(url: string, token: string | undefined, seconds: number, into: Tally, headers: Record<string, string> = {}): Promise<void> {
  const cpuBefore = mainThreadCpuMs();
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    // The load generator in a worker thread, like a client elsewhere: not on the server's event loop.
    workers: 1,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  into.serverCpuMs += mainThreadCpuMs() - cpuBefore;
  into.requests += r.requests.total;
  into.seconds += seconds;
  into.p50s.push(r.latency.p50);
  into.p99s.push(r.latency.p99);
  into.bad += r.errors + r.non2xx;
}

/** Starts `app` on a free loopback port; its base URL. */
export async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** What one side of a comparison asks: its URL, the token it signs in with, other headers. */
export interface Side {
  url: string;
  token?: string;
  headers?: Record<string, string>;
}

/** `rounds` × (a slice of each side in turn), `seconds` each: one tally per side, in order. */
export async function inTurns(rounds: number, seconds: number, sides: readonly Side[]): Promise<Tally[]> {
  const tallies = sides.map(() => tally());
  for (let round = 0; round < rounds; round++) {
    for (const [i, side] of sides.entries()) await slice(side.url, side.token, seconds, tallies[i]!, side.headers);
  }
  return tallies;
}

/** `rounds` × (a slice of the floor's URL, then one of the figure's), `seconds` each. */
export async function alternating(rounds: number, seconds: number, floorUrl: string, figure: { url: string; token: string }): Promise<{ floor: Tally; figure: Tally }> {
  const [floor, measured] = await inTurns(rounds, seconds, [{ url: floorUrl }, figure]);
  return { floor: floor!, figure: measured! };
}
