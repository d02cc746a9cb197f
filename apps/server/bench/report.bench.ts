// A warm consolidated report of the whole demo group (five companies, four currencies, twelve
// months with a prior-year comparison) under 50 concurrent connections for 10 s over a real
// socket on embedded PGlite: cold time, p99, errors. Target (ARCHITECTURE.md): p99 <= 100 ms, 0 errors.
import autocannon from "autocannon";
import { demoGroup } from "./demo-group.ts";

const group = await demoGroup({ rates: { from: "2023-12", to: "2025-12" } });
const { app, base, token, realms } = group;
const call = async (method: string, url: string, payload?: unknown, token?: string) => {
  const res = await app.inject({ method: method as "GET", url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (res.statusCode >= 400) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
};

const url = "/api/consolidation/report?from=2025-01&to=2025-12&compare=prior_year";
const coldStart = performance.now();
const cold = await call("GET", url, undefined, token);
const coldMs = performance.now() - coldStart;
if (!cold.ok) throw new Error(`the report does not compute: ${JSON.stringify(cold.problems)}`);
const rows = cold.report.worksheet.rows.length;

// The load generator runs in a worker thread, as a client on another machine would: it does not take the server's event loop.
const result = await autocannon({ url: base + url, connections: 50, duration: 10, workers: 1, headers: { authorization: `Bearer ${token}` } });
console.log(
  `consolidated report (${realms.length} companies, 12 months + prior year, ${rows} worksheet rows): cold ${Math.round(coldMs)} ms; ` +
    `warm under 50 connections for 10 s: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms ` +
    `(target ≤ 100), non-2xx ${result.non2xx}, errors ${result.errors}`,
);
await group.close();
if (result.errors > 0 || result.non2xx > 0 || result.latency.p99 > 100) process.exit(1);
