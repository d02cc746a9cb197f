import {
  getCompanyAccounts,
  getCta,
  postCtaAccount,
  putCtaAccount,
  putCtaSubsidiary,
  type CompanyAccount,
  type CtaAccountCreate,
  type CtaGroupAccount,
  type CtaSettings,
  type CtaUpdate,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";
import { companyKeys } from "../companies/api.ts";

/** Everything under ["cta"]: a save refreshes every subsidiary, since they must agree on one CTA account. */
export const ctaKeys = {
  all: ["cta"] as const,
  settings: ["cta", "settings"] as const,
  parentAccounts: (realmId: string) => ["cta", "parentAccounts", realmId] as const,
};


export const ctaApi = {
  get: (signal?: AbortSignal) => call(getCta, {}, { signal }),
  setGroupAccount: (body: CtaGroupAccount) => call(putCtaAccount, { body }),
  save: (realmId: string, body: CtaUpdate) => call(putCtaSubsidiary, { params: { realmId }, body }),
  parentAccounts: (realmId: string, signal?: AbortSignal) => call(getCompanyAccounts, { params: { realmId } }, { signal }),
  createAccount: (body: CtaAccountCreate) => call(postCtaAccount, { body }),
};

export function useCtaSettings() {
  return useQuery({ queryKey: ctaKeys.settings, queryFn: ({ signal }) => ctaApi.get(signal) });
}

export function useParentAccounts(realmId: string | null) {
  return useQuery({
    queryKey: ctaKeys.parentAccounts(realmId ?? ""),
    queryFn: ({ signal }) => ctaApi.parentAccounts(realmId ?? "", signal),
    enabled: realmId !== null,
  });
}

/** Ownership is the company's, shown on Connected Companies too: its list is refreshed with the CTA settings. */
export function useSaveCta() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ realmId, body }: { realmId: string; body: CtaUpdate }) => ctaApi.save(realmId, body),
    onSuccess: async () => {
      await Promise.all([client.invalidateQueries({ queryKey: ctaKeys.all }), client.invalidateQueries({ queryKey: companyKeys.list, exact: true })]);
    },
  });
}

/** The group's one CTA account, for every foreign subsidiary at once: the answer is the whole page's settings. */
export function useSetGroupCtaAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ctaAccountId: string) => ctaApi.setGroupAccount({ ctaAccountId }),
    onSuccess: (fresh) => {
      client.setQueryData(ctaKeys.settings, fresh);
    },
  });
}

/**
 * The new account joins the parent's chart at once and becomes the group's CTA account (the server
 * stored both): it is added to the cached chart and chosen in the cached settings so the picker
 * shows it before the refetch, then every list is refreshed.
 */
export function useCreateCtaAccount(parentRealmId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CtaAccountCreate) => ctaApi.createAccount(body),
    onSuccess: (account) => {
      client.setQueryData<CompanyAccount[]>(ctaKeys.parentAccounts(parentRealmId), (old) => (old ? [...old.filter((a) => a.Id !== account.Id), account] : old));
      client.setQueryData<CtaSettings>(ctaKeys.settings, (old) =>
        old ? { ...old, ctaAccountId: account.Id, subsidiaries: old.subsidiaries.map((s) => ({ ...s, ctaAccountId: account.Id })) } : old,
      );
    },
    onSettled: async () => {
      // A duplicate brings QuickBooks' existing account into the chart too: refresh on failure as well.
      await Promise.all([client.invalidateQueries({ queryKey: ctaKeys.all }), client.invalidateQueries({ queryKey: companyKeys.all })]);
    },
  });
}
