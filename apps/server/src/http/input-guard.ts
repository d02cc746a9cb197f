import type { FastifyInstance } from "fastify";
import { AppError } from "./errors.ts";

export const NUL_MESSAGE = "Text may not contain the NUL character (\\u0000).";

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
 * PostgreSQL cannot store NUL in text or jsonb and answers with an error, so it is refused here,
 * once for every route, before any handler can pass it on.
 */
export function registerInputGuard(app: FastifyInstance): void {
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
