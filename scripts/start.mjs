// `npm start`: build the web app if it is missing or older than its sources, then run the server
// (API + web, one port) on embedded PGlite unless DATABASE_URL is set.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const webIndex = join(root, "apps/web/dist/index.html");
const webSources = ["apps/web/src", "apps/web/index.html", "apps/web/vite.config.ts", "packages/contract/src", "packages/domain/src"];

function newestMtime(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const st = statSync(full);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newestMtime(join(path, name))));
}

if (!existsSync(webIndex) || statSync(webIndex).mtimeMs < Math.max(...webSources.map(newestMtime))) {
  console.log("Building the web app…");
  const build = spawnSync("npm", ["run", "build", "-w", "@groupledger/web"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ["--import", "tsx", join(root, "apps/server/src/main.ts")], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "development", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
