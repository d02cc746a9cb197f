import {
  deleteCompanyMap,
  getCompanyMap,
  getCompanyMaps,
  getCompanyMapSuggestions,
  postCompanyMap,
  postCompanyMultimap,
  postCompanyUnmap,
  postCompanyUnmapInvalid,
  type CompanyMap,
  type suggestionsResponseSchema,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { call } from "../../lib/http.ts";
import { companiesApi, companyKeys } from "../companies/api.ts";

export type Suggestions = z.infer<typeof suggestionsResponseSchema>["suggestions"];

/** Everything about maps lives under ["maps"], so one invalidation refreshes a company's map, all maps and suggestions. */
export const mappingKeys = {
  all: ["maps"] as const,
  allMaps: ["maps", "all"] as const,
  company: (realmId: string) => ["maps", "company", realmId] as const,
  suggestions: (realmId: string) => ["maps", "suggestions", realmId] as const,
};


export const mappingApi = {
  map: (realmId: string, signal?: AbortSignal) => call(getCompanyMap, { params: { realmId } }, { signal }),
  maps: (signal?: AbortSignal) => call(getCompanyMaps, {}, { signal }),
  suggestions: (realmId: string, signal?: AbortSignal) => call(getCompanyMapSuggestions, { params: { realmId }, query: {} }, { signal }),
  setMap: (realmId: string, map: Record<string, string>) => call(postCompanyMap, { params: { realmId }, body: { map } }),
  multimap: (realmId: string, map: Record<string, string[]>) => call(postCompanyMultimap, { params: { realmId }, body: { map } }),
  unmap: (realmId: string, accountIds: string[]) => call(postCompanyUnmap, { params: { realmId }, body: { accountIds } }),
  removeAll: (realmId: string) => call(deleteCompanyMap, { params: { realmId } }),
  unmapInvalid: (realmId: string, accountIds: string[]) => call(postCompanyUnmapInvalid, { params: { realmId }, body: { accountIds } }),
};

export function useCompanyMap(realmId: string | null) {
  return useQuery({
    queryKey: mappingKeys.company(realmId ?? ""),
    queryFn: ({ signal }) => mappingApi.map(realmId ?? "", signal),
    enabled: realmId !== null,
  });
}

/** GET /api/companies/maps: the progress of every subsidiary (tabs, onboarding step 2). */
export function useAllMaps(enabled = true) {
  return useQuery({ queryKey: mappingKeys.allMaps, queryFn: ({ signal }) => mappingApi.maps(signal), enabled });
}

export function useSuggestions(realmId: string | null) {
  return useQuery({
    queryKey: mappingKeys.suggestions(realmId ?? ""),
    queryFn: ({ signal }) => mappingApi.suggestions(realmId ?? "", signal),
    enabled: realmId !== null,
    select: (r) => r.suggestions,
  });
}

export type MapChange =
  | { kind: "map"; map: Record<string, string> }
  | { kind: "multimap"; map: Record<string, string[]> }
  | { kind: "unmap"; accountIds: string[] }
  | { kind: "removeAll" }
  | { kind: "unmapInvalid"; accountIds: string[] };

function runChange(realmId: string, change: MapChange): Promise<CompanyMap> {
  switch (change.kind) {
    case "map":
      return mappingApi.setMap(realmId, change.map);
    case "multimap":
      return mappingApi.multimap(realmId, change.map);
    case "unmap":
      return mappingApi.unmap(realmId, change.accountIds);
    case "removeAll":
      return mappingApi.removeAll(realmId);
    case "unmapInvalid":
      return mappingApi.unmapInvalid(realmId, change.accountIds);
  }
}

/**
 * Every map change, then a re-fetch of the company's map (SPEC §4 Account mapping) together with
 * the all-companies progress and the suggestions, which both depend on what is mapped. The
 * change's own answer is not trusted as the final state: the re-fetch is what the spec asks for.
 */
export function useMapChange(realmId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: MapChange) => runChange(realmId, change),
    onSettled: () => client.invalidateQueries({ queryKey: mappingKeys.all }),
  });
}

/**
 * A company's chart of accounts, under the companies feature's key (so the cache is shared with
 * the companies screen), and only once the company is known.
 */
export function useChart(realmId: string | null, lastSyncedAt: string | null) {
  return useQuery({
    queryKey: companyKeys.accounts(realmId ?? "", lastSyncedAt),
    queryFn: ({ signal }) => companiesApi.accounts(realmId ?? "", signal),
    enabled: realmId !== null,
  });
}
