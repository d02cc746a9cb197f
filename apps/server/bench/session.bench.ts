// Issue 22: the authenticated request path against its floor. `GET /api/session` (the token's
// signature, the user and deny-list in one lookup, the permission and rate-limit hooks, the JSON
// request log) under 50 connections, side by side with a bare Fastify route doing the same single
// indexed lookup (the user by id, a prepared statement as the app's own) on the same database, on PGlite and on PostgreSQL when
// BENCH_DATABASE_URL or TEST_DATABASE_URL names a server. The two are measured in alternating
// slices of the same minute, so the machine's load falls on both. Target: the session route at
// ≥ 50% of the floor's throughput.
import { Writable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import Fastify from "fastify";
import { buildApp } from "../src/app.ts";
import { users } from "../src/db/schema.ts";
import { testConfig } from "../test/config.ts";
import { benchDatabase, benchDrivers, type BenchDriver } from "./databases.ts";
import { loadAverage } from "./machine.ts";
import { alternating, CONNECTIONS, listening, perSecond, worstP99 } from "./slices.ts";

const SLICE_S = 5;
const ROUNDS = 3;
const TARGET = 0.5;

async function onDriver(driver: BenchDriver): Promise<boolean> {
  const db = await benchDatabase(driver);
  // The production logger, pino's JSON a line for each request, written to nowhere: its cost counts.
  const discard = new Writable({ write: (_chunk, _enc, done) => done() });
  const config = testConfig({ env: "production", logLevel: "info", rateLimits: { globalPerMinute: 10_000_000 } });
  const app = await buildApp({ config, database: db.database, webDist: false, logStream: { write: (line: string) => void discard.write(line) } });
  const base = await listening(app);
  const json = async (method: string, path: string, body?: unknown) => {
    const res = await app.inject({ method: method as "POST", url: path, ...(body === undefined ? {} : { payload: body as object }) });
    return res.json() as Record<string, unknown>;
  };
  const email = `session-bench-${driver}@example.com`;
  const password = "Ledger#Mark2026";
  await json("POST", "/api/session/signup", { email, password });
  const box = (await json("GET", `/api/dev/mailbox?to=${encodeURIComponent(email)}`)) as { messages: { text: string }[] };
  const code = /code is ([0-9A-Z-]{9})/.exec(box.messages[0]!.text)![1];
  await json("POST", "/api/session/validationcode", { validationCode: code, email });
  const { token } = (await json("POST", "/api/session/token", { email, password })) as { token: string };
  const [user] = await db.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);

  // The floor: Fastify with one route and nothing else, the same lookup on the same database.
  // The lookup prepared once, as the app prepares its own (http/auth.ts).
  const lookup = db.database.db.select().from(users).where(eq(users.id, sql.placeholder("id"))).limit(1).prepare("floor_user");
  const bare = Fastify();
  bare.get("/floor", async () => {
    const [row] = await lookup.execute({ id: user!.id });
    return { id: row!.id, email: row!.email, name: row!.name, permissionLevel: row!.permissionLevel, accountId: row!.accountId };
  });
  const { floor, figure: session } = await alternating(ROUNDS, SLICE_S, `${await listening(bare)}/floor`, { url: `${base}/api/session`, token });
  await bare.close();
  await app.close();
  await db.close();

  const ratio = perSecond(session) / perSecond(floor);
  const pass = ratio >= TARGET && session.bad === 0 && floor.bad === 0;
  console.log(
    `${driver}, ${CONNECTIONS} connections, ${ROUNDS} alternating slices of ${SLICE_S} s each (load average ${loadAverage()}):\n` +
      `  GET /api/session: ${Math.round(perSecond(session))} req/s, worst slice p99 ${worstP99(session)} ms, errors and non-2xx ${session.bad}\n` +
      `  floor, a bare Fastify route with the same lookup: ${Math.round(perSecond(floor))} req/s, worst slice p99 ${worstP99(floor)} ms, errors and non-2xx ${floor.bad}\n` +
      `  ratio ${(ratio * 100).toFixed(0)}% of the floor (target ≥ ${TARGET * 100}%): ${pass ? "PASS" : "FAIL"}`,
  );
  return pass;
}

let ok = true;
for (const driver of benchDrivers()) ok = (await onDriver(driver)) && ok;
if (!ok) process.exit(1);
