import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread running a TypeScript module (the server runs on tsx, never compiled). On Node 20
 * a worker does not inherit tsx's loader, so it registers it, then loads the module.
 */
export function tsWorker(module: URL, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  const boot = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
