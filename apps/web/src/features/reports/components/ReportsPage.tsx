import { Screen } from "../../screens/components/Screen.tsx";
import { ReportLinks } from "../equity/ReportLinks.tsx";
import { ConsolidatedReports } from "./ConsolidatedReports.tsx";

const DESCRIPTION =
  "The group's consolidated balance sheet, income statement and worksheet for any month, quarter, fiscal year or range: subsidiaries translated into the parent's currency, mapped onto its accounts, intercompany balances eliminated and non-controlling interests split out.";

/** /consolidation/reports: the consolidated reports on a page of their own (they are also a tab of Single Period / Company). */
export function ReportsPage() {
  return (
    <Screen title="Consolidated reports" description={DESCRIPTION}>
      <ReportLinks />
      <ConsolidatedReports />
    </Screen>
  );
}
