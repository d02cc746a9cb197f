import {
  messageResponseSchema,
  sessionUserSchema,
  signupResponseSchema,
  tokenResponseSchema,
  validationCodeResponseSchema,
  type ResetPasswordRequest,
  type SessionUser,
  type SignupRequest,
  type TokenRequest,
  type TokenResponse,
} from "@groupledger/contract";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/http.ts";

export const sessionKeys = { user: ["session", "user"] as const };

/** Bodies are the contract's parsed output (trimmed, normalized email), so the server sees what the form checked. */
export const sessionApi = {
  login: (body: TokenRequest) => api("/session/token", { method: "POST", body, schema: tokenResponseSchema }) as Promise<TokenResponse>,
  signup: (body: SignupRequest) => api("/session/signup", { method: "POST", body, schema: signupResponseSchema }),
  resendCode: (email: string) => api("/session/resendcode", { method: "POST", body: { email }, schema: messageResponseSchema }),
  validateCode: (validationCode: string, email?: string) =>
    api("/session/validationcode", {
      method: "POST",
      body: email ? { validationCode, email } : { validationCode },
      schema: validationCodeResponseSchema,
    }),
  forgotPassword: (email: string) => api("/session/forgotpassword", { method: "POST", body: { email }, schema: messageResponseSchema }),
  resetPassword: (body: ResetPasswordRequest) => api("/session/resetpassword", { method: "POST", body, schema: messageResponseSchema }),
  user: (signal?: AbortSignal) => api<SessionUser>("/session", { schema: sessionUserSchema, ...(signal ? { signal } : {}) }),
  /** A token that was already refused must not reload the page mid-logout. */
  logout: () => api("/session/logout", { method: "POST", skipGlobalHandler: true }),
};

export function useSessionUser() {
  return useQuery({ queryKey: sessionKeys.user, queryFn: ({ signal }) => sessionApi.user(signal), staleTime: 5 * 60_000 });
}
