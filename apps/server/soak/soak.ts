// `npm run soak` (issue 11): 50 concurrent users working on the demo group over loopback for
// SOAK_SECONDS (default 600): consolidated reports for varying periods, the mapping screen's
// reads and a map change back and forth, FX rates, run previews, postings (duplicates after the
// first) and Verify. Prints request count, p50/p99 latency per action, errors, and the server's
// memory over time; fails on any error or 5xx, or when memory keeps growing after warm-up.
import { demoGroup } from "../bench/demo-group.ts";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const USERS = Number(process.env.SOAK_USERS ?? 50);

const group = await demoGroup({ rates: { from: "2023-12", to: "2026-10" } });
const { base, realms } = group;
const [, uk, canada] = realms as [string, string, string];

const json = async (method: string, path: string, token: string, body?: unknown) => {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text };
};

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

const months = ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06"];
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
type Action = { name: string; run: (token: string) => Promise<{ status: number; text: string }> };
const actions: Action[] = [
  { name: "report", run: (t) => json("GET", `/api/consolidation/report?from=2026-01&to=${pick(months)}&compare=${pick(["none", "prior_year"])}`, t) },
  { name: "report (month)", run: (t) => json("GET", `/api/consolidation/report?from=${pick(months)}&to=2026-06`, t) },
  { name: "mapping read", run: (t) => json("GET", `/api/companies/${pick([uk, canada])}/map`, t) },
  { name: "mapping change", run: (t) => (Math.random() < 0.5 ? json("POST", `/api/companies/${uk}/unmap`, t, { accountIds: [toggled.Id] }) : json("POST", `/api/companies/${uk}/map`, t, { map: { [toggled.Id]: ukMap.map[toggled.Id] } })) },
  { name: "fx rates", run: (t) => json("GET", "/api/fxrates?from=2025-07&to=2026-06", t) },
  { name: "run preview", run: (t) => json("POST", "/api/consolidation/preview", t, { realmId: pick(realms.slice(1)), period: { kind: "month", year: 2026, month: 1 + Math.floor(Math.random() * 6) } }) },
  { name: "run post", run: (t) => json("POST", "/api/consolidation/post", t, { realmId: pick(realms.slice(1)), period: { kind: "month", year: 2026, month: 1 } }) },
  { name: "companies", run: (t) => json("GET", "/api/companies/status", t) },
  { name: "verify", run: (t) => json("GET", "/api/consolidation/verify?year=2026&month=1", t) },
];
// A user mostly reads reports; the rest is spread over the other screens.
const weights = new Map([["report", 4], ["report (month)", 2], ["mapping read", 2], ["mapping change", 1], ["fx rates", 2], ["run preview", 2], ["run post", 1], ["companies", 2], ["verify", 1]]);
const deck = actions.flatMap((a) => Array<Action>(weights.get(a.name) ?? 1).fill(a));

const latencies = new Map<string, number[]>(actions.map((a) => [a.name, []]));
const failures: string[] = [];
let serverErrors = 0;
const memory: { s: number; rssMb: number; heapMb: number }[] = [];
const started = performance.now();
const until = started + SECONDS * 1000;
const sampler = setInterval(() => {
  global.gc?.();
  const m = process.memoryUsage();
  memory.push({ s: Math.round((performance.now() - started) / 1000), rssMb: Math.round(m.rss / 2 ** 20), heapMb: Math.round(m.heapUsed / 2 ** 20) });
}, 5000);

// Unmapping the toggled account makes previews, posts and reports answer 409 (by design) for a
// moment; those are expected answers, not errors.
const expected = (name: string, status: number) => status < 400 || (status === 409 && ["report", "report (month)", "run preview", "run post", "verify"].includes(name));
await Promise.all(
  tokens.map(async (token) => {
    while (performance.now() < until) {
      const action = pick(deck);
      const t = performance.now();
      try {
        const { status, text } = await action.run(token);
        latencies.get(action.name)!.push(performance.now() - t);
        if (status >= 500) serverErrors++;
        if (!expected(action.name, status)) failures.push(`${action.name}: ${status} ${text.slice(0, 200)}`);
      } catch (e) {
        failures.push(`${action.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }),
);
clearInterval(sampler);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!) : 0;
};
const all = [...latencies.values()].flat();
console.log(`soak: ${USERS} users, ${SECONDS} s, ${all.length} requests (${Math.round(all.length / SECONDS)}/s), errors ${failures.length}, 5xx ${serverErrors}`);
console.log("| action | requests | p50 ms | p99 ms |\n|---|---|---|---|");
for (const [name, xs] of latencies) console.log(`| ${name} | ${xs.length} | ${pct(xs, 50)} | ${pct(xs, 99)} |`);
console.log(`| all | ${all.length} | ${pct(all, 50)} | ${pct(all, 99)} |`);
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
await group.close();
if (failures.length > 0 || serverErrors > 0 || growth > 0.25) process.exit(1);
