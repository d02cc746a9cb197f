import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

/**
 * The server's own code (apps/server/src and the workspace packages it imports) as one ES module,
 * for the e2e servers: started under tsx, each of the dozen spent ~2 s of CPU resolving and loading
 * a thousand TypeScript modules through tsx's loader thread (CI time, issue 22). Third-party
 * packages stay outside, loaded by Node as usual. Every `import.meta.url` keeps the URL of the
 * source file it is written in, so paths found from it (migrations, the web build, the engine's
 * worker, which still runs its TypeScript on tsx) are the same as under tsx.
 */
export async function bundleServer(root: string, outfile: string): Promise<void> {
  const ownUrls: Plugin = {
    name: "own-import-meta-url",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("@groupledger/") ? undefined : { path: args.path, external: true }));
      b.onLoad({ filter: /\.ts$/ }, (args) => ({
        contents: readFileSync(args.path, "utf8").replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
        loader: "ts",
      }));
    },
  };
  await build({
    entryPoints: [join(root, "apps/server/src/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
    plugins: [ownUrls],
  });
}
