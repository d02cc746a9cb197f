import {
  getAccountAudit,
  getFxRates,
  getFxRatesTemplate,
  postFxRatesFetch,
  postFxRatesImport,
  putFxRates,
  type auditListSchema,
  type FxRate,
  type fxRatesFetchedSchema,
  type fxRatesUpdatedSchema,
} from "@groupledger/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { saveBlob } from "../../lib/download.ts";
import { call } from "../../lib/http.ts";
import type { MonthRangeValue } from "./model.ts";

export type FxUpdated = z.infer<typeof fxRatesUpdatedSchema>;
export type FxFetched = z.infer<typeof fxRatesFetchedSchema>;
export type AuditEntry = z.infer<typeof auditListSchema>["entries"][number];

/** Everything under ["fxrates"], so a save, an import or a fetch refreshes every range and the history at once. */
export const fxKeys = {
  all: ["fxrates"] as const,
  grid: (range: MonthRangeValue) => ["fxrates", "grid", range.from, range.to] as const,
  history: ["fxrates", "history"] as const,
};

/** How far back the change history looks: the audit log holds every account event, newest first. */
export const HISTORY_EVENTS = 500;


export const fxApi = {
  grid: (range: MonthRangeValue, signal?: AbortSignal) => call(getFxRates, { query: { from: range.from, to: range.to } }, { signal }),
  save: (rates: FxRate[]) => call(putFxRates, { body: { rates } }),
  fetchRates: (body: { from: string; to: string; overwrite: boolean }) => call(postFxRatesFetch, { body }),
  /** The file's text as is, sent as text/csv. */
  importCsv: (csv: string) => call(postFxRatesImport, { body: csv }),
  template: async (): Promise<Blob> => (await call(getFxRatesTemplate)).blob,
  history: (signal?: AbortSignal) => call(getAccountAudit, { query: { limit: HISTORY_EVENTS } }, { signal }),
};

/** The grid of a month range; the previous range stays on screen while the next one loads. */
export function useFxRates(range: MonthRangeValue, enabled = true) {
  return useQuery({
    queryKey: fxKeys.grid(range),
    queryFn: ({ signal }) => fxApi.grid(range, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useFxHistory(enabled: boolean) {
  return useQuery({ queryKey: fxKeys.history, queryFn: ({ signal }) => fxApi.history(signal), enabled, staleTime: 0 });
}

/** Every change to the rates answers with counts only, so the grid is read again. */
function useFxMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: fxKeys.all }) });
}

export const useSaveRates = () => useFxMutation(fxApi.save);
export const useImportRates = () => useFxMutation(fxApi.importCsv);
export const useFetchRates = () => useFxMutation(fxApi.fetchRates);

/** Saves the template through the browser: the file needs the session token, so a plain link would be refused. */
export async function downloadTemplate(): Promise<void> {
  saveBlob(await fxApi.template(), "fx-rates-template.csv");
}
