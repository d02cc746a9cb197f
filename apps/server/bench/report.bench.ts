// A warm consolidated report of the whole demo group (five companies, four currencies, twelve
// months with a prior-year comparison) under 50 concurrent connections for 10 s over a real
// socket on embedded PGlite: cold time, p99, errors. Target (ARCHITECTURE.md): p99 <= 100 ms, 0 errors.
import type { AddressInfo } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import autocannon from "autocannon";
import { chartMappingProblem, type ChartAccount } from "@groupledger/domain";
import { Sandbox } from "@groupledger/qbo-sandbox";
import { buildApp } from "../src/app.ts";
import { fromPglite } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { testConfig } from "../test/config.ts";

const config = testConfig({ rateLimits: { globalPerMinute: 10_000_000 } });
const sandbox = new Sandbox();
const database = fromPglite(await PGlite.create());
await migrate(database);
const app = await buildApp({ config, database, logger: false, webDist: false, sandbox });
await app.listen({ host: "127.0.0.1", port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const call = async (method: string, url: string, payload?: unknown, token?: string) => {
  const res = await app.inject({ method: method as "GET", url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (res.statusCode >= 400) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
};

const email = "bench-report@example.com";
const password = "Ledger#Report2026";
await call("POST", "/api/session/signup", { email, password });
const box = await call("GET", `/api/dev/mailbox?to=${email}`);
await call("POST", "/api/session/validationcode", { validationCode: /code is ([0-9A-Z-]{9})/.exec(box.messages[0].text)![1] });
const { token } = await call("POST", "/api/session/token", { email, password });

const realms = sandbox.companies().map((c) => c.realmId);
for (const realmId of realms) {
  const { authorizeUrl } = await call("GET", "/api/qbo/account/authorize", undefined, token);
  const params = new URL(authorizeUrl, "http://x").searchParams;
  const code = sandbox.issueAuthorizationCode(realmId, params.get("redirect_uri")!);
  await call("POST", "/api/qbo/account/callback", { state: params.get("state"), code, realmId }, token);
}
const { worker } = app.services;
while ((await worker.poll()) > 0) await worker.idle();
await worker.idle();

// Set up as a user would: the parent, complete maps, CTA account and historical rates, rates.
type Row = { Id: string; name: string; acctNum: string | null; classification: string; accountType: string; accountSubType: string | null; active: boolean; everHadBalance: boolean };
const asChart = (a: Row): ChartAccount => ({ id: a.Id, name: a.name, acctNum: a.acctNum, classification: a.classification, accountType: a.accountType, accountSubType: a.accountSubType, active: a.active });
const parent = realms[0]!;
await call("POST", "/api/companies/parent", { realmId: parent }, token);
const parentChart: Row[] = await call("GET", `/api/companies/${parent}/accounts`, undefined, token);
for (const realmId of realms.slice(1)) {
  const chart: Row[] = await call("GET", `/api/companies/${realmId}/accounts`, undefined, token);
  const { suggestions } = await call("GET", `/api/companies/${realmId}/map/suggestions`, undefined, token);
  const map: Record<string, string> = {};
  for (const [id, list] of Object.entries(suggestions) as [string, { parentAccountId: string }[]][]) if (list[0]) map[id] = list[0].parentAccountId;
  for (const a of chart.filter((x) => x.everHadBalance && !map[x.Id])) map[a.Id] = parentChart.find((p) => chartMappingProblem(asChart(a), asChart(p)) === null)!.Id;
  await call("POST", `/api/companies/${realmId}/map`, { map }, token);
}
const cta = await call("GET", "/api/cta", undefined, token);
for (const sub of cta.subsidiaries as { realmId: string; equity: { accountId: string; localAmount: number | null }[] }[]) {
  const historical = sub.equity.filter((e) => e.localAmount).map((e) => ({ accountId: e.accountId, historicalRate: "1.2" }));
  const res = await app.inject({ method: "PUT", url: `/api/cta/${sub.realmId}`, payload: { ctaAccountId: cta.ctaAccountSuggestions[0].accountId, historical }, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`CTA settings: ${res.body}`);
}
await call("POST", "/api/fxrates/fetch", { from: "2023-12", to: "2025-12" }, token);

const url = "/api/consolidation/report?from=2025-01&to=2025-12&compare=prior_year";
const coldStart = performance.now();
const cold = await call("GET", url, undefined, token);
const coldMs = performance.now() - coldStart;
if (!cold.ok) throw new Error(`the report does not compute: ${JSON.stringify(cold.problems)}`);
const rows = cold.report.worksheet.rows.length;

const result = await autocannon({ url: base + url, connections: 50, duration: 10, headers: { authorization: `Bearer ${token}` } });
console.log(
  `consolidated report (${realms.length} companies, 12 months + prior year, ${rows} worksheet rows): cold ${Math.round(coldMs)} ms; ` +
    `warm under 50 connections for 10 s: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms ` +
    `(target ≤ 100), non-2xx ${result.non2xx}, errors ${result.errors}`,
);
await app.close();
await database.close();
if (result.errors > 0 || result.non2xx > 0 || result.latency.p99 > 100) process.exit(1);
