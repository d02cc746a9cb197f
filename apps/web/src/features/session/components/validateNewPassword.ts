import { CONFIRMATION_MESSAGE, confirmationMatches } from "@groupledger/domain";
import type { z } from "zod";
import { zodFieldErrors } from "../../../lib/forms.ts";

/**
 * Checks a form that sets a password: the contract schema (email + creation rules, exactly what
 * the server checks) plus the confirmation field (SPEC §5: trimmed values must be equal).
 */
export function validateNewPassword(schema: z.ZodType, values: Record<string, unknown>, confirmPassword: string): Record<string, string> {
  const result = schema.safeParse(values);
  const errors = result.success ? {} : zodFieldErrors(result.error);
  if (!confirmationMatches(confirmPassword, values["password"])) errors["confirmPassword"] = CONFIRMATION_MESSAGE;
  return errors;
}
