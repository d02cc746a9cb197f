import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * tsx's ESM API, found from here through its package's exports map: an eval'd worker would resolve
 * a bare name from the working directory, and the server need not start there.
 */
const tsxApi = (() => {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("tsx/package.json");
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return new URL(exports["./esm/api"]!.import.default, pathToFileURL(manifest)).href;
})();

/**
 * A worker thread running a TypeScript module (the server runs on tsx, never compiled). On Node 20
 * a worker does not inherit tsx's loader, so it registers it, then loads the module.
 */
export function tsWorker(module: URL, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  const boot = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
