// `npm run bench -- login-paint` (issue 22): the first paint of /login with a cold cache. The real
// server (the production build it serves, compressed as it sends it) on a fresh embedded
// database; each run a new browser context, so nothing is cached; the figure is the median
// first-contentful-paint of the runs, with the time until the login form is on screen beside it.
// The floor, measured in the same run and browser: the same login card on the same stack with
// none of the app (bench/login-floor.tsx), built and served gzipped from a bare static server.
// Target: first paint ≤ 1 s.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { chromium, type Browser } from "playwright-core";
import { build as viteBuild } from "vite";
import { buildIfNeeded, startServer } from "../e2e/global-setup.ts";

const TARGET_MS = 1000;
const RUNS = 7;
const web = fileURLToPath(new URL("..", import.meta.url));

interface Paint {
  fcp: number;
  ready: number;
}

/** One cold visit: a new context (empty cache), the page loaded until `ready` is on screen. */
async function coldVisit(browser: Browser, url: string, ready: string): Promise<Paint> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "commit" });
    await page.locator(ready).first().waitFor({ state: "visible", timeout: 30_000 });
    // Sent as text: tsx names the functions it compiles (`__name`), which the page does not have.
    // The paint entry may be recorded a frame after the paint: asked of a buffered observer.
    return (await page.evaluate(`new Promise((resolve) => {
      const ready = performance.now();
      new PerformanceObserver((list, observer) => {
        const fcp = list.getEntriesByName("first-contentful-paint")[0];
        if (fcp) { observer.disconnect(); resolve({ fcp: fcp.startTime, ready }); }
      }).observe({ type: "paint", buffered: true });
      setTimeout(() => resolve({ fcp: NaN, ready }), 5000);
    })`)) as Paint;
  } finally {
    await context.close();
  }
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const text = (runs: readonly Paint[]) => `first paint ${median(runs.map((r) => r.fcp)).toFixed(0)} ms, form on screen ${median(runs.map((r) => r.ready)).toFixed(0)} ms`;

buildIfNeeded();
const floorDist = mkdtempSync(join(tmpdir(), "gl-login-floor-"));
await viteBuild({ configFile: false, root: web, mode: "production", logLevel: "warn", plugins: [react()], build: { outDir: floorDist, emptyOutDir: true, rolldownOptions: { input: join(web, "bench/login-floor.html") } } });
const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };
const floorServer = createServer((req, res) => {
  const path = normalize(decodeURIComponent((req.url ?? "/").split("?")[0] ?? "/")).replace(/^(\.\.[/\\])+/, "");
  const file = join(floorDist, path === "/" ? "bench/login-floor.html" : path);
  try {
    const body = gzipSync(readFileSync(file));
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream", "content-encoding": "gzip" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise<void>((resolve) => floorServer.listen(0, "127.0.0.1", resolve));
const floorAddress = floorServer.address();
const floorUrl = `http://127.0.0.1:${typeof floorAddress === "object" && floorAddress ? floorAddress.port : 0}/`;

const server = await startServer();
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failed = false;
try {
  const app: Paint[] = [];
  const floor: Paint[] = [];
  // Alternating, so the machine's load falls on both; the first of each warms the browser itself.
  for (let run = 0; run <= RUNS; run++) {
    const a = await coldVisit(browser, `${server.url}/login`, 'button:has-text("Log in")');
    const f = await coldVisit(browser, floorUrl, "button");
    if (run > 0) {
      app.push(a);
      floor.push(f);
    }
  }
  const fcp = median(app.map((r) => r.fcp));
  const floorFcp = median(floor.map((r) => r.fcp));
  console.log(`/login, cold cache, ${RUNS} runs (median): ${text(app)} (target: first paint ≤ ${TARGET_MS} ms)`);
  console.log(`floor, the login card on React + Mantine with no app code: ${text(floor)}`);
  console.log(`ratio: first paint ${(fcp / floorFcp).toFixed(2)}× the floor's`);
  if (!(fcp <= TARGET_MS)) {
    console.error(`FAIL: /login first paints after ${fcp.toFixed(0)} ms, more than ${TARGET_MS} ms`);
    failed = true;
  } else console.log("OK");
} finally {
  await browser.close();
  await server.stop();
  floorServer.close();
  rmSync(floorDist, { recursive: true, force: true });
}
if (failed) process.exit(1);
