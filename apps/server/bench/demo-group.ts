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
import { standaloneQboProvider } from "../src/services/qbo-provider.ts";
import { tsWorker } from "../src/services/ts-worker.ts";
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

/** The emulator the app talks to: in this process (embedded), or at a URL (another thread's, qbo-thread.ts). */
export type QboSide = Sandbox | { url: string };

async function emulatorRealms(qbo: QboSide): Promise<string[]> {
  if (qbo instanceof Sandbox) return qbo.companies().map((c) => c.realmId);
  return ((await (await fetch(`${qbo.url}/_sandbox/companies`)).json()) as { realmId: string }[]).map((c) => c.realmId);
}

/** The code the emulator's consent page gives for `realmId`: a call in-process, or the consent form posted as a browser would. */
async function consent(qbo: QboSide, authorizeUrl: string, realmId: string): Promise<string> {
  const params = new URL(authorizeUrl, "http://x").searchParams;
  if (qbo instanceof Sandbox) return qbo.issueAuthorizationCode(realmId, params.get("redirect_uri")!);
  const form = new URLSearchParams(params);
  form.set("realmId", realmId);
  const res = await fetch(new URL(authorizeUrl).origin + new URL(authorizeUrl).pathname, { method: "POST", body: form, redirect: "manual" });
  const code = new URL(res.headers.get("location") ?? "http://x/").searchParams.get("code");
  if (!code) throw new Error(`the emulator's consent answered ${res.status}: ${await res.text()}`);
  return code;
}

/** A user signed up and verified, with every sandbox company connected through OAuth (their first syncs queued, not run). */
export async function signUpAndConnect(app: FastifyInstance, sandbox: QboSide, email: string) {
  const call = apiCaller(app);
  const password = "Ledger#Demo2026";
  await call("POST", "/api/session/signup", { email, password });
  const box = await call("GET", `/api/dev/mailbox?to=${email}`);
  await call("POST", "/api/session/validationcode", { validationCode: /code is ([0-9A-Z-]{9})/.exec(box.messages[0].text)![1] });
  const { token } = (await call("POST", "/api/session/token", { email, password })) as { token: string };
  const realms = await emulatorRealms(sandbox);
  for (const realmId of realms) {
    const { authorizeUrl } = await call("GET", "/api/qbo/account/authorize", undefined, token);
    const params = new URL(authorizeUrl, "http://x").searchParams;
    const code = await consent(sandbox, authorizeUrl, realmId);
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

/**
 * The demo group on `database` (default: DATABASE_URL's PostgreSQL, else a new in-memory PGlite),
 * synced and configured, its rates fetched. `qbo`: the emulator embedded in the app (default, as
 * `npm start` runs it) or on a thread of its own over loopback HTTP (qbo-thread.ts), as Intuit is
 * another machine in a deployment: then the server's thread does only the server's work.
 */
export async function demoGroup(opts: { rates: { from: string; to: string }; database?: Database; qbo?: "embedded" | "thread" }): Promise<DemoGroup> {
  const config = testConfig({ rateLimits: { globalPerMinute: 10_000_000 } });
  const threaded = opts.qbo === "thread" ? await emulatorThread() : null;
  const sandbox: QboSide = threaded ?? new Sandbox();
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
  const app = await buildApp({
    config,
    database,
    logger: false,
    webDist: false,
    ...(threaded ? { qboProvider: (tokens) => standaloneQboProvider(threaded.url, null, tokens) } : { sandbox: sandbox as Sandbox }),
  });
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
      await threaded?.close();
    },
  };
}

/** The emulator started on a thread of its own (qbo-thread.ts): its URL, and how to stop it. */
async function emulatorThread(): Promise<{ url: string; close(): Promise<void> }> {
  const worker = tsWorker(new URL("./qbo-thread.ts", import.meta.url));
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        worker.once("exit", () => resolve());
        worker.postMessage("close");
      }),
  };
}
