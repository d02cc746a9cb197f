// `npm run bench`: runs every workspace's bench/*.bench.ts in its own process, one after another,
// so one benchmark's memory and warm caches do not colour the next.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const only = process.argv[2];
const files = ["apps", "packages"].flatMap((group) =>
  readdirSync(join(root, group)).flatMap((ws) => {
    const dir = join(root, group, ws, "bench");
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".bench.ts")).map((f) => join(dir, f)) : [];
  }),
).filter((f) => !only || f.slice(root.length).includes(only)); // the path inside the repo: a checkout's own directory name never selects

let failed = 0;
for (const file of files) {
  console.log(`\n== ${file.slice(root.length)}`);
  const run = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) failed++;
}
if (failed) {
  console.error(`\n${failed} benchmark(s) failed`);
  process.exit(1);
}
