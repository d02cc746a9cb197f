import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "./errors.ts";

export const NUL_MESSAGE = "Text may not contain the NUL character (\\u0000).";

/** Far beyond any request of the API (the deepest nests a handful of levels), far below the stack's limit. */
export const MAX_JSON_DEPTH = 64;
export const DEPTH_MESSAGE = `The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; no request needs that many. Send a flatter body.`;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, read from the text itself (one
 * pass, brackets inside strings ignored), so nothing recursive ever sees a body that is too deep.
 * Invalid JSON is left to the parser to report.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \\ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** Where in a parsed value a NUL character hides (keys included), or null. */
export function findNul(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], path ? `${path}.${i}` : String(i));
      if (hit !== null) return hit;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (key.includes("\u0000")) return here;
      const hit = findNul(v, here);
      if (hit !== null) return hit;
    }
  }
  return null;
}

/**
 * JSON bodies too deep for the API are refused before they are parsed: JSON.parse, the NUL check
 * below and schema validation all recurse, and a body 100,000 levels deep would exhaust the stack
 * (a 500) in any of them. Otherwise Fastify's own parser, with its prototype-poisoning checks.
 */
function registerDepthLimit(app: FastifyInstance): void {
  const parse = guardedJsonParser(app);
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => parse(req, body as string, done));
}

/** JSON text parsed as the API parses it: refused when too deep, else Fastify's parser (a parser of the route's own, e.g. over signed bytes, ends with it). */
export function guardedJsonParser(app: FastifyInstance): (req: FastifyRequest, text: string, done: (err: Error | null, body?: unknown) => void) => void {
  const parse = app.getDefaultJsonParser("error", "error");
  return (req, text, done) => {
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(new AppError(400, "too_deeply_nested", DEPTH_MESSAGE), undefined);
    parse(req, text, done);
  };
}

/**
 * PostgreSQL cannot store NUL in text or jsonb and answers with an error, so it is refused here,
 * once for every route, before any handler can pass it on.
 */
export function registerInputGuard(app: FastifyInstance): void {
  registerDepthLimit(app);
  app.addHook("preValidation", async (req) => {
    for (const [where, value] of [["query", req.query], ["params", req.params], ["body", req.body]] as const) {
      const path = findNul(value);
      if (path !== null) {
        const field = where === "body" ? path : path ? `${where}.${path}` : where;
        throw new AppError(400, "invalid_characters", NUL_MESSAGE, { fields: [{ path: field, message: NUL_MESSAGE }] });
      }
    }
  });
}
