import { obalStateSchema, type ObalState } from "@groupledger/contract";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/http.ts";

export const obalKeys = { state: ["obal"] as const };

export const obalApi = {
  get: (signal?: AbortSignal) => api<ObalState>("/obal", { schema: obalStateSchema, ...(signal ? { signal } : {}) }),
};

export function useObal() {
  return useQuery({ queryKey: obalKeys.state, queryFn: ({ signal }) => obalApi.get(signal) });
}
