import { Tabs } from "@mantine/core";
import { useLocation, useNavigate } from "react-router";

/**
 * The consolidated reports area's own pages (issue 23), as tabs under the screen's title. Another
 * statement is one more line here and its route in app/routes.tsx. The report period travels in the
 * address, so switching page keeps it.
 */
export const REPORTS_AREA_TABS: readonly { path: string; label: string }[] = [
  { path: "/consolidation/reports", label: "Consolidated report" },
  { path: "/consolidation/reports/cash-flow", label: "Cash flow" },
  { path: "/consolidation/reports/equity", label: "Changes in equity" },
  { path: "/consolidation/reports/segments", label: "Segments" },
  { path: "/consolidation/reports/budget", label: "Budget vs actual" },
  // Last: the pack gathers the statements before it.
  { path: "/consolidation/reports/board-pack", label: "Board pack" },
];

export function ReportsAreaNav() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  // The longest path that the address starts with: /consolidation/reports/cash-flow is not the first tab.
  const active = [...REPORTS_AREA_TABS].sort((a, b) => b.path.length - a.path.length).find((t) => pathname === t.path || pathname.startsWith(`${t.path}/`));
  return (
    <Tabs value={active?.path ?? null} onChange={(path) => path && void navigate({ pathname: path, search })} aria-label="Consolidated reports">
      <Tabs.List>
        {REPORTS_AREA_TABS.map((t) => (
          <Tabs.Tab key={t.path} value={t.path}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
