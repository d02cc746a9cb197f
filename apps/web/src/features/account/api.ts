import {
  getAccount,
  getReleaseNotesVersion,
  patchAccount,
  postReleaseNotesVersion,
  type AccountPatch,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";
import { sessionKeys } from "../session/api.ts";

export const accountKeys = { account: ["account"] as const };

export const accountApi = {
  get: (signal?: AbortSignal) => call(getAccount, {}, signal ? { signal } : {}),
  patch: (body: AccountPatch) => call(patchAccount, { body }),
  releaseNotesVersion: () => call(getReleaseNotesVersion),
  acknowledgeReleaseNotes: (version: string) => call(postReleaseNotesVersion, { body: { version } }),
};

export function useAccount() {
  return useQuery({ queryKey: accountKeys.account, queryFn: ({ signal }) => accountApi.get(signal) });
}

/** PATCH /api/account; the answer is the new account, which replaces the cached one. */
export function usePatchAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: accountApi.patch,
    onSuccess: (account) => client.setQueryData(accountKeys.account, account),
  });
}

export function useAcknowledgeReleaseNotes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: accountApi.acknowledgeReleaseNotes,
    onSuccess: ({ releaseNotesVersion }) =>
      client.setQueryData(sessionKeys.user, (user: { releaseNotesVersion: string } | undefined) =>
        user ? { ...user, releaseNotesVersion } : user,
      ),
  });
}
