import {
  getProfile,
  patchProfile,
  patchReportEmail,
  postChangePassword,
  postEmailChange,
  postEmailChangeVerify,
  postLogoutAll,
  postReportEmailVerify,
  type ChangePasswordRequest,
} from "@groupledger/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";

export const settingsKeys = { profile: ["settings", "profile"] as const };

export const settingsApi = {
  profile: () => call(getProfile),
  rename: (name: string) => call(patchProfile, { body: { name } }),
  startEmailChange: (newEmail: string, currentPassword: string) => call(postEmailChange, { body: { newEmail, currentPassword } }),
  confirmEmailChange: (code: string) => call(postEmailChangeVerify, { body: { code } }),
  /** SPEC §7 PATCH /api/excel/update: another address than the sign-in email gets a code first (the same address again: a new code). */
  setReportEmail: (email: string) => call(patchReportEmail, { body: { email } }),
  verifyReportEmail: (code: string) => call(postReportEmailVerify, { body: { code } }),
  changePassword: (body: ChangePasswordRequest) => call(postChangePassword, { body }),
  logoutEverywhere: () => call(postLogoutAll, {}, { skipGlobalHandler: true }),
};

export function useProfile() {
  return useQuery({ queryKey: settingsKeys.profile, queryFn: settingsApi.profile });
}
