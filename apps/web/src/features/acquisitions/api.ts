import { deleteAcquisition, getAcquisitions, putAcquisition, type AcquisitionInput, type Acquisitions } from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";
import { companyKeys } from "../companies/api.ts";
import { ctaKeys } from "../cta/api.ts";

export const acquisitionKeys = {
  all: ["acquisitions"] as const,
};


export const acquisitionsApi = {
  get: (signal?: AbortSignal) => call(getAcquisitions, {}, { signal }),
  save: (realmId: string, body: AcquisitionInput) => call(putAcquisition, { params: { realmId }, body }),
  remove: (realmId: string) => call(deleteAcquisition, { params: { realmId } }),
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
