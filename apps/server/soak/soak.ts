// `npm run soak` (issue 11): 50 concurrent users working on the demo group over loopback for
// SOAK_SECONDS (default 600): consolidated reports for varying periods, the mapping screen's
// reads and a map change back and forth, FX rates, run previews, postings (duplicates after the
// first) and Verify. Prints request count, p50/p99 latency per action, errors, and the server's
// memory over time; fails on any error or 5xx, or when memory keeps growing after warm-up.
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { demoGroup } from "../bench/demo-group.ts";
import { loadAverage, mainThreadCpuMs, runQueueMs } from "../bench/machine.ts";
import { fromPglite, fromPool, type Database } from "../src/db/client.ts";
import { tsWorker } from "../src/services/ts-worker.ts";
import { apiJson, LONG_JOBS, type UsersInput, type UsersOutput } from "./shared.ts";
import { countPglite, countPool, type StatementCounter } from "./statements.ts";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const USERS = Number(process.env.SOAK_USERS ?? 50);
// A person reads what they asked for before the next click; SOAK_THINK_MS=0 makes every user fire
// again the instant an answer arrives (50 connections flat out: a stress test, not 50 people).
const THINK_MS = Number(process.env.SOAK_THINK_MS ?? 1000);
// QuickBooks is another machine in a deployment: its emulator runs on a thread of its own over
// loopback HTTP, so the soak measures our server, not Intuit's stand-in. SOAK_QBO=embedded puts it
// back in the server's process, as `npm start` runs it.
const QBO = process.env.SOAK_QBO === "embedded" ? "embedded" : "thread";

// SOAK_STATEMENTS=1 counts the server's statements (statements.ts) and prints the dearest.
let statements: StatementCounter | null = null;
let database: Database | undefined;
if (process.env.SOAK_STATEMENTS === "1") {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    statements = countPool(pool);
    database = fromPool(pool);
  } else {
    const client = await PGlite.create();
    statements = countPglite(client);
    database = fromPglite(client);
  }
}
const group = await demoGroup({ rates: { from: "2023-12", to: "2026-10" }, database, qbo: QBO });
const { base, realms } = group;
const [, uk, canada] = realms as [string, string, string];

const json = apiJson(base);

// Each user has a session of their own (logins in turn, as people arrive in the morning).
const tokens: string[] = [];
for (let i = 0; i < USERS; i++) {
  const res = await fetch(`${base}/api/session/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: group.email, password: group.password }) });
  tokens.push(((await res.json()) as { token: string }).token);
}
// Opening balances, so runs can preview and post.
const t0 = tokens[0]!;
await json("POST", "/api/obal", t0, { year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 });
for (const realmId of realms.slice(1)) {
  await json("POST", "/api/obal/review", t0, { realmId });
  await json("POST", "/api/obal/confirm", t0, { realmId });
  await json("POST", `/api/balances/post/${realmId}`, t0);
}
const ukAccounts = JSON.parse((await json("GET", `/api/companies/${uk}/accounts`, t0)).text) as { Id: string; everHadBalance: boolean }[];
const ukMap = JSON.parse((await json("GET", `/api/companies/${uk}/map`, t0)).text) as { map: Record<string, string> };
const toggled = ukAccounts.find((a) => ukMap.map[a.Id])!;

const memory: { s: number; rssMb: number; heapMb: number }[] = [];
const started = performance.now();
statements?.reset();
// The server thread's own CPU and its wait for a core over the users' minutes: per request, the
// figure that holds up when other work loads the machine (latency does not).
const cpu0 = mainThreadCpuMs();
const queued0 = runQueueMs();
const load0 = loadAverage();
const sampler = setInterval(() => {
  global.gc?.();
  const m = process.memoryUsage();
  memory.push({ s: Math.round((performance.now() - started) / 1000), rssMb: Math.round(m.rss / 2 ** 20), heapMb: Math.round(m.heapUsed / 2 ** 20) });
}, 5000);

// The users run in a worker thread: the server keeps this thread to itself.
const usersInput: UsersInput = { base, tokens, seconds: SECONDS, thinkMs: THINK_MS, realms, uk, canada, toggled: { id: toggled.Id, mappedTo: ukMap.map[toggled.Id]! } };
const out = await new Promise<UsersOutput>((resolve, reject) => {
  const worker = tsWorker(new URL("./users.ts", import.meta.url), { workerData: usersInput });
  worker.once("message", resolve);
  worker.once("error", reject);
  worker.once("exit", (code) => code !== 0 && reject(new Error(`the users' thread exited with ${code}`)));
});
const serverCpuMs = mainThreadCpuMs() - cpu0;
const queuedMs = runQueueMs() - queued0;
const latencies = new Map(out.latencies);
const { failures, serverErrors } = out;
clearInterval(sampler);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!) : 0;
};
const all = [...latencies.values()].flat();
console.log(
  `soak: ${USERS} users, think time ${THINK_MS ? `0–${2 * THINK_MS} ms (mean ${THINK_MS})` : "none (a stress test)"}, ${SECONDS} s, ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}, QuickBooks emulator ${QBO === "thread" ? "on its own thread over loopback HTTP" : "embedded in the server's process"}, ${all.length} requests (${Math.round(all.length / SECONDS)}/s), errors ${failures.length}, 5xx ${serverErrors}`,
);
console.log(
  `server thread: ${Math.round(serverCpuMs)} ms of CPU (${((100 * serverCpuMs) / (SECONDS * 1000)).toFixed(0)}% of a core), ${(serverCpuMs / Math.max(1, all.length)).toFixed(1)} ms a request; waited ${Math.round(queuedMs)} ms for a core; load average ${load0} → ${loadAverage()}`,
);
console.log("| action | requests | p50 ms | p99 ms | target p99 ≤ 500 ms |\n|---|---|---|---|---|");
const verdict = (name: string, xs: number[]) => (LONG_JOBS.has(name) ? "long job (QuickBooks round trips)" : pct(xs, 99) <= 500 ? "met" : "NOT met");
for (const [name, xs] of latencies) console.log(`| ${name} | ${xs.length} | ${pct(xs, 50)} | ${pct(xs, 99)} | ${verdict(name, xs)} |`);
console.log(`| all | ${all.length} | ${pct(all, 50)} | ${pct(all, 99)} | |`);
// Growth: heap after warm-up (the first fifth) against the last fifth.
const fifth = Math.max(1, Math.floor(memory.length / 5));
const avg = (xs: typeof memory) => xs.reduce((s, m) => s + m.heapMb, 0) / Math.max(1, xs.length);
const early = avg(memory.slice(fifth, 2 * fifth));
const late = avg(memory.slice(-fifth));
const growth = early ? (late - early) / early : 0;
console.log(
  `memory: rss ${memory[0]?.rssMb ?? "?"} → ${memory.at(-1)?.rssMb ?? "?"} MB (max ${Math.max(...memory.map((m) => m.rssMb))}), heap after warm-up ${Math.round(early)} → ${Math.round(late)} MB (${(growth * 100).toFixed(1)}%)`,
);
for (const f of failures.slice(0, 10)) console.log(`  failure: ${f}`);
if (statements) console.log(statements.table(SECONDS));
await group.close();
await database?.close();
if (failures.length > 0 || serverErrors > 0 || growth > 0.25) process.exit(1);
