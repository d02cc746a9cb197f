import {
  deleteIntragroupInventory,
  getIntragroup,
  putIntragroupDividends,
  putIntragroupInventory,
  type DividendEliminationRequest,
  type IntragroupInventoryRequest,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";
import { adjustmentKeys } from "../adjustments/api.ts";

export const intragroupKeys = { all: ["intragroup"] as const };

export const intragroupApi = {
  get: (signal?: AbortSignal) => call(getIntragroup, {}, signal ? { signal } : {}),
  saveInventory: (body: IntragroupInventoryRequest) => call(putIntragroupInventory, { body }),
  deleteInventory: (id: string) => call(deleteIntragroupInventory, { params: { id } }),
  saveDividends: ({ realmId, body }: { realmId: string; body: DividendEliminationRequest }) => call(putIntragroupDividends, { params: { realmId }, body }),
};

export function useIntragroup() {
  return useQuery({ queryKey: intragroupKeys.all, queryFn: ({ signal }) => intragroupApi.get(signal) });
}

/** Anything recorded here changes what a period adjusts: the group adjustments are refetched too. */
export function useIntragroupMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: intragroupKeys.all });
      await client.invalidateQueries({ queryKey: adjustmentKeys.all });
    },
  });
}
