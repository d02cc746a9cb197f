import { Anchor, Group } from "@mantine/core";
import { Link, useLocation } from "react-router";

/**
 * The consolidated reports' pages as links under the title, carrying the period (the address's
 * report parameters) from one to the other. A stand-in for the reports area's sub-navigation: when
 * that exists, its tabs take these entries.
 */
const PAGES = [
  { path: "/consolidation/reports", label: "Statements" },
  { path: "/consolidation/reports/equity", label: "Changes in equity" },
] as const;

export function ReportLinks() {
  const { pathname, search } = useLocation();
  return (
    <Group gap="md" component="nav" aria-label="Consolidated reports" data-testid="report-links">
      {PAGES.map((p) => {
        const current = pathname === p.path;
        return (
          <Anchor key={p.path} component={Link} to={`${p.path}${search}`} size="sm" fw={current ? 700 : 500} aria-current={current ? "page" : undefined} underline={current ? "always" : "hover"}>
            {p.label}
          </Anchor>
        );
      })}
    </Group>
  );
}
