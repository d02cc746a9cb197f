// `npm test`: the checks (scripts/checks.mjs: eslint and every typecheck) and every workspace's
// tests (vitest) side by side, not one after the other. The test run leaves part of CI's 2 cores
// idle (3,037 tests on four workers used 1.6 cores over 11 minutes: it waits on PostgreSQL, the
// e2e servers and Chromium), which the checks (about 90 s of CPU) fill. Each prints as it goes
// (a check's output whole when it ends); the exit code is non-zero when either fails, and both
// always run to the end so one failure does not hide the other's.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

function run(name, cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: process.env, stdio: "inherit" });
    child.on("error", (err) => {
      console.error(`${name}: ${err.message}`);
      resolve(false);
    });
    child.on("close", (code) => resolve(code === 0 ? true : (console.error(`${name} failed (exit ${code})`), false)));
  });
}

const [checks, tests] = await Promise.all([
  run("checks", process.execPath, [join(root, "scripts/checks.mjs")]),
  run("tests", join(root, "node_modules", ".bin", "vitest"), ["run", ...process.argv.slice(2)]),
]);
if (!checks || !tests) process.exit(1);
