import { ADJUSTMENTS_REALM, getAdjustments, getConsolidationPostings, postAdjustments, postAdjustmentsRepost, type RunPeriod } from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";

export const adjustmentKeys = {
  all: ["adjustments"] as const,
  view: (p: RunPeriod) => ["adjustments", "view", p.kind, p.year, p.month] as const,
  postings: ["adjustments", "postings"] as const,
};


export const adjustmentsApi = {
  view: (p: RunPeriod, signal?: AbortSignal) => call(getAdjustments, { query: { kind: p.kind, year: p.year, month: p.month } }, { signal }),
  post: (period: RunPeriod) => call(postAdjustments, { body: { period } }),
  replace: (postingId: string) => call(postAdjustmentsRepost, { params: { postingId }, body: { approve: true } }),
  postings: (signal?: AbortSignal) => call(getConsolidationPostings, { query: { realmId: ADJUSTMENTS_REALM } }, { signal }).then((r) => r.postings),
};

export function useAdjustmentsView(period: RunPeriod | null) {
  return useQuery({
    queryKey: period ? adjustmentKeys.view(period) : ["adjustments", "view", "none"],
    queryFn: ({ signal }) => adjustmentsApi.view(period!, signal),
    enabled: period !== null,
    staleTime: 0,
  });
}

export function useAdjustmentPostings() {
  return useQuery({ queryKey: adjustmentKeys.postings, queryFn: ({ signal }) => adjustmentsApi.postings(signal) });
}

export function usePostAdjustments() {
  const client = useQueryClient();
  return useMutation({ mutationFn: adjustmentsApi.post, onSettled: () => client.invalidateQueries({ queryKey: adjustmentKeys.all }) });
}

export function useReplaceAdjustments() {
  const client = useQueryClient();
  return useMutation({ mutationFn: adjustmentsApi.replace, onSettled: () => client.invalidateQueries({ queryKey: adjustmentKeys.all }) });
}
