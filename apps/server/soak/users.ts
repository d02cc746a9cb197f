// The soak's users (soak.ts), in a worker thread of their own: their requests, JSON parsing and
// timing run beside the server's event loop instead of inside it, as people's browsers would.
import { parentPort, workerData } from "node:worker_threads";
import { apiJson, type UsersInput, type UsersOutput } from "./shared.ts";

const input = workerData as UsersInput;
const { base, uk, canada, realms, toggled } = input;

const json = apiJson(base);

const months = ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06"];
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
type Action = { name: string; run: (token: string) => Promise<{ status: number; text: string }> };
const actions: Action[] = [
  { name: "report", run: (t) => json("GET", `/api/consolidation/report?from=2026-01&to=${pick(months)}&compare=${pick(["none", "prior_year"])}`, t) },
  { name: "report (month)", run: (t) => json("GET", `/api/consolidation/report?from=${pick(months)}&to=2026-06`, t) },
  { name: "mapping read", run: (t) => json("GET", `/api/companies/${pick([uk, canada])}/map`, t) },
  { name: "mapping change", run: (t) => (Math.random() < 0.5 ? json("POST", `/api/companies/${uk}/unmap`, t, { accountIds: [toggled.id] }) : json("POST", `/api/companies/${uk}/map`, t, { map: { [toggled.id]: toggled.mappedTo } })) },
  { name: "fx rates", run: (t) => json("GET", "/api/fxrates?from=2025-07&to=2026-06", t) },
  { name: "run preview", run: (t) => json("POST", "/api/consolidation/preview", t, { realmId: pick(realms.slice(1)), period: { kind: "month", year: 2026, month: 1 + Math.floor(Math.random() * 6) } }) },
  { name: "run post", run: (t) => json("POST", "/api/consolidation/post", t, { realmId: pick(realms.slice(1)), period: { kind: "month", year: 2026, month: 1 } }) },
  { name: "companies", run: (t) => json("GET", "/api/companies/status", t) },
  { name: "verify", run: (t) => json("GET", "/api/consolidation/verify?year=2026&month=1", t) },
];
// A user mostly reads reports; the rest is spread over the other screens.
const weights = new Map([["report", 4], ["report (month)", 2], ["mapping read", 2], ["mapping change", 1], ["fx rates", 2], ["run preview", 2], ["run post", 1], ["companies", 2], ["verify", 1]]);
const deck = actions.flatMap((a) => Array<Action>(weights.get(a.name) ?? 1).fill(a));

// Unmapping the toggled account makes previews, posts and reports answer 409 (by design) for a
// moment; those are expected answers, not errors.
const expected = (name: string, status: number) => status < 400 || (status === 409 && ["report", "report (month)", "run preview", "run post", "verify"].includes(name));

const latencies = new Map<string, number[]>(actions.map((a) => [a.name, []]));
const failures: string[] = [];
let serverErrors = 0;
const until = performance.now() + input.seconds * 1000;
const think = () => (input.thinkMs > 0 ? new Promise((r) => setTimeout(r, Math.random() * 2 * input.thinkMs)) : Promise.resolve());

await Promise.all(
  input.tokens.map(async (token) => {
    // Users arrive spread over the first think time, not all in the same millisecond.
    await think();
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
      await think();
    }
  }),
);
parentPort!.postMessage({ latencies: [...latencies], failures, serverErrors } satisfies UsersOutput);
