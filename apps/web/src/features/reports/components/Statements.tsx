import { Badge, Group, Stack, Text } from "@mantine/core";
import { IconCircleCheck, IconScaleOutline } from "@tabler/icons-react";
import { formatAmount } from "@groupledger/domain";
import { balanceSheetView, incomeStatementView, type BalanceSheet, type IncomeStatement } from "../model.ts";
import { StatementTable, type DrillContext } from "./StatementTable.tsx";

interface Common {
  currency: string;
  periodLabel: string;
  priorLabel: string | null;
  drill: DrillContext;
}

/** Assets = liabilities + equity + NCI, said as a badge the reader can check against the totals below it. */
function BalancedBadge({ b, currency }: { b: BalanceSheet; currency: string }) {
  if (b.balanced) {
    return (
      <Badge color="teal" variant="light" size="lg" leftSection={<IconCircleCheck size={14} aria-hidden />} data-testid="balanced">
        Balanced
      </Badge>
    );
  }
  const gap = b.totalAssets - (b.totalLiabilities + b.totalEquity + b.nonControllingInterests);
  return (
    <Badge color="red" variant="filled" size="lg" leftSection={<IconScaleOutline size={14} aria-hidden />} data-testid="balanced">
      Out of balance by {formatAmount(gap, currency)}
    </Badge>
  );
}

export function BalanceSheetPanel({ b, prior, ...c }: Common & { b: BalanceSheet; prior: BalanceSheet | null }) {
  const v = balanceSheetView(b, prior);
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed" maw={760}>
          Balances at the end of the period in {c.currency}. Assets are debit balances; liabilities, equity and non-controlling interests credit
          balances. Equity includes the period&apos;s net income attributable to the owners of the parent.
        </Text>
        <Group gap="xs">
          <BalancedBadge b={b} currency={c.currency} />
          {prior ? (
            <Badge color={prior.balanced ? "teal" : "red"} variant="outline" data-testid="prior-balanced">
              {c.priorLabel}: {prior.balanced ? "balanced" : "out of balance"}
            </Badge>
          ) : null}
        </Group>
      </Group>
      <StatementTable
        label="Consolidated balance sheet"
        {...c}
        sections={[
          { title: "Assets", rows: v.assets, totalLabel: "Total assets", total: v.totalAssets },
          { title: "Liabilities", rows: v.liabilities, totalLabel: "Total liabilities", total: v.totalLiabilities },
          { title: "Equity", rows: v.equity, totalLabel: "Total equity", total: v.totalEquity },
        ]}
        lines={[
          { label: "Non-controlling interests", totals: v.nci, testId: "line-nci" },
          { label: "Total liabilities, equity and non-controlling interests", totals: v.totalLiabilitiesAndEquity, strong: true, testId: "line-total-liabilities-equity" },
        ]}
      />
    </Stack>
  );
}

export function IncomeStatementPanel({ p, prior, ...c }: Common & { p: IncomeStatement; prior: IncomeStatement | null }) {
  const v = incomeStatementView(p, prior);
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" maw={760}>
        Revenue and expenses over the period in {c.currency}, each subsidiary&apos;s translated month by month at that month&apos;s average rate,
        after intercompany eliminations.
      </Text>
      <StatementTable
        label="Consolidated income statement"
        {...c}
        sections={[
          { title: "Revenue", rows: v.revenue, totalLabel: "Total revenue", total: v.totalRevenue },
          { title: "Expenses", rows: v.expenses, totalLabel: "Total expenses", total: v.totalExpenses },
        ]}
        lines={[
          { label: "Net income", totals: v.netIncome, strong: true, testId: "line-net-income" },
          { label: "Attributable to non-controlling interests", totals: v.attributableToNci, testId: "line-attributable-nci" },
          { label: "Attributable to owners of the parent", totals: v.attributableToParent, strong: true, testId: "line-attributable-parent" },
        ]}
      />
    </Stack>
  );
}
