// Sync of the whole demo group through the product (OAuth connect, job queue, sync handler) with
// 100 ms of latency on every QuickBooks call: calls made and wall time against the rate-limit floor.
import { PGlite } from "@electric-sql/pglite";
import { Sandbox } from "@groupledger/qbo-sandbox";
import { buildApp } from "../src/app.ts";
import { testConfig } from "../test/config.ts";
import { fromPglite } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { apiCaller, signUpAndConnect } from "./demo-group.ts";

const LATENCY_MS = 100;
const config = testConfig({ rateLimits: { globalPerMinute: 1_000_000 } });

const sandbox = new Sandbox();
const database = fromPglite(await PGlite.create());
await migrate(database);
const app = await buildApp({ config, database, logger: false, webDist: false, sandbox });
await app.ready();
const call = apiCaller(app);
const { token } = await signUpAndConnect(app, sandbox, "bench-sync@example.com");

sandbox.setFaults({ latencyMs: LATENCY_MS });
const started = performance.now();
const { worker, queue } = app.services;
while ((await worker.poll()) > 0) await worker.idle();
await worker.idle();
const wallMs = performance.now() - started;

const accountId = (await call("GET", "/api/session", undefined, token)).accountId;
const jobs = await queue.listForAccount(accountId);
const failed = jobs.filter((j) => j.state !== "succeeded");
const calls = jobs.reduce((sum, j) => sum + Number((j.result as { calls?: number } | null)?.calls ?? 0), 0);
const companyYears = jobs.reduce((sum, j) => {
  const m = (j.result as { months?: { from: string; to: string } } | null)?.months;
  return m ? sum + (Number(m.to.slice(0, 4)) - Number(m.from.slice(0, 4)) + 1) : sum;
}, 0);
// A first sync is a chain of round trips per realm: accounts, customers and vendors (in
// parallel), CompanyInfo, then one pair of reports (in parallel) per 36-month chunk; the worker
// runs two realms at a time.
const chain = (j: (typeof jobs)[number]) => {
  const m = (j.result as { months: { from: string; to: string } }).months;
  const months = (Number(m.to.slice(0, 4)) - Number(m.from.slice(0, 4))) * 12 + Number(m.to.slice(5)) - Number(m.from.slice(5)) + 1;
  return 3 + Math.ceil(months / 36);
};
const floorMs = Math.ceil(jobs.length / 2) * Math.max(...jobs.map(chain)) * LATENCY_MS;
console.log(
  `sync of ${jobs.length} demo companies, ${LATENCY_MS} ms per QuickBooks call: ${calls} calls ` +
    `(${(calls / companyYears).toFixed(2)} per company-year over ${companyYears} company-years; target ≤ 3), wall ${Math.round(wallMs)} ms, ` +
    `round-trip floor ${floorMs} ms (ratio ${(wallMs / floorMs).toFixed(2)}); Intuit's limits (10 concurrent, 500/min per realm) allow far more than this needs`,
);
await app.close();
await database.close();
if (failed.length > 0 || calls / companyYears > 3) {
  console.error(`failed syncs: ${failed.length}; calls per company-year ${(calls / companyYears).toFixed(2)} (target ≤ 3)`);
  process.exit(1);
}
