import { z } from "zod";

export const EMAIL_MESSAGE = "Please enter a valid email.";

/** RFC 5321 limit on a forward path; longer strings are not deliverable addresses. */
export const EMAIL_MAX_LENGTH = 254;

/**
 * An email address: surrounding whitespace is trimmed, the address must be valid (zod's email
 * format, which is ASCII-only) and at most 254 characters, and the output is lower-cased, which is
 * what "normalized" means here. Every failure, including a missing or non-string value, gives
 * exactly one issue with {@link EMAIL_MESSAGE}.
 *
 * Lower-casing happens after the format check on purpose: characters such as the Kelvin sign
 * (U+212A) lower-case to ASCII letters and would otherwise slip in as a different address.
 */
export const emailSchema = z
  .string({ error: EMAIL_MESSAGE })
  .trim()
  .max(EMAIL_MAX_LENGTH, { error: EMAIL_MESSAGE, abort: true })
  .pipe(z.email({ error: EMAIL_MESSAGE }).toLowerCase());

/** The normalized (trimmed, lower-cased) address, or null when the input is not a valid email. */
export function normalizeEmail(input: unknown): string | null {
  const result = emailSchema.safeParse(input);
  return result.success ? result.data : null;
}
