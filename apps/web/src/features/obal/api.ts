import {
  getObal,
  getObalTrialBalance,
  obalTransitionEndpoints,
  postIsDeletedFlag,
  postObal,
  postObalReset,
  postOpeningBalance,
  type ObalLockRequest,
  type ObalState,
  type ObalTransition,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";
import { duplicatesApi } from "../duplicates/api.ts";

/** Everything under ["obal"], so a reset or a re-lock refreshes state and every trial balance at once. */
export const obalKeys = {
  all: ["obal"] as const,
  state: ["obal"] as const,
  trialBalance: (realmId: string, naturalYear: number | null, naturalMonth: number | null) =>
    ["obal", "trialbalance", realmId, naturalYear, naturalMonth] as const,
};

/** The duplicate check and its preference for the opening-balance entry (SPEC §3: flag and JE). */
export const OBAL_JE = "obal";


export const obalApi = {
  get: (signal?: AbortSignal) => call(getObal, {}, { signal }),
  lock: (body: ObalLockRequest) => call(postObal, { body }),
  reset: () => call(postObalReset, {}),
  trialBalance: (realmId: string, signal?: AbortSignal) => call(getObalTrialBalance, { params: { realmId } }, { signal }),
  transition: (action: ObalTransition, realmId: string) => call(obalTransitionEndpoints[action], { body: { realmId } }),
  post: (realmId: string) => call(postOpeningBalance, { params: { realmId } }),
  markDeleted: (realmId: string) => call(postIsDeletedFlag, { body: { realmId } }),
  journalEntries: (realmId: string, year: number, month: number) => duplicatesApi.find(OBAL_JE, realmId, { year, month }),
};

export function useObal() {
  return useQuery({ queryKey: obalKeys.state, queryFn: ({ signal }) => obalApi.get(signal) });
}

/** Only fetched once the period is locked: the server refuses a trial balance without one. */
export function useTrialBalance(realmId: string, state: ObalState | undefined) {
  const locked = state?.naturalYear != null && state.naturalMonth != null;
  return useQuery({
    queryKey: obalKeys.trialBalance(realmId, state?.naturalYear ?? null, state?.naturalMonth ?? null),
    queryFn: ({ signal }) => obalApi.trialBalance(realmId, signal),
    enabled: locked,
  });
}

/**
 * Every state-changing call answers with the new state, which replaces the cached one (SPEC §4);
 * trial balances are refetched only when the period itself changed (lock, reset).
 */
export function useObalMutation<V>(fn: (vars: V) => Promise<ObalState>, options: { periodChanges?: boolean } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (state) => {
      client.setQueryData(obalKeys.state, state);
      if (options.periodChanges) await client.invalidateQueries({ queryKey: [...obalKeys.all, "trialbalance"] });
    },
  });
}
