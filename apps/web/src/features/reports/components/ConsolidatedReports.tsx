import { Alert, Anchor, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import type { Company } from "@groupledger/contract";
import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { useCompanies, useCompanyAccounts, useCompanyStatus, type StatusMap } from "../../companies/api.ts";
import { downloadReport, emailReport, useReport, type ReportFormat } from "../api.ts";
import { localMonthOf, shiftMonth } from "@groupledger/domain";
import { defaultMonth, firstBookMonth, periodContaining, rangeProblem, readState, writeState, type ReportState } from "../period.ts";
import { ReportBody } from "./ReportBody.tsx";
import { DownloadButtons, ReportControls } from "./ReportControls.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

/**
 * Consolidated reports (issue 9): the group's balance sheet, income statement, worksheet and
 * entities for a month, fiscal quarter, fiscal year or any range, with a comparison period, a
 * trend chart, drill-down to transactions and the Excel and CSV files. A whole section with its own
 * controls; the period, comparison and tab live in the address, so Back from a drill-down returns
 * to the same report.
 */
export function ConsolidatedReports() {
  const companies = useCompanies();
  const status = useCompanyStatus();
  if (companies.isPending || status.isPending) return <Skeleton height={420} radius="md" data-testid="reports-loading" />;
  if (!companies.data || !status.data) {
    return (
      <Alert color="red" role="alert" title="The companies could not be loaded">
        {companies.error?.message ?? status.error?.message}
      </Alert>
    );
  }
  const parent = companies.data.find((c) => c.parent);
  if (!parent) {
    return (
      <Paper withBorder radius="md" p="xl" bg="white" data-testid="empty-state">
        <Stack gap="xs" align="flex-start">
          <Title order={2} size="h4">
            Choose a parent company first
          </Title>
          <Text size="sm" c="dimmed" maw={680}>
            The consolidated statements are drawn up in the parent&apos;s currency and on its chart of accounts.
          </Text>
          <Anchor component={Link} to="/setup/companies" size="sm">
            Set the parent on Connected Companies
          </Anchor>
        </Stack>
      </Paper>
    );
  }
  return <ReportSection parent={parent} companies={companies.data} status={status.data} />;
}

function ReportSection({ parent, companies, status }: { parent: Company; companies: Company[]; status: StatusMap }) {
  const [params, setParams] = useSearchParams();
  const currentMonth = localMonthOf(new Date());
  const fyStart = parent.fiscalYearStartMonth;
  const lastMonth = currentMonth;
  const firstMonth = firstBookMonth(companies, shiftMonth(currentMonth, -36));
  const fromAddress = readState(params);
  const state: ReportState = {
    ...(fromAddress.period ?? periodContaining("month", defaultMonth(companies, status, currentMonth), fyStart)),
    compare: fromAddress.compare ?? "none",
    view: fromAddress.view ?? "balance-sheet",
  };
  // Replaced, not pushed: Back leaves the report rather than stepping through every control change.
  const update = (patch: Partial<ReportState>) => setParams((p) => writeState(p, { ...state, ...patch }), { replace: true });

  const valid = rangeProblem(state.from, state.to) === null;
  const query = valid ? { from: state.from, to: state.to, compare: state.compare } : null;
  const report = useReport(query);
  const numbers = useAccountNumbers(parent, status);

  const [downloading, setDownloading] = useState<ReportFormat | null>(null);
  /** `verify`: the report address still waits for its code, which is entered in Account settings. */
  const [download, setDownload] = useState<{ ok: boolean; text: string; verify?: boolean } | null>(null);
  const onDownload = async (format: ReportFormat) => {
    if (!query) return;
    setDownloading(format);
    setDownload(null);
    try {
      if (format === "email") {
        const sent = await emailReport(query);
        setDownload({ ok: true, text: `Sent ${sent.filename} to ${sent.sentTo}.` });
      } else {
        const name = await downloadReport(query, format);
        setDownload({ ok: true, text: `Saved ${name}.` });
      }
    } catch (e) {
      setDownload({ ok: false, text: messageOf(e), verify: e instanceof ApiError && e.code === "report_email_unverified" });
    } finally {
      setDownloading(null);
    }
  };

  const data = report.data;
  const current = data && data.period.from === state.from && data.period.to === state.to;
  const downloadBlocked = !query
    ? "Choose a valid period first."
    : !data || report.isFetching
      ? "The report is still being prepared."
      : !data.ok
        ? "The consolidation has problems (listed below); fix them before downloading."
        : null;

  return (
    <Stack gap="md" data-testid="consolidated-reports">
      <ReportControls
        period={state}
        compare={state.compare}
        fyStart={fyStart}
        firstMonth={firstMonth}
        lastMonth={lastMonth}
        currentMonth={currentMonth}
        onPeriod={(p) => {
          setDownload(null);
          update(p);
        }}
        onCompare={(compare) => update({ compare })}
      />
      {download ? (
        <Text size="sm" c={download.ok ? "teal.9" : "red.8"} role={download.ok ? "status" : "alert"} data-testid="download-result">
          {download.text}{" "}
          {download.verify ? (
            <Anchor component={Link} to="/settings" size="sm" fw={600}>
              Verify the address in Account settings
            </Anchor>
          ) : null}
        </Text>
      ) : null}
      {report.isPending && query ? <Skeleton height={480} radius="md" data-testid="report-loading" /> : null}
      <Failure title="The report could not be prepared" message={report.error?.message} />
      {data ? (
        <div style={{ opacity: current && !report.isPlaceholderData ? 1 : 0.55, transition: "opacity 120ms" }} aria-busy={report.isFetching || undefined}>
          <ReportBody
            report={data}
            parent={parent}
            state={state}
            numbers={numbers}
            inProgress={data.period.to >= currentMonth}
            onView={(view) => update({ view })}
            downloads={<DownloadButtons blocked={downloadBlocked} downloading={downloading} onDownload={(f) => void onDownload(f)} />}
          />
        </div>
      ) : null}
    </Stack>
  );
}

/** The parent's account numbers by account id, once its chart has loaded (empty until then). */
function useAccountNumbers(parent: Company, status: StatusMap): ReadonlyMap<string, string> {
  const chart = useCompanyAccounts(parent.realmId, status[parent.realmId]?.sync.lastSyncedAt ?? null);
  return useMemo(() => new Map((chart.data ?? []).filter((a) => a.acctNum).map((a) => [a.Id, a.acctNum!])), [chart.data]);
}
