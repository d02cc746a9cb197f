import { Anchor, Badge, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import { formatAmount } from "@groupledger/domain";
import { change, drillHref, isUnmappedRow, type StatementRow, type Totals } from "../model.ts";

export interface StatementSection {
  title: string;
  rows: StatementRow[];
  totalLabel: string;
  total: Totals;
}

export interface StatementLine {
  label: string;
  totals: Totals;
  strong?: boolean;
  testId?: string;
}

export interface DrillContext {
  from: string;
  to: string;
  /** The comparison period's months, so its figures open its own transactions. */
  prior: { from: string; to: string } | null;
  /** Parent accounts with transactions behind them (worksheet rows of role "account"). */
  accounts: ReadonlySet<string>;
  /** Parent account numbers by id (QBO AcctNum); an accountant knows an account by its number. */
  numbers: ReadonlyMap<string, string>;
}

interface Props {
  label: string;
  currency: string;
  periodLabel: string;
  /** Null without a comparison; the comparison period's heading otherwise. */
  priorLabel: string | null;
  sections: StatementSection[];
  lines: StatementLine[];
  drill: DrillContext;
}

const mono = { fontVariantNumeric: "tabular-nums" } as const;

function Figure({ amount, currency, account, months, drill, strong }: { amount: number; currency: string; account: string | null; months: { from: string; to: string } | null; drill: DrillContext; strong?: boolean }) {
  const text = formatAmount(amount, currency);
  if (account && months && amount !== 0 && drill.accounts.has(account)) {
    return (
      <Anchor component={Link} to={drillHref({ account, ...months })} underline="hover" size="sm" fw={strong ? 700 : undefined} style={mono} title="Show the transactions behind this figure">
        {text}
      </Anchor>
    );
  }
  return (
    <Text span size="sm" fw={strong ? 700 : undefined} style={mono}>
      {text}
    </Text>
  );
}

function ChangeCells({ amount, prior, currency, strong }: { amount: number; prior: number | null; currency: string; strong?: boolean }) {
  const c = change(amount, prior);
  if (!c) return null;
  return (
    <>
      <Table.Td ta="right" fw={strong ? 700 : undefined} style={mono}>
        {formatAmount(c.amount, currency)}
      </Table.Td>
      <Table.Td ta="right" c="dimmed" style={mono}>
        {c.percent ?? "–"}
      </Table.Td>
    </>
  );
}

/** A statement: sections of account lines with totals, then summary lines, each beside the comparison period when there is one. */
export function StatementTable({ label, currency, periodLabel, priorLabel, sections, lines, drill }: Props) {
  const withPrior = priorLabel !== null;
  const columns = withPrior ? 5 : 2;
  const current = { from: drill.from, to: drill.to };
  return (
    <Table.ScrollContainer minWidth={withPrior ? 900 : 560}>
      <Table fz="sm" verticalSpacing={5} highlightOnHover aria-label={label} style={{ background: "white" }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Account</Table.Th>
            <Table.Th ta="right" w={180}>
              {periodLabel}
            </Table.Th>
            {withPrior ? (
              <>
                <Table.Th ta="right" w={180}>
                  {priorLabel}
                </Table.Th>
                <Table.Th ta="right" w={160}>
                  Change
                </Table.Th>
                <Table.Th ta="right" w={80}>
                  %
                </Table.Th>
              </>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sections.map((s) => (
            <SectionRows key={s.title} section={s} columns={columns} currency={currency} drill={drill} current={current} />
          ))}
          {lines.map((l) => (
            <Table.Tr key={l.label} data-testid={l.testId} style={l.strong ? { borderTop: "2px solid var(--mantine-color-gray-5)" } : undefined}>
              <Table.Td fw={l.strong ? 700 : 500}>{l.label}</Table.Td>
              <Table.Td ta="right">
                <Figure amount={l.totals.amount} currency={currency} account={null} months={null} drill={drill} strong={l.strong} />
              </Table.Td>
              {withPrior ? (
                <>
                  <Table.Td ta="right">{l.totals.prior === null ? "–" : <Figure amount={l.totals.prior} currency={currency} account={null} months={null} drill={drill} strong={l.strong} />}</Table.Td>
                  <ChangeCells amount={l.totals.amount} prior={l.totals.prior} currency={currency} strong={l.strong} />
                </>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function SectionRows({ section, columns, currency, drill, current }: { section: StatementSection; columns: number; currency: string; drill: DrillContext; current: { from: string; to: string } }) {
  const withPrior = columns > 2;
  return (
    <>
      <Table.Tr style={{ background: "var(--mantine-color-gray-0)" }}>
        <Table.Td colSpan={columns} fw={700} tt="uppercase" fz="xs" c="dimmed" style={{ letterSpacing: 0.4 }}>
          {section.title}
        </Table.Td>
      </Table.Tr>
      {section.rows.length === 0 ? (
        <Table.Tr>
          <Table.Td colSpan={columns} c="dimmed" pl="lg">
            No balances in this section.
          </Table.Td>
        </Table.Tr>
      ) : null}
      {section.rows.map((r) => {
        const number = drill.numbers.get(r.account);
        return (
          <Table.Tr key={r.account} data-account={r.account}>
            <Table.Td pl="lg">
              {number ? (
                <Text span size="xs" c="dimmed" ff="monospace" mr={8}>
                  {number}
                </Text>
              ) : null}
              {r.name}
              {isUnmappedRow(r.account) ? (
                <Badge size="xs" color="orange" variant="light" ml={8}>
                  Unmapped
                </Badge>
              ) : null}
            </Table.Td>
            <Table.Td ta="right">
              <Figure amount={r.amount} currency={currency} account={r.account} months={current} drill={drill} />
            </Table.Td>
            {withPrior ? (
              <>
                <Table.Td ta="right">
                  <Figure amount={r.prior ?? 0} currency={currency} account={r.account} months={drill.prior} drill={drill} />
                </Table.Td>
                <ChangeCells amount={r.amount} prior={r.prior} currency={currency} />
              </>
            ) : null}
          </Table.Tr>
        );
      })}
      <Table.Tr data-testid={`total-${section.title.toLowerCase().replace(/\s+/g, "-")}`}>
        <Table.Td fw={700}>{section.totalLabel}</Table.Td>
        <Table.Td ta="right" style={{ borderTop: "1px solid var(--mantine-color-gray-5)" }}>
          <Figure amount={section.total.amount} currency={currency} account={null} months={null} drill={drill} strong />
        </Table.Td>
        {withPrior ? (
          <>
            <Table.Td ta="right" style={{ borderTop: "1px solid var(--mantine-color-gray-5)" }}>
              {section.total.prior === null ? "–" : <Figure amount={section.total.prior} currency={currency} account={null} months={null} drill={drill} strong />}
            </Table.Td>
            <ChangeCells amount={section.total.amount} prior={section.total.prior} currency={currency} strong />
          </>
        ) : null}
      </Table.Tr>
    </>
  );
}
