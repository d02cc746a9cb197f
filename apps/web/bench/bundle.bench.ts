// `npm run bench -- bundle`: builds the web app and prints the gzip size of the JavaScript the
// /login route loads (the entry chunk, everything it imports, and the login screen's lazy chunk
// with its imports). Fails above 250 KB gzip (ARCHITECTURE.md performance targets).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const LIMIT_BYTES = 250 * 1024;
const web = fileURLToPath(new URL("..", import.meta.url));
const dist = join(web, "dist");
/** The lazily loaded module of the /login route (see src/app/routes.tsx). */
const LOGIN_MODULE = "src/features/session/components/LoginPage.tsx";

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const started = performance.now();
const build = spawnSync(process.execPath, [join(web, "../../node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
  cwd: web,
  stdio: "inherit",
});
if (build.status !== 0) {
  console.error("vite build failed");
  process.exit(1);
}
const buildMs = performance.now() - started;

const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8")) as Record<string, ManifestChunk>;
const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entryKey) throw new Error("no entry chunk in the Vite manifest");
if (!manifest[LOGIN_MODULE]) {
  console.error(`${LOGIN_MODULE} is not a chunk of its own any more: the login route is no longer lazily loaded`);
  process.exit(1);
}

/** The chunk and everything it imports statically: what the browser fetches before it runs. */
function closure(key: string, into: Set<string>): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`manifest has no chunk ${key}`);
  into.add(key);
  for (const dep of chunk.imports ?? []) closure(dep, into);
  return into;
}

const keys = closure(LOGIN_MODULE, closure(entryKey, new Set()));
const files = [...new Set([...keys].map((k) => manifest[k]!.file))].filter((f) => f.endsWith(".js"));
const sizes = files.map((file) => {
  const bytes = readFileSync(join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
sizes.sort((a, b) => b.gzip - a.gzip);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
for (const s of sizes) console.log(`  ${s.file.padEnd(48)} ${kb(s.raw).padStart(10)} raw ${kb(s.gzip).padStart(10)} gzip`);
const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
const raw = sizes.reduce((sum, s) => sum + s.raw, 0);
console.log(`/login route JS: ${files.length} files, ${kb(raw)} raw, ${kb(total)} gzip (limit ${kb(LIMIT_BYTES)}); build ${(buildMs / 1000).toFixed(1)} s`);
if (total > LIMIT_BYTES) {
  console.error(`FAIL: the /login route loads ${kb(total)} gzip of JavaScript, more than ${kb(LIMIT_BYTES)}`);
  process.exit(1);
}
console.log("OK");
