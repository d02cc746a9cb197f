import {
  getConsolidationReport,
  getConsolidationReportCsv,
  getConsolidationReportXlsx,
  postConsolidationReportEmail,
  type ReportQuery,
} from "@groupledger/contract";
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { saveBlob } from "../../lib/download.ts";
import { call } from "../../lib/http.ts";
import { fileNameFrom } from "./model.ts";

/** Everything under ["reports"]: the server's cache is keyed by every input, so ours only needs the query. */
export const reportKeys = {
  all: ["reports"] as const,
  report: (q: ReportQuery) => ["reports", q.from, q.to, q.compare] as const,
};

/** The query as sent: always in this order (from, to, compare), whatever object the caller built. */
const query = (q: ReportQuery): ReportQuery => ({ from: q.from, to: q.to, compare: q.compare });

export const reportsApi = {
  report: (q: ReportQuery, signal?: AbortSignal) => call(getConsolidationReport, { query: query(q) }, { signal }),
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

/** The server builds the workbook and mails it (to the report delivery address set in Account Settings, else the user's email). */
export const emailReport = (q: ReportQuery) => call(postConsolidationReportEmail, { body: query(q) });

const FILES = { xlsx: getConsolidationReportXlsx, csv: getConsolidationReportCsv } as const;

/**
 * The report as a file, saved under the name the server gave it. A 409 (something blocks the
 * consolidation) comes back as an ApiError whose message names what.
 */
export async function downloadReport(q: ReportQuery, format: Exclude<ReportFormat, "email">): Promise<string> {
  const { blob, disposition } = await call(FILES[format], { query: query(q) });
  const name = fileNameFrom(disposition, `consolidation-${q.from}-${q.to}.${format}`);
  saveBlob(blob, name);
  return name;
}
