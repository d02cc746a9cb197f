// A running app on embedded PGlite (or DATABASE_URL) with the offline demo group connected,
// synced and set up as a user would (parent, complete maps, CTA and historical rates, fetched
// rates): what the report bench and the soak test work on.
import type { AddressInfo } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { chartMappingProblem, type ChartAccount } from "@groupledger/domain";
import { Sandbox } from "@groupledger/qbo-sandbox";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.ts";
import { fromPglite, fromPool, type Database } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { testConfig } from "../test/config.ts";

export interface DemoGroup {
  app: FastifyInstance;
  base: string;
  token: string;
  email: string;
  password: string;
  realms: string[];
  close(): Promise<void>;
}

type Row = { Id: string; name: string; acctNum: string | null; classification: string; accountType: string; accountSubType: string | null; active: boolean; everHadBalance: boolean };
const asChart = (a: Row): ChartAccount => ({ id: a.Id, name: a.name, acctNum: a.acctNum, classification: a.classification, accountType: a.accountType, accountSubType: a.accountSubType, active: a.active });

/** The API through inject, failing loudly on any 4xx/5xx; its JSON as loosely typed as inject gives it. */
export const apiCaller = (app: FastifyInstance) => async (method: string, path: string, payload?: unknown, token?: string) => {
  const res = await app.inject({ method: method as "GET", url: path, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (res.statusCode >= 400) throw new Error(`${method} ${path} answered ${res.statusCode}: ${res.body}`);
  return res.json();
};

/** A user signed up and verified, with every sandbox company connected through OAuth (their first syncs queued, not run). */
export async function signUpAndConnect(app: FastifyInstance, sandbox: Sandbox, email: string) {
  const call = apiCaller(app);
  const password = "Ledger#Demo2026";
  await call("POST", "/api/session/signup", { email, password });
  const box = await call("GET", `/api/dev/mailbox?to=${email}`);
  await call("POST", "/api/session/validationcode", { validationCode: /code is ([0-9A-Z-]{9})/.exec(box.messages[0].text)![1] });
  const { token } = (await call("POST", "/api/session/token", { email, password })) as { token: string };
  const realms = sandbox.companies().map((c) => c.realmId);
  for (const realmId of realms) {
    const { authorizeUrl } = await call("GET", "/api/qbo/account/authorize", undefined, token);
    const params = new URL(authorizeUrl, "http://x").searchParams;
    const code = sandbox.issueAuthorizationCode(realmId, params.get("redirect_uri")!);
    await call("POST", "/api/qbo/account/callback", { state: params.get("state"), code, realmId }, token);
  }
  return { token, email, password, realms };
}

/**
 * What a group needs before its subsidiaries translate, done through the API as a user would: the
 * first realm as the parent, complete maps (the best suggestion, else any compatible parent
 * account), the suggested CTA account and a historical rate for each translated subsidiary's
 * contributed equity. FX rates are the caller's.
 */
export async function configureGroup(app: FastifyInstance, token: string, realms: readonly string[]): Promise<void> {
  const call = apiCaller(app);
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
}

/** The demo group on `database` (default: DATABASE_URL's PostgreSQL, else a new in-memory PGlite), synced and configured, its rates fetched. */
export async function demoGroup(opts: { rates: { from: string; to: string }; database?: Database }): Promise<DemoGroup> {
  const config = testConfig({ rateLimits: { globalPerMinute: 10_000_000 } });
  const sandbox = new Sandbox();
  const url = process.env.DATABASE_URL;
  let database: Database;
  if (opts.database) {
    database = opts.database;
  } else if (url) {
    database = fromPool(new pg.Pool({ connectionString: url, max: 10 }));
  } else {
    database = fromPglite(await PGlite.create());
  }
  await migrate(database);
  const app = await buildApp({ config, database, logger: false, webDist: false, sandbox });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const call = apiCaller(app);
  const { token, email, password, realms } = await signUpAndConnect(app, sandbox, `demo-${Date.now()}@example.com`);
  const { worker } = app.services;
  while ((await worker.poll()) > 0) await worker.idle();
  await worker.idle();

  await configureGroup(app, token, realms);
  await call("POST", "/api/fxrates/fetch", opts.rates, token);
  return {
    app,
    base,
    token,
    email,
    password,
    realms,
    async close() {
      await app.close();
      // A database handed in is its owner's to close.
      if (!opts.database) await database.close();
    },
  };
}
