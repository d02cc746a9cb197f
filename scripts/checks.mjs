// `npm run checks` (the first half of `npm test`): eslint over the tree and every workspace's
// typecheck, run side by side (as many at once as the machine has cores) instead of one after
// another. Each one's output is printed whole when it ends, so nothing interleaves; the exit code
// is non-zero when any of them fails.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (name) => join(root, "node_modules", ".bin", name);

const jobs = [{ name: "lint", cmd: bin("eslint"), args: [".", "--max-warnings", "0"], cwd: root }];
for (const group of ["apps", "packages"]) {
  for (const ws of readdirSync(join(root, group))) {
    const dir = join(root, group, ws);
    const pkg = join(dir, "package.json");
    if (!existsSync(pkg)) continue;
    const script = JSON.parse(readFileSync(pkg, "utf8")).scripts?.typecheck;
    if (!script) continue;
    // Each workspace declares `tsc -p tsconfig.json --noEmit`; run exactly that, in its folder.
    const [cmd, ...args] = script.split(/\s+/);
    jobs.push({ name: `typecheck ${group}/${ws}`, cmd: bin(cmd), args, cwd: dir });
  }
}
// The slowest first, so the last one to start is a short one.
const weight = (j) => (j.name.includes("apps/") ? 0 : 1);
jobs.sort((a, b) => weight(a) - weight(b));

function run(job) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(job.cmd, job.args, { cwd: job.cwd, env: process.env });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", (err) => (out += String(err)));
    child.on("close", (code) => {
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`${code === 0 ? "ok  " : "FAIL"} ${job.name} (${secs} s)`);
      if (out.trim()) console.log(out.trimEnd());
      resolve(code === 0);
    });
  });
}

const queue = [...jobs];
const results = [];
const lanes = Array.from({ length: Math.min(availableParallelism(), jobs.length) }, async () => {
  while (queue.length) results.push(await run(queue.shift()));
});
await Promise.all(lanes);
const failed = results.filter((ok) => !ok).length;
if (failed) {
  console.error(`${failed} of ${jobs.length} checks failed`);
  process.exit(1);
}
