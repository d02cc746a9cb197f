import { getSegments, postSegmentsEnable, type SegmentQuery } from "@groupledger/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { companyKeys } from "../../companies/api.ts";
import { call } from "../../../lib/http.ts";

export const segmentKeys = {
  statement: (q: SegmentQuery) => ["segments", q.statement, q.by, q.from, q.to] as const,
};

export const segmentApi = {
  statement: (q: SegmentQuery, signal?: AbortSignal) => call(getSegments, { query: { from: q.from, to: q.to, by: q.by, statement: q.statement } }, { signal }),
  enable: () => call(postSegmentsEnable, {}),
};

/** Turns segments on for the group: each company syncs now (their progress shows through the companies' status). */
export function useEnableSegments() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => segmentApi.enable(),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: companyKeys.status });
      await client.invalidateQueries({ queryKey: ["segments"] });
    },
  });
}

/** The statement (P&L or balance sheet) of the chosen period and dimension; the previous one stays on screen (dimmed) while the next loads. */
export function useSegments(q: SegmentQuery | null) {
  return useQuery({
    queryKey: q ? segmentKeys.statement(q) : ["segments", "none"],
    queryFn: ({ signal }) => segmentApi.statement(q!, signal),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
}
