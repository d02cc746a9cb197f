import {
  auditListSchema,
  errorBodySchema,
  fxRatesFetchedSchema,
  fxRatesResponseSchema,
  fxRatesUpdatedSchema,
  type FxRate,
  type FxRatesResponse,
} from "@groupledger/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api, ApiError, BAD_RESPONSE_CODE, handleFailure, NETWORK_ERROR_CODE } from "../../lib/http.ts";
import { readToken } from "../session/tokenStore.ts";
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

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/**
 * The two calls that are not JSON (a CSV up, a CSV down), with the same token, error shape and
 * global handling as lib/http.ts's api().
 */
async function rawCall(path: string, init: { method: string; body?: string; contentType?: string; accept: string }): Promise<Response> {
  const headers: Record<string, string> = { accept: init.accept };
  const token = readToken();
  if (token) headers["authorization"] = `Bearer ${token}`;
  if (init.contentType) headers["content-type"] = init.contentType;
  let res: Response;
  try {
    res = await fetch(`/api${path}`, { method: init.method, headers, ...(init.body !== undefined ? { body: init.body } : {}) });
  } catch {
    throw handleFailure(new ApiError(0, NETWORK_ERROR_CODE, "The server could not be reached. Check your connection and try again."));
  }
  if (res.ok) return res;
  const body = errorBodySchema.safeParse(await res.json().catch(() => null));
  throw handleFailure(
    body.success
      ? new ApiError(res.status, body.data.error.code, body.data.error.message, body.data.error.details ?? {})
      : new ApiError(res.status, BAD_RESPONSE_CODE, `The server answered ${res.status}.`),
  );
}

export const fxApi = {
  grid: (range: MonthRangeValue, signal?: AbortSignal) =>
    api<FxRatesResponse>(`/fxrates?from=${range.from}&to=${range.to}`, { schema: fxRatesResponseSchema, ...withSignal(signal) }),
  save: (rates: FxRate[]) => api<FxUpdated>("/fxrates", { method: "PUT", body: { rates }, schema: fxRatesUpdatedSchema }),
  fetchRates: (body: { from: string; to: string; overwrite: boolean }) =>
    api<FxFetched>("/fxrates/fetch", { method: "POST", body, schema: fxRatesFetchedSchema }),
  importCsv: async (csv: string): Promise<FxUpdated> => {
    const res = await rawCall("/fxrates/import", { method: "POST", body: csv, contentType: "text/csv", accept: "application/json" });
    const parsed = fxRatesUpdatedSchema.safeParse(await res.json().catch(() => undefined));
    if (!parsed.success) throw handleFailure(new ApiError(0, BAD_RESPONSE_CODE, "The server's answer to the import has an unexpected shape."));
    return parsed.data;
  },
  template: async (): Promise<Blob> => (await rawCall("/fxrates/template.csv", { method: "GET", accept: "text/csv" })).blob(),
  history: (signal?: AbortSignal) => api(`/account/audit?limit=${HISTORY_EVENTS}`, { schema: auditListSchema, ...withSignal(signal) }),
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
  const blob = await fxApi.template();
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = "fx-rates-template.csv";
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked on the next tick: some browsers start the download only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
