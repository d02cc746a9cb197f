import { Alert, Group, List, Paper, Progress, Stack, Table, Text } from "@mantine/core";
import { formatAmount } from "@groupledger/domain";
import { useMonthlyReports } from "../api.ts";
import { shortMonth, spanLabel } from "../period.ts";
import { compactMoney, niceScale, TREND_LINES, trendMonths, trendValues, type TrendKey, type TrendPoint } from "../trend.ts";

interface Props {
  from: string;
  to: string;
  currency: string;
  exponent: number;
}

const W = 920;
const H = 230;
const PAD = { left: 76, right: 16, top: 14, bottom: 30 };

/** A small line chart in plain SVG: the app needs two of them, not a charting library. */
function LineChart({ points, keys, currency, exponent, label, includeZero }: { points: TrendPoint[]; keys: TrendKey[]; currency: string; exponent: number; label: string; includeZero: boolean }) {
  const lines = TREND_LINES.filter((l) => keys.includes(l.key));
  const values = points.flatMap((p) => (p.values ? keys.map((k) => p.values![k]) : []));
  const scale = niceScale(values, 5, includeZero);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length === 1 ? plotW / 2 : (i * plotW) / (points.length - 1));
  const y = (v: number) => PAD.top + plotH - ((v - scale.min) / (scale.max - scale.min)) * plotH;
  // A month that could not be consolidated breaks the line rather than drawing through a guess.
  const path = (key: TrendKey) =>
    points
      .map((p, i) => (p.values ? `${i === 0 || !points[i - 1]!.values ? "M" : "L"}${x(i).toFixed(1)},${y(p.values[key]).toFixed(1)}` : ""))
      .join(" ");
  return (
    <Stack gap={4}>
      <Group gap="md">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        {lines.map((l) => (
          <Group key={l.key} gap={6}>
            <svg width="18" height="4" aria-hidden>
              <rect width="18" height="4" rx="2" fill={l.color} />
            </svg>
            <Text size="xs" c="dimmed">
              {l.label}
            </Text>
          </Group>
        ))}
      </Group>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={`${label}, ${lines.map((l) => l.label).join(", ")} by month`} style={{ display: "block", maxHeight: 260 }}>
        {scale.ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} stroke={t === 0 ? "#868e96" : "#e9ecef"} strokeWidth={1} />
            <text x={PAD.left - 8} y={y(t)} textAnchor="end" dominantBaseline="middle" fontSize="11" fill="#868e96">
              {compactMoney(t, currency, exponent)}
            </text>
          </g>
        ))}
        {points.map((p, i) => (
          <text key={p.month} x={x(i)} y={H - 10} textAnchor="middle" fontSize="11" fill="#868e96">
            {i === 0 || p.month.endsWith("-01") ? shortMonth(p.month) : shortMonth(p.month).slice(0, 3)}
          </text>
        ))}
        {lines.map((l) => (
          <g key={l.key}>
            <path d={path(l.key)} fill="none" stroke={l.color} strokeWidth={2.25} strokeLinejoin="round" strokeLinecap="round" />
            {points.map((p, i) =>
              p.values ? (
                <circle key={p.month} cx={x(i)} cy={y(p.values[l.key])} r={3.5} fill="white" stroke={l.color} strokeWidth={2}>
                  <title>{`${l.label}, ${shortMonth(p.month)}: ${formatAmount(p.values[l.key], currency)}`}</title>
                </circle>
              ) : null,
            )}
          </g>
        ))}
      </svg>
    </Stack>
  );
}

/**
 * Revenue, expenses, net income and total assets month by month over the selected period (its last
 * twelve months when longer): one report per month, which the server keeps once computed.
 */
export function TrendChart({ from, to, currency, exponent }: Props) {
  const { months, truncated } = trendMonths(from, to);
  const results = useMonthlyReports(months, true);
  const done = results.filter((r) => !r.isPending).length;
  if (done < months.length) {
    return (
      <Paper withBorder radius="md" p="lg" bg="white" aria-busy="true" data-testid="trend-loading">
        <Stack gap="xs">
          <Text size="sm" role="status">
            Consolidating {months.length === 1 ? "the month" : `each month: ${done} of ${months.length} done`}…
          </Text>
          <Progress value={(done / months.length) * 100} size="sm" animated />
        </Stack>
      </Paper>
    );
  }
  const points: TrendPoint[] = months.map((m, i) => ({ month: m, values: results[i]!.data ? trendValues(results[i]!.data) : null }));
  const missing = months
    .map((m, i) => {
      const r = results[i]!;
      if (r.error) return { month: m, why: r.error.message };
      if (r.data && !r.data.ok) return { month: m, why: r.data.problems[0]?.message ?? "The consolidation could not be computed." };
      return null;
    })
    .filter((x): x is { month: string; why: string } => x !== null);

  return (
    <Stack gap="md" data-testid="trend">
      <Text size="sm" c="dimmed" maw={820}>
        Each month consolidated on its own, in {currency}: {spanLabel(months[0]!, months.at(-1)!)}
        {truncated ? ` (the last ${months.length} months of the period)` : ""}. Revenue and expenses are the month&apos;s; total assets are at
        its end.
      </Text>
      {missing.length > 0 ? (
        <Alert color="orange" radius="md" title={`${missing.length === months.length ? "No month" : `${missing.length} month(s)`} could not be consolidated`}>
          <List size="sm">
            {missing.map((m) => (
              <List.Item key={m.month}>
                {shortMonth(m.month)}: {m.why}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {missing.length < months.length ? (
        <>
          <Paper withBorder radius="md" p="md" bg="white">
            <Stack gap="lg">
              <LineChart points={points} keys={["revenue", "expenses", "netIncome"]} currency={currency} exponent={exponent} label="Income statement" includeZero />
              <LineChart points={points} keys={["totalAssets"]} currency={currency} exponent={exponent} label="Balance sheet" includeZero={false} />
            </Stack>
          </Paper>
          <Table.ScrollContainer minWidth={720}>
            <Table fz="sm" verticalSpacing={4} withTableBorder striped aria-label="Key figures by month" style={{ background: "white" }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Month</Table.Th>
                  {TREND_LINES.map((l) => (
                    <Table.Th key={l.key} ta="right">
                      {l.label}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {points.map((p) => (
                  <Table.Tr key={p.month}>
                    <Table.Td>{shortMonth(p.month)}</Table.Td>
                    {TREND_LINES.map((l) => (
                      <Table.Td key={l.key} ta="right" style={{ fontVariantNumeric: "tabular-nums" }}>
                        {p.values ? formatAmount(p.values[l.key], currency) : "–"}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      ) : null}
    </Stack>
  );
}
