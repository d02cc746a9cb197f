import {
  deleteEliminationPair,
  getEliminationNames,
  getEliminationPairProposals,
  getEliminationPairs,
  getEliminations,
  getEliminationTolerance,
  postEliminationPair,
  postEliminationPairsAccept,
  postEliminations,
  postEliminationsRepost,
  getConsolidationPostings,
  INTERCO_REALM,
  putEliminationTolerance,
  type EliminationPairRequest,
  type RunPeriod,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";


/** The adjustments screen posts through the same notices and imports these from here. */
export { postOutcomeSchema, type PostOutcome as EliminationPostOutcome } from "@groupledger/contract";

/** Everything under ["eliminations"]: a pair added, removed or posted refreshes the pairs, the period and the posted list at once. */
export const eliminationKeys = {
  all: ["eliminations"] as const,
  pairs: ["eliminations", "pairs"] as const,
  proposals: ["eliminations", "proposals"] as const,
  names: (realmId: string) => ["eliminations", "names", realmId] as const,
  view: (p: RunPeriod) => ["eliminations", "view", p.kind, p.year, p.month] as const,
  postings: ["eliminations", "postings"] as const,
  tolerance: ["eliminations", "tolerance"] as const,
};


export const eliminationsApi = {
  pairs: (signal?: AbortSignal) => call(getEliminationPairs, {}, { signal }).then((r) => r.pairs),
  create: (body: EliminationPairRequest) => call(postEliminationPair, { body }),
  proposals: (signal?: AbortSignal) => call(getEliminationPairProposals, {}, { signal }),
  accept: (proposals: EliminationPairRequest[]) => call(postEliminationPairsAccept, { body: { proposals } }),
  names: (realmId: string, signal?: AbortSignal) => call(getEliminationNames, { query: { realmId } }, { signal }),
  remove: (pairId: string) => call(deleteEliminationPair, { params: { pairId } }),
  view: (p: RunPeriod, signal?: AbortSignal) => call(getEliminations, { query: { kind: p.kind, year: p.year, month: p.month } }, { signal }),
  post: (period: RunPeriod) => call(postEliminations, { body: { period } }),
  replace: (postingId: string) => call(postEliminationsRepost, { params: { postingId }, body: { approve: true } }),
  tolerance: (signal?: AbortSignal) => call(getEliminationTolerance, {}, { signal }),
  setTolerance: (tolerance: number) => call(putEliminationTolerance, { body: { tolerance } }),
  postings: (signal?: AbortSignal) => call(getConsolidationPostings, { query: { realmId: INTERCO_REALM } }, { signal }).then((r) => r.postings),
};

export function usePairs() {
  return useQuery({ queryKey: eliminationKeys.pairs, queryFn: ({ signal }) => eliminationsApi.pairs(signal) });
}

/** The pairs the group's charts propose, the accounts needing a choice and those left unpaired (with why). */
export function usePairProposals() {
  return useQuery({ queryKey: eliminationKeys.proposals, queryFn: ({ signal }) => eliminationsApi.proposals(signal) });
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
