import { tokenRequestSchema, type TokenRequest } from "@groupledger/contract";
import { messageOf, validateWith } from "../../lib/forms.ts";
import { ApiError } from "../../lib/http.ts";
import { sessionApi } from "./api.ts";
import { saveToken } from "./tokenStore.ts";

export type LogInOutcome = { kind: "invalid"; fields: Record<string, string> } | { kind: "refused"; code: string; message: string } | { kind: "signedIn" };

const validate = validateWith(tokenRequestSchema);

/**
 * The login form's submit: the contract's checks (the server's own), the call, the saved token.
 * Loaded when the form is first submitted, so the /login route does not download the schema
 * library and API client before it can draw the form (issue 18 item 11).
 */
export async function logIn(values: TokenRequest): Promise<LogInOutcome> {
  const fields = validate(values);
  if (Object.keys(fields).length > 0) return { kind: "invalid", fields };
  try {
    const { token } = await sessionApi.login(tokenRequestSchema.parse(values));
    // Whoever drew the form (the router's public guard, or the login shell) sees the token and moves on.
    saveToken(token);
    return { kind: "signedIn" };
  } catch (err) {
    if (err instanceof ApiError) return { kind: "refused", code: err.code, message: err.message };
    return { kind: "refused", code: "unknown", message: messageOf(err) };
  }
}
