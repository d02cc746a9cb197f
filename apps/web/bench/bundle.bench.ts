// `npm run bench -- bundle`: builds the web app (into a temporary folder, so a server running on
// dist keeps its files) and prints what the /login route downloads: the JavaScript of the entry
// chunk, everything it imports, and the login screen's lazy chunk with its imports, followed
// through the Vite manifest; then its stylesheets. The JavaScript figure is gzip at level 9, the
// level of the .gz copies the server sends (brotli, which browsers prefer, is printed beside it).
// The floor, built in the same run, is the same login card on the same stack with none of the app
// (bench/login-floor.tsx). Fails above the target: 120 KB gzip (the team's performance targets).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { build as viteBuild } from "vite";

const TARGET_BYTES = 120 * 1024;
const web = fileURLToPath(new URL("..", import.meta.url));
/** What the entry loads for a first visit to /login (src/app/start.ts `firstScreen`, src/main.tsx). */
const LOGIN_MODULE = "src/app/shell.tsx";

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const dist = mkdtempSync(join(tmpdir(), "gl-bundle-bench-"));
const floorDist = mkdtempSync(join(tmpdir(), "gl-bundle-floor-"));
try {
  const started = performance.now();
  const build = spawnSync(
    process.execPath,
    [join(web, "../../node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn", "--outDir", dist, "--emptyOutDir"],
    { cwd: web, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } },
  );
  if (build.status !== 0) throw new Error("vite build failed");
  const buildMs = performance.now() - started;
  await viteBuild({
    configFile: false,
    root: web,
    mode: "production",
    logLevel: "warn",
    plugins: [react()],
    build: { outDir: floorDist, emptyOutDir: true, manifest: true, rolldownOptions: { input: join(web, "bench/login-floor.html") } },
  });

  const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) throw new Error("no entry chunk in the Vite manifest");
  if (!manifest[LOGIN_MODULE]) {
    throw new Error(`${LOGIN_MODULE} is not a chunk of its own any more: the entry no longer loads the login shell on its own`);
  }

  /** The chunk and everything it imports statically: what the browser fetches before it runs. */
  const closure = (key: string, into: Set<string>): Set<string> => {
    if (into.has(key)) return into;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    into.add(key);
    for (const dep of chunk.imports ?? []) closure(dep, into);
    return into;
  };
  const chunks = [...closure(LOGIN_MODULE, closure(entryKey, new Set()))].map((k) => manifest[k]!);
  const measure = (file: string, root = dist) => {
    const bytes = readFileSync(join(root, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, br: brotliCompressSync(bytes).length };
  };
  const js = [...new Set(chunks.map((c) => c.file))].map((f) => measure(f)).sort((a, b) => b.gzip - a.gzip);
  const css = [...new Set(chunks.flatMap((c) => c.css ?? []))].map((f) => measure(f));
  const floorManifest = JSON.parse(readFileSync(join(floorDist, ".vite/manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const floorJs = [...new Set(Object.values(floorManifest).map((c) => c.file))].filter((f) => f.endsWith(".js")).map((f) => measure(f, floorDist));
  const sum = (rows: { raw: number; gzip: number; br: number }[]) =>
    rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, br: t.br + r.br }), { raw: 0, gzip: 0, br: 0 });

  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const row = (r: { file: string; raw: number; gzip: number; br: number }) =>
    console.log(`  ${r.file.padEnd(44)} ${kb(r.raw).padStart(9)} raw ${kb(r.gzip).padStart(9)} gzip ${kb(r.br).padStart(9)} br`);
  js.forEach(row);
  const total = sum(js);
  const styles = sum(css);
  const floor = sum(floorJs);
  console.log(`/login route CSS: ${css.length} files, ${kb(styles.raw)} raw, ${kb(styles.gzip)} gzip, ${kb(styles.br)} br`);
  css.forEach(row);
  console.log(
    `/login route JS: ${js.length} files, ${kb(total.raw)} raw, ${kb(total.gzip)} gzip (target ${kb(TARGET_BYTES)}, ` +
      `${(total.gzip / TARGET_BYTES).toFixed(2)} of it), ${kb(total.br)} br; build ${(buildMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `floor (React + Mantine drawing the login card, no app code): ${kb(floor.gzip)} gzip; ` +
      `the route is ${(total.gzip / floor.gzip).toFixed(2)}x the floor, the target ${(TARGET_BYTES / floor.gzip).toFixed(2)}x`,
  );
  if (total.gzip > TARGET_BYTES) {
    console.error(`FAIL: the /login route loads ${kb(total.gzip)} gzip of JavaScript, more than its target of ${kb(TARGET_BYTES)}`);
    process.exitCode = 1;
  } else {
    console.log("OK");
  }
} finally {
  rmSync(dist, { recursive: true, force: true });
  rmSync(floorDist, { recursive: true, force: true });
}
