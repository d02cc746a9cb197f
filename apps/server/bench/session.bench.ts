// Authenticated request overhead (token check + user + deny-list lookups) over a real socket
// on embedded PGlite: the floor every later API call sits on.
import type { AddressInfo } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import autocannon from "autocannon";
import { buildApp } from "../src/app.ts";
import { testConfig } from "../test/config.ts";
import { fromPglite } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";

const config = testConfig({ rateLimits: { globalPerMinute: 1_000_000 } });

const database = fromPglite(await PGlite.create());
await migrate(database);
const app = await buildApp({ config, database, logger: false, webDist: false });
await app.listen({ host: "127.0.0.1", port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const json = (method: string, path: string, body?: unknown, token?: string) =>
  fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json() as Promise<Record<string, unknown>>);

const email = "bench@example.com";
const password = "Ledger#Mark2026";
const signup = await json("POST", "/api/session/signup", { email, password });
if (!("email" in signup)) throw new Error(`sign-up failed: ${JSON.stringify(signup)}`);
const box = (await json("GET", `/api/dev/mailbox?to=${email}`)) as { messages: { text: string }[] };
const code = /code is ([0-9A-Z-]{9})/.exec(box.messages[0]!.text)![1];
await json("POST", "/api/session/validationcode", { validationCode: code });
const { token } = (await json("POST", "/api/session/token", { email, password })) as { token: string };

const result = await autocannon({
  url: `${base}/api/session`,
  connections: 50,
  duration: 10,
  // The load generator in a worker thread, like a client elsewhere: not on the server's event loop.
  workers: 1,
  headers: { authorization: `Bearer ${token}` },
});
console.log(
  `GET /api/session, 50 connections, 10 s, PGlite: ${Math.round(result.requests.average)} req/s, ` +
    `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
);
await app.close();
await database.close();
if (result.errors > 0 || result.non2xx > 0) process.exit(1);
