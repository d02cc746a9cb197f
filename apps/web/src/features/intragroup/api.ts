import {
  dividendEliminationSchema,
  intragroupInventorySchema,
  intragroupSchema,
  type DividendEliminationRequest,
  type Intragroup,
  type IntragroupInventory,
  type IntragroupInventoryRequest,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/http.ts";
import { adjustmentKeys } from "../adjustments/api.ts";

export const intragroupKeys = { all: ["intragroup"] as const };

export const intragroupApi = {
  get: (signal?: AbortSignal) => api<Intragroup>("/intragroup", { schema: intragroupSchema, ...(signal ? { signal } : {}) }),
  saveInventory: (body: IntragroupInventoryRequest) => api<IntragroupInventory>("/intragroup/inventory", { method: "PUT", body, schema: intragroupInventorySchema }),
  deleteInventory: (id: string) => api(`/intragroup/inventory/${encodeURIComponent(id)}`, { method: "DELETE" }),
  saveDividends: ({ realmId, body }: { realmId: string; body: DividendEliminationRequest }) =>
    api(`/intragroup/dividends/${encodeURIComponent(realmId)}`, { method: "PUT", body, schema: dividendEliminationSchema }),
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
