import { Skeleton, Text } from "@mantine/core";
import { localMonthOf } from "@groupledger/domain";
import type { Company } from "@groupledger/contract";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { useCompanies, useCompanyStatus, type StatusMap } from "../../companies/api.ts";
import { Failure } from "../../screens/components/Failure.tsx";
import { Screen } from "../../screens/components/Screen.tsx";
import { defaultMonth, periodContaining, rangeProblem, readState, writeState, type ReportPeriod } from "../period.ts";
import { ReportsAreaNav } from "./ReportsAreaNav.tsx";

/** What a statement of the reports area is drawn for: the group's parent, its companies and their syncs. */
export interface AreaGroup {
  parent: Company;
  companies: Company[];
  status: StatusMap;
}

/**
 * A page of the consolidated reports area under its tabs: the companies and their syncs loaded (a
 * skeleton, or the failure in words, meanwhile), and the statement drawn once there is a parent.
 */
export function ReportsAreaScreen({ description, children }: { description: string; children: (group: AreaGroup) => ReactNode }) {
  const companies = useCompanies();
  const status = useCompanyStatus();
  let body;
  if (companies.isPending || status.isPending) body = <Skeleton height={420} radius="md" />;
  else if (!companies.data || !status.data) body = <Failure title="The companies could not be loaded" message={companies.error?.message ?? status.error?.message} />;
  else {
    const parent = companies.data.find((c) => c.parent);
    body = parent ? children({ parent, companies: companies.data, status: status.data }) : <Text size="sm">Choose a parent company first on Connected Companies.</Text>;
  }
  return (
    <Screen title="Consolidated reports" description={description}>
      <ReportsAreaNav />
      {body}
    </Screen>
  );
}

/**
 * The period a reports-area page shows: the one the address names, else the `kind` (month, quarter,
 * year) holding the latest synced month. Choosing another keeps the report page's comparison and tab
 * in the address for when the user goes back to it.
 */
export function useAreaPeriod({ parent, companies, status }: AreaGroup, kind: Parameters<typeof periodContaining>[0]) {
  const [params, setParams] = useSearchParams();
  const currentMonth = localMonthOf(new Date());
  const fyStart = parent.fiscalYearStartMonth;
  const fromAddress = readState(params);
  const period: ReportPeriod = fromAddress.period ?? periodContaining(kind, defaultMonth(companies, status, currentMonth), fyStart);
  const onPeriod = (p: ReportPeriod) =>
    setParams((old) => writeState(old, { ...p, compare: fromAddress.compare ?? "none", view: fromAddress.view ?? "balance-sheet" }), { replace: true });
  return { period, onPeriod, currentMonth, fyStart, valid: rangeProblem(period.from, period.to) === null, params, setParams };
}
