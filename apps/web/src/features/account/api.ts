import {
  accountSchema,
  releaseNotesVersionSchema,
  type Account,
  type AccountPatch,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/http.ts";
import { sessionKeys } from "../session/api.ts";

export const accountKeys = { account: ["account"] as const };

export const accountApi = {
  get: (signal?: AbortSignal) => api<Account>("/account", { schema: accountSchema, ...(signal ? { signal } : {}) }),
  patch: (body: AccountPatch) => api<Account>("/account", { method: "PATCH", body, schema: accountSchema }),
  releaseNotesVersion: () => api("/userpermission/releasenotesversion", { schema: releaseNotesVersionSchema }),
  acknowledgeReleaseNotes: (version: string) =>
    api("/userpermission/releasenotesversion", { method: "POST", body: { version }, schema: releaseNotesVersionSchema }),
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
