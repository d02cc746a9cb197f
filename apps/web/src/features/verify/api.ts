import { getConsolidationPostings, getVerify } from "@groupledger/contract";
import { monthParts } from "@groupledger/domain";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";

export const verifyKeys = {
  all: ["verify"] as const,
  month: (month: string) => ["verify", month] as const,
  postings: ["verify", "postings"] as const,
};

export const verifyApi = {
  verify: (month: string, signal?: AbortSignal) => call(getVerify, { query: monthParts(month) }, signal ? { signal } : {}),
  postings: (signal?: AbortSignal) => call(getConsolidationPostings, { query: {} }, signal ? { signal } : {}).then((r) => r.postings),
};

/** A month's reconciliation, read from QuickBooks as it is now: never served from an old answer. */
export function useVerify(month: string | null) {
  return useQuery({
    queryKey: month ? verifyKeys.month(month) : ["verify", "none"],
    queryFn: ({ signal }) => verifyApi.verify(month!, signal),
    enabled: month !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** Every entry the consolidation has posted, to open on the last month something was posted for. */
export function usePostedPeriods() {
  return useQuery({ queryKey: verifyKeys.postings, queryFn: ({ signal }) => verifyApi.postings(signal) });
}
