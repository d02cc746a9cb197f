import type { z } from "zod";
import { ApiError } from "./http.ts";

/** The first message per field path of a failed parse, for Mantine's form errors (same schemas as the server). */
export function zodFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join(".");
    if (!(path in out)) out[path] = issue.message;
  }
  return out;
}

/** A Mantine `validate` function backed by a contract schema. */
export function validateWith<T>(schema: z.ZodType<unknown, T>) {
  return (values: T): Record<string, string> => {
    const result = schema.safeParse(values);
    return result.success ? {} : zodFieldErrors(result.error);
  };
}

/** The message to show for a failed call: the server's own message when it sent one (SPEC §8). */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError || error instanceof Error) return error.message;
  return "Something went wrong. Please try again.";
}
