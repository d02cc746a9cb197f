import {
  getNightlySync,
  getProfile,
  patchProfile,
  patchReportEmail,
  postChangePassword,
  postEmailChange,
  postEmailChangeVerify,
  postLogoutAll,
  postReportEmailVerify,
  putNightlySync,
  type ChangePasswordRequest,
  type NightlySyncRequest,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";

export const settingsKeys = { profile: ["settings", "profile"] as const, nightlySync: ["settings", "nightly-sync"] as const };

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
  /** The group's nightly sync: on or off, the time of day and the IANA time zone it is read in. */
  nightlySync: () => call(getNightlySync),
  setNightlySync: (body: NightlySyncRequest) => call(putNightlySync, { body }),
};

export function useProfile() {
  return useQuery({ queryKey: settingsKeys.profile, queryFn: settingsApi.profile });
}

export function useNightlySync() {
  return useQuery({ queryKey: settingsKeys.nightlySync, queryFn: settingsApi.nightlySync });
}

export function useSetNightlySync() {
  const client = useQueryClient();
  return useMutation({ mutationFn: settingsApi.setNightlySync, onSuccess: (saved) => client.setQueryData(settingsKeys.nightlySync, saved) });
}
