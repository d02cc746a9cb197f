import {
  getSession,
  postForgotPassword,
  postLogout,
  postResendCode,
  postResetPassword,
  postSignup,
  postToken,
  postValidationCode,
  type ResetPasswordRequest,
  type SignupRequest,
  type TokenRequest,
} from "@groupledger/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";

export const sessionKeys = { user: ["session", "user"] as const };

/** Bodies are the contract's parsed output (trimmed, normalized email), so the server sees what the form checked. */
export const sessionApi = {
  login: (body: TokenRequest) => call(postToken, { body }),
  signup: (body: SignupRequest) => call(postSignup, { body }),
  resendCode: (email: string) => call(postResendCode, { body: { email } }),
  validateCode: (validationCode: string, email?: string) => call(postValidationCode, { body: email ? { validationCode, email } : { validationCode } }),
  forgotPassword: (email: string) => call(postForgotPassword, { body: { email } }),
  resetPassword: (body: ResetPasswordRequest) => call(postResetPassword, { body }),
  user: (signal?: AbortSignal) => call(getSession, {}, signal ? { signal } : {}),
  /** A token that was already refused must not reload the page mid-logout. */
  logout: () => call(postLogout, {}, { skipGlobalHandler: true }),
};

export function useSessionUser() {
  return useQuery({ queryKey: sessionKeys.user, queryFn: ({ signal }) => sessionApi.user(signal), staleTime: 5 * 60_000 });
}
