import {
  emailChangedSchema,
  emailChangeStartedSchema,
  profileSchema,
  reportEmailResponseSchema,
  postChangePassword,
  postLogoutAll,
  type ChangePasswordRequest,
} from "@groupledger/contract";
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../lib/http.ts";

export const settingsKeys = { profile: ["settings", "profile"] as const };

export const settingsApi = {
  profile: () => api("/settings/profile", { schema: profileSchema }),
  rename: (name: string) => api("/settings/profile", { method: "PATCH", body: { name }, schema: profileSchema }),
  startEmailChange: (newEmail: string, currentPassword: string) =>
    api("/settings/email", { method: "POST", body: { newEmail, currentPassword }, schema: emailChangeStartedSchema }),
  confirmEmailChange: (code: string) => api("/settings/email/verify", { method: "POST", body: { code }, schema: emailChangedSchema }),
  /** SPEC §7 PATCH /api/excel/update: another address than the sign-in email gets a code first (the same address again: a new code). */
  setReportEmail: (email: string) => api("/excel/update", { method: "PATCH", body: { email }, schema: reportEmailResponseSchema }),
  verifyReportEmail: (code: string) => api("/excel/verify", { method: "POST", body: { code }, schema: reportEmailResponseSchema }),
  changePassword: (body: ChangePasswordRequest) => call(postChangePassword, { body }),
  logoutEverywhere: () => call(postLogoutAll, {}, { skipGlobalHandler: true }),
};

export function useProfile() {
  return useQuery({ queryKey: settingsKeys.profile, queryFn: settingsApi.profile });
}
