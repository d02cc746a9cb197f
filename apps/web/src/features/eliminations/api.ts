import {
  companyNamesSchema,
  eliminationPairSchema,
  eliminationPairsSchema,
  eliminationToleranceViewSchema,
  eliminationViewSchema,
  getConsolidationPostings,
  postingSummarySchema,
  type CompanyNames,
  type EliminationPair,
  type EliminationPairRequest,
  type EliminationToleranceView,
  type EliminationView,
  type RunPeriod,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { api, call } from "../../lib/http.ts";

/** The server files eliminations under this "realm" among the consolidation postings (apps/server eliminations/view.ts). */
export const INTERCO_REALM = "interco";

export const postOutcomeSchema = z.object({ outcome: z.enum(["posted", "duplicate"]), posting: postingSummarySchema });
export type EliminationPostOutcome = z.infer<typeof postOutcomeSchema>;

/** Everything under ["eliminations"]: a pair added, removed or posted refreshes the pairs, the period and the posted list at once. */
export const eliminationKeys = {
  all: ["eliminations"] as const,
  pairs: ["eliminations", "pairs"] as const,
  names: (realmId: string) => ["eliminations", "names", realmId] as const,
  view: (p: RunPeriod) => ["eliminations", "view", p.kind, p.year, p.month] as const,
  postings: ["eliminations", "postings"] as const,
  tolerance: ["eliminations", "tolerance"] as const,
};

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export const eliminationsApi = {
  pairs: (signal?: AbortSignal) => api("/eliminations/pairs", { schema: eliminationPairsSchema, ...withSignal(signal) }).then((r) => r.pairs),
  create: (body: EliminationPairRequest) => api<EliminationPair>("/eliminations/pairs", { method: "POST", body, schema: eliminationPairSchema }),
  names: (realmId: string, signal?: AbortSignal) => api<CompanyNames>(`/eliminations/names?realmId=${encodeURIComponent(realmId)}`, { schema: companyNamesSchema, ...withSignal(signal) }),
  remove: (pairId: string) => api(`/eliminations/pairs/${encodeURIComponent(pairId)}`, { method: "DELETE", schema: z.object({ deleted: z.literal(true) }) }),
  view: (p: RunPeriod, signal?: AbortSignal) =>
    api<EliminationView>(`/eliminations?kind=${p.kind}&year=${p.year}&month=${p.month}`, { schema: eliminationViewSchema, ...withSignal(signal) }),
  post: (period: RunPeriod) => api<EliminationPostOutcome>("/eliminations/post", { method: "POST", body: { period }, schema: postOutcomeSchema }),
  tolerance: (signal?: AbortSignal) => api<EliminationToleranceView>("/eliminations/tolerance", { schema: eliminationToleranceViewSchema, ...withSignal(signal) }),
  setTolerance: (tolerance: number) => api<EliminationToleranceView>("/eliminations/tolerance", { method: "PUT", body: { tolerance }, schema: eliminationToleranceViewSchema }),
  postings: (signal?: AbortSignal) => call(getConsolidationPostings, { query: { realmId: INTERCO_REALM } }, withSignal(signal)).then((r) => r.postings),
};

export function usePairs() {
  return useQuery({ queryKey: eliminationKeys.pairs, queryFn: ({ signal }) => eliminationsApi.pairs(signal) });
}

/** A company's customers and vendors (as its last sync read them), for limiting a side to one. */
export function useCompanyNames(realmId: string | null) {
  return useQuery({
    queryKey: realmId ? eliminationKeys.names(realmId) : ["eliminations", "names", "none"],
    queryFn: ({ signal }) => eliminationsApi.names(realmId!, signal),
    enabled: realmId !== null,
  });
}

/** A period's eliminations, always fetched fresh: the books, the rates and the pairs may have moved since. */
export function useEliminationView(period: RunPeriod | null) {
  return useQuery({
    queryKey: period ? eliminationKeys.view(period) : ["eliminations", "view", "none"],
    queryFn: ({ signal }) => eliminationsApi.view(period!, signal),
    enabled: period !== null,
    staleTime: 0,
  });
}

/** The elimination entries posted so far, newest period first. */
export function useEliminationPostings() {
  return useQuery({ queryKey: eliminationKeys.postings, queryFn: ({ signal }) => eliminationsApi.postings(signal) });
}

/** Adding, removing and posting all change what a period eliminates: everything under the feature's key is refetched. */
export function useEliminationMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => client.invalidateQueries({ queryKey: eliminationKeys.all }) });
}

/** The group's elimination tolerance and the parent currency it is in. */
export function useTolerance() {
  return useQuery({ queryKey: eliminationKeys.tolerance, queryFn: ({ signal }) => eliminationsApi.tolerance(signal) });
}
