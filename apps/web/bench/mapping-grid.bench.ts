// `npm run bench -- mapping-grid`: builds the COA Mapping screen's bench page (production mode, the
// API answered in the page with 5,000 generated subsidiary accounts, see
// src/features/mapping/bench/benchEntry.tsx), opens it in headless Chromium and prints the time
// from mount to the painted grid and the number of grid rows in the DOM, also after scrolling to
// the end. Fails when the render takes more than 500 ms or more than 200 rows are in the DOM.
import { createReadStream, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { chromium } from "playwright-core";
import { build } from "vite";

const RENDER_LIMIT_MS = 500;
const ROW_LIMIT = 200;
const ACCOUNTS = Number(process.env["BENCH_ACCOUNTS"] ?? 5000);
const RUNS = 5;

const web = fileURLToPath(new URL("..", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "mapping-bench-"));
const htmlName = "mapping-bench.html";
// Vite builds an HTML entry from the project root; the page exists only for the bench and is removed after.
const html = join(web, htmlName);
writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body><div id="root"></div><script type="module" src="/src/features/mapping/bench/benchEntry.tsx"></script></body></html>`);
try {
  await build({
    configFile: false,
    root: web,
    mode: "production",
    logLevel: "warn",
    plugins: [react()],
    build: { outDir: out, emptyOutDir: true, rollupOptions: { input: html } },
  });
} finally {
  rmSync(html, { force: true });
}

const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent((req.url ?? "/").split("?")[0] ?? "/")).replace(/^(\.\.[/\\])+/, "");
  const file = join(out, path === "/" ? htmlName : path);
  if (!file.startsWith(out) || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
  createReadStream(file).pipe(res);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
const port = typeof address === "object" && address ? address.port : 0;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failed = false;
try {
  const results: { renderMs: number; lastRequestMs: number; domRows: number; scrolledRows: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/${htmlName}?n=${ACCOUNTS}`);
    await page.waitForFunction(() => window.__mappingBench !== undefined, null, { timeout: 30_000 });
    const result = await page.evaluate(() => window.__mappingBench);
    if (!result || "error" in result) throw new Error(`bench page: ${result ? result.error : "no result"}`);
    if (!result.shownText.startsWith(ACCOUNTS.toLocaleString("en-US"))) throw new Error(`the grid shows "${result.shownText}", not ${ACCOUNTS} accounts`);
    // Scrolled to the end, the grid must still hold only the rows on screen.
    await page.evaluate(() => {
      const box = document.querySelector('[data-testid="mapping-grid-scroll"]');
      if (box) box.scrollTop = box.scrollHeight;
    });
    await page.waitForFunction((last) => document.querySelector(`[data-row-id="${last}"]`) !== null, `s${ACCOUNTS - 1}`, { timeout: 5000 });
    const scrolledRows = await page.evaluate(() => document.querySelectorAll("[data-row-id]").length);
    results.push({ renderMs: result.renderMs, lastRequestMs: result.lastRequestMs, domRows: result.domRows, scrolledRows });
    await page.close();
  }
  // The first run pays for a cold browser cache and JIT; the median of the rest is the figure.
  const warm = results.slice(1).map((r) => r.renderMs).sort((a, b) => a - b);
  const median = warm[Math.floor(warm.length / 2)] ?? results[0]!.renderMs;
  const maxRows = Math.max(...results.flatMap((r) => [r.domRows, r.scrolledRows]));
  for (const [i, r] of results.entries()) {
    console.log(`  run ${i + 1}: render ${r.renderMs.toFixed(0)} ms (last request sent at ${r.lastRequestMs.toFixed(0)} ms), ${r.domRows} DOM rows, ${r.scrolledRows} after scrolling to the end`);
  }
  console.log(`mapping grid, ${ACCOUNTS} accounts: render ${median.toFixed(0)} ms (median of warm runs, limit ${RENDER_LIMIT_MS}), max ${maxRows} DOM rows (limit ${ROW_LIMIT})`);
  if (median > RENDER_LIMIT_MS) {
    console.error(`FAIL: the grid took ${median.toFixed(0)} ms to render, more than ${RENDER_LIMIT_MS} ms`);
    failed = true;
  }
  if (maxRows > ROW_LIMIT) {
    console.error(`FAIL: ${maxRows} grid rows in the DOM, more than ${ROW_LIMIT}`);
    failed = true;
  }
} finally {
  await browser.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.log("OK");
