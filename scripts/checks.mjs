// `npm run checks` (the first half of `npm test`): eslint over the tree and every workspace's
// typecheck, run side by side (as many at once as the machine has cores) instead of one after
// another. Each one's output is printed whole when it ends, so nothing interleaves; the exit code
// is non-zero when any of them fails.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { optionsKey, readTsconfig } from "./typecheck-together.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (name) => join(root, "node_modules", ".bin", name);

// eslint in two halves, the web app and the rest, so that the four jobs share two lanes evenly
// (CPU: typecheck of the node workspaces ~38 s, of web ~31 s, lint ~31 s in all; whole, lint would
// follow one of the typechecks and end ~10 s after the other lane).
const LINT_APART = "apps/web";
const jobs = [
  { name: "lint", cmd: bin("eslint"), args: [".", "--ignore-pattern", `${LINT_APART}/**`, "--max-warnings", "0"], cwd: root, weight: 0.5 },
  { name: `lint ${LINT_APART}`, cmd: bin("eslint"), args: [LINT_APART, "--max-warnings", "0"], cwd: root, weight: 0.4 },
];
// Each workspace declares `tsc -p tsconfig.json --noEmit`. Those with the same compiler options are
// checked as one program (scripts/typecheck-together.mjs): each alone would check again every
// workspace source it imports (domain six times). The same files under the same options give the
// same errors; a workspace with other options (web: the DOM, JSX) gets a program of its own.
const STANDARD = "tsc -p tsconfig.json --noEmit";
const together = new Map();
for (const group of ["apps", "packages"]) {
  for (const ws of readdirSync(join(root, group))) {
    const dir = join(root, group, ws);
    const pkg = join(dir, "package.json");
    if (!existsSync(pkg)) continue;
    const script = JSON.parse(readFileSync(pkg, "utf8")).scripts?.typecheck;
    if (!script) continue;
    if (script.trim().split(/\s+/).join(" ") !== STANDARD) {
      // Anything else is run exactly as declared, in its folder.
      const [cmd, ...args] = script.split(/\s+/);
      jobs.push({ name: `typecheck ${group}/${ws}`, cmd: bin(cmd), args, cwd: dir });
      continue;
    }
    const key = optionsKey(readTsconfig(dir));
    together.set(key, [...(together.get(key) ?? []), `${group}/${ws}`]);
  }
}
for (const dirs of together.values()) {
  jobs.push({ name: `typecheck ${dirs.join(" ")}`, cmd: process.execPath, args: [join(root, "scripts/typecheck-together.mjs"), ...dirs], cwd: root, weight: dirs.length });
}
// The longest first (typechecks, the one of most workspaces first; then lint), so the last one to
// start is a short one.
const weight = (j) => j.weight ?? 1;
jobs.sort((a, b) => weight(b) - weight(a));

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
