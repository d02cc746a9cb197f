import { z } from "zod";

/**
 * Whitespace as this package understands it: everything JavaScript's `\s` matches (which is what
 * `String.prototype.trim` removes: tab, line feed, NBSP, U+2028, BOM, ...) plus the few Unicode
 * `White_Space` characters `\s` misses (U+0085 NEXT LINE).
 */
export const WHITESPACE_PATTERN = /[\s\p{White_Space}]/u;

const NON_WHITESPACE = /[^\s\p{White_Space}]/u;

/** True when the text holds nothing but whitespace (or nothing at all). */
export function isBlank(text: string): boolean {
  return !NON_WHITESPACE.test(text);
}

/**
 * Length in Unicode code points, so an emoji or any other astral character counts as one
 * character rather than the two UTF-16 code units `String.prototype.length` reports.
 */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** A zod string that must not be blank; the parsed value is trimmed. Every failure gives `message`. */
export function nonEmptyText(message: string) {
  return z
    .string({ error: message })
    .trim()
    .refine((s) => !isBlank(s), { error: message });
}

export const CONFIRMATION_MESSAGE = "The two values do not match.";

/** "Confirm" fields: both values trimmed must be equal. Anything that is not a string never matches. */
export function confirmationMatches(value: unknown, other: unknown): boolean {
  return typeof value === "string" && typeof other === "string" && value.trim() === other.trim();
}

/** The bit of zod's refinement context these helpers use. zod's own `ctx` satisfies it. */
export interface IssueSink {
  addIssue(issue: { code: "custom"; message: string; path: PropertyKey[] }): void;
}

/**
 * superRefine callback for an object holding a value and its confirmation (e.g. password and
 * confirmPassword). Adds one issue with {@link CONFIRMATION_MESSAGE} at `[confirmField]` when both
 * are strings and differ; a missing or non-string field is left to that field's own schema.
 */
export function refineConfirmation<F extends string = "password", C extends string = "confirmPassword">(
  field: F = "password" as F,
  confirmField: C = "confirmPassword" as C,
) {
  return (value: Partial<Record<F | C, unknown>>, ctx: IssueSink): void => {
    const a = value[field];
    const b = value[confirmField];
    if (typeof a !== "string" || typeof b !== "string") return;
    if (!confirmationMatches(b, a)) ctx.addIssue({ code: "custom", message: CONFIRMATION_MESSAGE, path: [confirmField] });
  };
}

/**
 * Options for `.superRefine(fn, whenFieldsAreStrings(...))`: zod skips an object's refinements once
 * any field has an aborting issue (missing, wrong type); with this the refinement still runs as long
 * as the named fields are strings, so a form shows e.g. password problems even while the email is
 * still missing.
 */
export function whenFieldsAreStrings(...fields: string[]) {
  return {
    when: (payload: { value: unknown }): boolean => {
      const v = payload.value;
      if (typeof v !== "object" || v === null) return false;
      const record = v as Record<string, unknown>;
      return fields.every((f) => typeof record[f] === "string");
    },
  };
}

/** `{ password, confirmPassword }` where the confirmation must match (trimmed). */
export const confirmPasswordSchema = z
  .object({ password: z.string(), confirmPassword: z.string() })
  .superRefine(refineConfirmation("password", "confirmPassword"), whenFieldsAreStrings("password", "confirmPassword"));
