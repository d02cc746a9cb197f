// `node scripts/typecheck-together.mjs <workspace dir>...`: what `tsc -p tsconfig.json --noEmit` in
// each of these workspaces reports, from one TypeScript program over all their files. The workspaces
// must share their compiler options (scripts/checks.mjs groups them so). Each workspace's own program
// would check again every workspace source it imports: domain was checked six times, once by itself
// and once under each app and package that uses it (CI time). Prints tsc's plain diagnostics, paths
// relative to the repository; exits non-zero on any error.
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));

/** A workspace's tsconfig.json as tsc -p reads it; throws on a config error. */
export function readTsconfig(dir) {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(resolve(dir, "tsconfig.json"), { noEmit: true }, host);
  if (!parsed) throw new Error(`cannot read ${dir}/tsconfig.json`);
  return parsed;
}

/** The options that decide what a program reports (its config file's own path aside). */
export function optionsKey(parsed) {
  const { configFilePath: _path, ...options } = parsed.options;
  return JSON.stringify(options);
}

function main(dirs) {
  const configs = dirs.map(readTsconfig);
  const keys = new Set(configs.map(optionsKey));
  if (keys.size !== 1) throw new Error(`these workspaces' compiler options differ, check them apart: ${dirs.join(", ")}`);
  const first = configs[0];
  const program = ts.createProgram({
    rootNames: [...new Set(configs.flatMap((c) => c.fileNames))],
    options: first.options,
    projectReferences: first.projectReferences,
    configFileParsingDiagnostics: configs.flatMap((c) => c.errors),
  });
  const diagnostics = ts.sortAndDeduplicateDiagnostics(ts.getPreEmitDiagnostics(program));
  const text = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  });
  if (text) process.stdout.write(text);
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  if (errors) {
    console.log(`${errors} error${errors === 1 ? "" : "s"} in ${dirs.map((d) => relative(root, resolve(d))).join(", ")}`);
    process.exit(2);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
