import { resolve, sep } from "node:path";
import compress from "@fastify/compress";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** Files under /assets/ carry a content hash in their name: a new build gives them a new name. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** index.html keeps its name across deploys: the browser asks again each time (a 304 when unchanged). */
export const REVALIDATE = "no-cache";

/**
 * Compresses responses on the fly for clients that accept it: large API answers (reports, the
 * chart of accounts) are JSON that shrinks tenfold. Registered before any route, since it hooks
 * each route as it is added. Left alone: buffered answers under 1 KB, answers already encoded
 * (the web app's precompressed files, see registerWebApp) and types that do not compress (the
 * .xlsx download is a zip). Files streamed without a precompressed copy (index.html, chunks too
 * small to have one) are compressed whatever their size. Brotli at the plugin's quality 4: zlib's
 * default 11 costs far more CPU per response. Compressed request bodies are refused as JSON: no
 * client sends them, and inflating them is work an attacker would choose.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { global: true, threshold: 1024, encodings: ["br", "gzip"], globalDecompression: false });
}

/**
 * Serves the built web app from `root`. Vite's build leaves a brotli and a gzip copy beside each
 * asset (apps/web/vite.config.ts); `preCompressed` sends the one Accept-Encoding allows (falling
 * back to the plain file) with `Vary: Accept-Encoding`, so no CPU is spent compressing at request
 * time. Hashed assets are cached for a year; index.html, which names the current build's assets,
 * is revalidated on every load so a deploy is picked up at once.
 */
export async function registerWebApp(app: FastifyInstance, root: string): Promise<void> {
  const assets = resolve(root, "assets") + sep;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    preCompressed: true,
    // send's own header would be `public, max-age=0`; setHeaders decides per file instead.
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header("cache-control", resolve(path).startsWith(assets) ? IMMUTABLE : REVALIDATE);
    },
  });
}

/** A hashed asset's URL: a miss there is a 404, never the HTML shell (see registerErrorHandling). */
export function isAssetUrl(url: string): boolean {
  return url.startsWith("/assets/");
}
