import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { bundleServer } from "./server-bundle.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The server bundled for this run (server-bundle.ts), which `ownServer`'s servers run. */
    serverBundle: string;
    pgliteTemplate: string;
  }
}

const web = fileURLToPath(new URL("..", import.meta.url));
const root = join(web, "../..");

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Build the web app when dist is missing or older than any source it is built from (also the login paint bench). */
export function buildIfNeeded(): void {
  const index = join(web, "dist/index.html");
  const sources = ["src", "index.html", "vite.config.ts"].map((p) => join(web, p));
  sources.push(join(root, "packages/contract/src"), join(root, "packages/domain/src"));
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  // Built aside, then copied over dist without deleting anything: another test run's server may be
  // serving dist to a browser right now, which still asks for the previous build's hashed chunks.
  const aside = mkdtempSync(join(tmpdir(), "gl-web-dist-"));
  try {
    const build = spawnSync(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn", "--outDir", aside, "--emptyOutDir"], {
      cwd: web,
      stdio: "inherit",
      // vitest runs with NODE_ENV=test, which would make Vite bundle React's development build:
      // the browser tests must run what users get.
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (build.status !== 0) throw new Error("vite build failed");
    cpSync(aside, join(web, "dist"), { recursive: true });
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode} before it was healthy`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the server did not become healthy at ${url} within ${timeoutMs} ms`);
}

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * An embedded database, migrated, in a folder of its own (apps/server/test/pglite-template.ts, in
 * its own process, so it runs beside the web build). Each e2e server starts from a copy: PGlite's
 * initdb and the migrations cost ~5 s of CPU, once instead of once per server (CI time).
 */
function migratedDatabase(): { dir: string; ready: Promise<void>; discard(): void } {
  const dir = mkdtempSync(join(tmpdir(), "gl-e2e-template-"));
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "apps/server/test/pglite-template.ts"), join(dir, "pglite")], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`migrating the e2e database template failed (exit ${code})`))));
  });
  return {
    dir,
    ready,
    discard() {
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The real server on a fresh embedded database and its own QuickBooks emulator. A QuickBooks
 * company can be connected to one account only, so a test file that connects the demo parent for
 * its own user needs a server (and emulator) of its own. `template`: a folder of migratedDatabase()
 * to start the database from (a copy of it); without one, the server makes and migrates its own.
 * `bundle`: the server bundled by server-bundle.ts, run by Node itself; without one, the sources
 * run on tsx, as `npm start` runs them.
 */
export async function startServer(template?: string, bundle?: string): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "gl-e2e-"));
  if (template) cpSync(template, dataDir, { recursive: true });
  const port = await freePort();
  const server = spawn(process.execPath, bundle ? [bundle] : ["--import", "tsx", join(root, "apps/server/src/main.ts")], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      // The companies test slows the emulator down through its admin routes.
      QBO_EMULATOR_ADMIN: "true",
      // The journeys were written against syncs that start only when asked; the emulator's webhooks
      // (a sync of the parent after each posting) are covered by the server's test/webhooks.test.ts.
      QBO_EMULATOR_WEBHOOKS: "false",
    },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, server, 60_000);
  } catch (err) {
    server.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once("exit", r));
        server.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (server.exitCode === null) server.kill("SIGKILL");
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  const template = migratedDatabase();
  // Under node_modules, so that the packages it leaves outside resolve as from the sources; one per
  // run, so that another run's teardown never removes it.
  const bundle = join(root, "apps/server/node_modules/.e2e", `server-${process.pid}.mjs`);
  let server: RunningServer;
  try {
    buildIfNeeded();
    await bundleServer(root, bundle);
    await template.ready;
    server = await startServer(template.dir);
  } catch (err) {
    template.discard();
    rmSync(bundle, { force: true });
    throw err;
  }
  project.provide("baseUrl", server.url);
  project.provide("pgliteTemplate", template.dir);
  project.provide("serverBundle", bundle);
  return async () => {
    await server.stop();
    template.discard();
    rmSync(bundle, { force: true });
    rmSync(`${bundle}.map`, { force: true });
  };
}
