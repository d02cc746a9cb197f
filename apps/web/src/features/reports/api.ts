import { errorBodySchema, reportSchema, type ConsolidatedReport } from "@groupledger/contract";
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { api, ApiError, BAD_RESPONSE_CODE, handleFailure, NETWORK_ERROR_CODE } from "../../lib/http.ts";
import { readToken } from "../session/tokenStore.ts";
import { fileNameFrom } from "./model.ts";
import type { Comparison } from "./period.ts";

export interface ReportQuery {
  from: string;
  to: string;
  compare: Comparison;
}

/** Everything under ["reports"]: the server's cache is keyed by every input, so ours only needs the query. */
export const reportKeys = {
  all: ["reports"] as const,
  report: (q: ReportQuery) => ["reports", q.from, q.to, q.compare] as const,
};

const queryString = (q: ReportQuery) => new URLSearchParams({ from: q.from, to: q.to, compare: q.compare }).toString();
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export const reportsApi = {
  report: (q: ReportQuery, signal?: AbortSignal) =>
    api<ConsolidatedReport>(`/consolidation/report?${queryString(q)}`, { schema: reportSchema, ...withSignal(signal) }),
};

/** The report of the chosen period; the previous one stays on screen (dimmed) while the next loads. */
export function useReport(q: ReportQuery | null) {
  return useQuery({
    queryKey: q ? reportKeys.report(q) : ["reports", "none"],
    queryFn: ({ signal }) => reportsApi.report(q!, signal),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
}

/** One report per month for the trend chart (the caller keeps the list to at most TREND_MONTHS). */
export function useMonthlyReports(months: readonly string[], enabled: boolean) {
  return useQueries({
    queries: months.map((m) => {
      const q: ReportQuery = { from: m, to: m, compare: "none" };
      return { queryKey: reportKeys.report(q), queryFn: ({ signal }: { signal?: AbortSignal }) => reportsApi.report(q, signal), enabled };
    }),
  });
}

/** Files to download, or the workbook mailed to the report delivery address ("email"). */
export type ReportFormat = "xlsx" | "csv" | "email";

const emailedSchema = z.object({ sentTo: z.string(), filename: z.string() });
/** The server builds the workbook and mails it (to the report delivery address set in Account Settings, else the user's email). */
export const emailReport = (q: ReportQuery) => api("/consolidation/report/email", { method: "POST", body: q, schema: emailedSchema });
const ACCEPT: Record<Exclude<ReportFormat, "email">, string> = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv",
};

/**
 * The report as a file. It needs the session token, so a plain link would be refused: the file is
 * fetched and handed to the browser under the name the server gave it. A 409 (something blocks the
 * consolidation) comes back as an ApiError whose message names what.
 */
export async function downloadReport(q: ReportQuery, format: Exclude<ReportFormat, "email">): Promise<string> {
  const headers: Record<string, string> = { accept: ACCEPT[format] };
  const token = readToken();
  if (token) headers["authorization"] = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(`/api/consolidation/report.${format}?${queryString(q)}`, { headers });
  } catch {
    throw handleFailure(new ApiError(0, NETWORK_ERROR_CODE, "The server could not be reached. Check your connection and try again."));
  }
  if (!res.ok) {
    const body = errorBodySchema.safeParse(await res.json().catch(() => null));
    throw handleFailure(
      body.success
        ? new ApiError(res.status, body.data.error.code, body.data.error.message, body.data.error.details ?? {})
        : new ApiError(res.status, BAD_RESPONSE_CODE, `The server answered ${res.status}.`),
    );
  }
  const name = fileNameFrom(res.headers.get("content-disposition"), `consolidation-${q.from}-${q.to}.${format}`);
  saveBlob(await res.blob(), name);
  return name;
}

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked on the next tick: some browsers start the download only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
