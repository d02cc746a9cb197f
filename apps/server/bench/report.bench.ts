// Issue 22: a warm consolidated report of the whole demo group (five companies, four currencies,
// twelve months with a prior-year comparison) under 50 concurrent connections over a real socket,
// on PGlite and on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server. Target:
// p99 ≤ 50 ms, no errors. Its floor, measured in alternating slices of the same run: a bare
// Fastify route sending the same report text, with no session, no lookup and no hooks: what
// sending the bytes costs on this machine.
import Fastify from "fastify";
import { benchDatabase, benchDrivers, type BenchDriver } from "./databases.ts";
import { demoGroup } from "./demo-group.ts";
import { loadAverage } from "./machine.ts";
import { CONNECTIONS, cpuPerRequestUs, inTurns, listening, perSecond, worstP50, worstP99, type Tally } from "./slices.ts";

const TARGET_P99_MS = 50;
const SLICE_S = 5;
const ROUNDS = 2;
/** What Chrome sends. */
const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";

async function onDriver(driver: BenchDriver): Promise<boolean> {
  const db = await benchDatabase(driver);
  const group = await demoGroup({ rates: { from: "2023-12", to: "2025-12" }, database: db.database });
  const { app, base, token, realms } = group;
  const url = "/api/consolidation/report?from=2025-01&to=2025-12&compare=prior_year";
  const coldStart = performance.now();
  const cold = await app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
  const coldMs = performance.now() - coldStart;
  if (cold.statusCode !== 200 || !cold.json().ok) throw new Error(`the report does not compute: ${cold.body.slice(0, 500)}`);
  const body = cold.body;
  const rows = cold.json().report.worksheet.rows.length as number;

  const bare = Fastify();
  bare.get("/floor", (_req, reply) => reply.type("application/json; charset=utf-8").send(body));
  // Besides the bench's own figure (no Accept-Encoding, like the floor), the report as a browser
  // asks for it: a browser always accepts compression, and the answer is then the compressed bytes.
  const [floor, warm, browser] = (await inTurns(ROUNDS, SLICE_S, [
    { url: `${await listening(bare)}/floor` },
    { url: base + url, token },
    { url: base + url, token, headers: { "accept-encoding": BROWSER_ENCODINGS } },
  ])) as [Tally, Tally, Tally];
  await bare.close();
  await group.close();
  await db.close();

  const p99 = worstP99(warm);
  const pass = p99 <= TARGET_P99_MS && warm.bad === 0 && browser.bad === 0;
  const rate = (t: Tally) => Math.round(perSecond(t));
  console.log(
    `${driver}: consolidated report (${realms.length} companies, 12 months + prior year, ${rows} worksheet rows, ${Math.round(body.length / 1024)} KB), cold ${Math.round(coldMs)} ms; ` +
      `${CONNECTIONS} connections, ${ROUNDS} alternating slices of ${SLICE_S} s (load average ${loadAverage()}):\n` +
      `  warm report: ${rate(warm)} req/s, p50 ${worstP50(warm)} ms, p99 ${p99} ms (worst slice; target ≤ ${TARGET_P99_MS}), errors and non-2xx ${warm.bad}, server thread CPU ${cpuPerRequestUs(warm)} µs/request\n` +
      `  as a browser asks (Accept-Encoding: ${BROWSER_ENCODINGS}): ${rate(browser)} req/s, p50 ${worstP50(browser)} ms, p99 ${worstP99(browser)} ms, errors and non-2xx ${browser.bad}, server thread CPU ${cpuPerRequestUs(browser)} µs/request\n` +
      `  floor, the same text from a bare Fastify route: ${rate(floor)} req/s, p50 ${worstP50(floor)} ms, p99 ${worstP99(floor)} ms, server thread CPU ${cpuPerRequestUs(floor)} µs/request\n` +
      `  ratio: ${(rate(warm) / rate(floor)).toFixed(2)} of the floor's throughput, p99 ${(p99 / Math.max(1, worstP99(floor))).toFixed(1)}× the floor's: ${pass ? "PASS" : "FAIL"}`,
  );
  return pass;
}

let ok = true;
for (const driver of benchDrivers()) ok = (await onDriver(driver)) && ok;
if (!ok) process.exit(1);
