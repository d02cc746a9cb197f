import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * A JSON answer sent many times unchanged (a cached report, issue 22): its bytes, a strong ETag of
 * them and each compressed form are made once, the first time they are needed, and kept as long as
 * the cached value they were made from (`owner`, a cache's entry: dropped with it).
 *
 * Sent per request they cost more than the rest of a warm report: encoding 50 KB of text to bytes
 * and measuring it, and, for a browser (which always accepts br or gzip), compressing it again.
 * Nothing here decides who may read the value: the route's auth and its cache key (the account's
 * data version read on this request) do, before `sendKeptJson` is called.
 */
export interface KeptJson {
  readonly bytes: Buffer;
  /** Strong: a hash of the bytes, so a client's copy is current exactly when it is these bytes. */
  readonly etag: string;
  readonly encoded: Map<Encoding, Promise<Buffer>>;
}

type Encoding = "br" | "gzip";

const kept = new WeakMap<object, KeptJson>();

/** The kept form of `owner`'s JSON text `body`, made on first use. */
export function keptJson(owner: object, body: string): KeptJson {
  let k = kept.get(owner);
  if (!k) {
    const bytes = Buffer.from(body, "utf8");
    k = { bytes, etag: `"${createHash("sha256").update(bytes).digest("base64url")}"`, encoded: new Map() };
    kept.set(owner, k);
  }
  return k;
}

const compressors: Record<Encoding, (bytes: Buffer) => Promise<Buffer>> = {
  // As @fastify/compress does for the other answers (http/web.ts): brotli at quality 4.
  br: (bytes) => promisify(brotliCompress)(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  gzip: (bytes) => promisify(gzip)(bytes),
};

function compressed(k: KeptJson, encoding: Encoding): Promise<Buffer> {
  let made = k.encoded.get(encoding);
  if (!made) {
    made = compressors[encoding](k.bytes);
    k.encoded.set(encoding, made);
    // A failed compression is tried again by the next request, not kept.
    made.catch(() => k.encoded.get(encoding) === made && k.encoded.delete(encoding));
  }
  return made;
}

/**
 * Sends `k` as the answer: 304 when the request's If-None-Match names it, else its bytes, compressed
 * when the client accepts br or gzip. `Cache-Control: private, no-cache`: a browser may keep the
 * answer but asks again each time (its own fetch then sends If-None-Match and reads a 304 as the
 * kept copy), and no shared cache keeps it.
 */
export async function sendKeptJson(req: FastifyRequest, reply: FastifyReply, k: KeptJson): Promise<FastifyReply> {
  reply.header("etag", k.etag).header("cache-control", "private, no-cache").header("vary", "accept-encoding");
  if (matches(req.headers["if-none-match"], k.etag)) return reply.code(304).send();
  reply.type("application/json; charset=utf-8");
  const encoding = acceptedEncoding(req.headers["accept-encoding"]);
  if (!encoding) return reply.send(k.bytes);
  return reply.header("content-encoding", encoding).send(await compressed(k, encoding));
}

/** If-None-Match against a strong ETag: "*", or any listed tag equal to it (weak comparison, RFC 9110 §13.1.2). */
export function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** The encoding to send: br, else gzip, when Accept-Encoding allows it (a q of 0 refuses; "*" allows both). */
export function acceptedEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.toLowerCase().split(";").map((p) => p.trim());
    const qParam = params.find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    if (name) q.set(name, Number.isFinite(value) ? value : 0);
  }
  const allowed = (e: Encoding) => (q.get(e) ?? q.get("*") ?? 0) > 0;
  return allowed("br") ? "br" : allowed("gzip") ? "gzip" : null;
}
