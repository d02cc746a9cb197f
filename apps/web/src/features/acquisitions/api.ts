import { acquisitionsSchema, acquisitionSubsidiarySchema, type AcquisitionInput, type Acquisitions, type AcquisitionSubsidiary } from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/http.ts";
import { companyKeys } from "../companies/api.ts";
import { ctaKeys } from "../cta/api.ts";

export const acquisitionKeys = {
  all: ["acquisitions"] as const,
};

const enc = encodeURIComponent;
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export const acquisitionsApi = {
  get: (signal?: AbortSignal) => api<Acquisitions>("/acquisitions", { schema: acquisitionsSchema, ...withSignal(signal) }),
  save: (realmId: string, body: AcquisitionInput) =>
    api<AcquisitionSubsidiary>(`/acquisitions/${enc(realmId)}`, { method: "PUT", body, schema: acquisitionSubsidiarySchema }),
  remove: (realmId: string) => api(`/acquisitions/${enc(realmId)}`, { method: "DELETE" }),
};

export function useAcquisitions() {
  return useQuery({ queryKey: acquisitionKeys.all, queryFn: ({ signal }) => acquisitionsApi.get(signal) });
}

/**
 * Saving sets the company's ownership (shown on Connected Companies and CTA & Historical) and may
 * record historical rates for its contributed capital: those lists are refreshed too. The answer
 * replaces the subsidiary in the cached list at once, so its figures show without waiting.
 */
export function useSaveAcquisition() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ realmId, body }: { realmId: string; body: AcquisitionInput }) => acquisitionsApi.save(realmId, body),
    onSuccess: async (fresh) => {
      client.setQueryData<Acquisitions>(acquisitionKeys.all, (old) => (old ? { ...old, subsidiaries: old.subsidiaries.map((s) => (s.realmId === fresh.realmId ? fresh : s)) } : old));
      await Promise.all([
        client.invalidateQueries({ queryKey: acquisitionKeys.all }),
        client.invalidateQueries({ queryKey: ctaKeys.all }),
        client.invalidateQueries({ queryKey: companyKeys.list, exact: true }),
      ]);
    },
  });
}

export function useRemoveAcquisition() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (realmId: string) => acquisitionsApi.remove(realmId),
    onSuccess: async (_none, realmId) => {
      client.setQueryData<Acquisitions>(acquisitionKeys.all, (old) =>
        old ? { ...old, subsidiaries: old.subsidiaries.map((s) => (s.realmId === realmId ? { ...s, saved: null, savedFigures: null } : s)) } : old,
      );
      await client.invalidateQueries({ queryKey: acquisitionKeys.all });
    },
  });
}
