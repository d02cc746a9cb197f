import { Anchor, Badge, Box, Group, Stack, Switch, Text } from "@mantine/core";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useMemo, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { Link } from "react-router";
import { formatAmount } from "@groupledger/domain";
import { columnKind, columnTotals, drillHref, isUnmappedRow, VIRTUALIZE_ABOVE, worksheetRows, type Worksheet, type WorksheetRow } from "../model.ts";

interface Props {
  worksheet: Worksheet;
  currency: string;
  from: string;
  to: string;
  accounts: ReadonlySet<string>;
  numbers: ReadonlyMap<string, string>;
  /** Grid height in px; the rows scroll inside it under a header and totals that stay put. */
  height?: number;
}

const ROW_HEIGHT = 34;
const ACCOUNT_W = 270;
const CLASS_W = 84;
const AMOUNT_W = 140;
const border = "1px solid var(--mantine-color-gray-3)";
const mono: CSSProperties = { fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" };

/** The two first columns stay in view while the amounts scroll sideways. */
const stickyLeft = (left: number, background: string, zIndex = 1): CSSProperties => ({ position: "sticky", left, zIndex, background });
/** So does the consolidated column, the one the others add up to, at the right edge. */
const stickyRight = (id: string, background: string, zIndex = 1): CSSProperties =>
  columnKind(id) === "consolidated" ? { position: "sticky", right: 0, zIndex, background, borderLeft: border } : {};

function columnBackground(id: string, base = "white"): string {
  const kind = columnKind(id);
  if (kind === "consolidated") return "var(--mantine-color-blue-0)";
  if (kind === "eliminations" || kind === "nci") return "var(--mantine-color-gray-0)";
  return base;
}

function Cell({ children, style, role = "cell" }: { children?: ReactNode; style?: CSSProperties; role?: string }) {
  return (
    <div role={role} style={{ display: "flex", alignItems: "center", padding: "0 10px", minWidth: 0, ...style }}>
      {children}
    </div>
  );
}

/**
 * The consolidation worksheet: every parent account down, each entity translated and mapped, the
 * eliminations, the non-controlling interests and the consolidated figure across (debit positive,
 * each row adds across, each column balances). Past VIRTUALIZE_ABOVE rows only the rows on screen
 * are in the page.
 */
export function WorksheetView({ worksheet, currency, from, to, accounts, numbers, height = 600 }: Props) {
  const [showEmpty, setShowEmpty] = useState(false);
  const rows = useMemo(() => worksheetRows(worksheet, showEmpty), [worksheet, showEmpty]);
  const totals = useMemo(() => columnTotals(worksheet), [worksheet]);
  const virtual = rows.length > VIRTUALIZE_ABOVE;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // Before the browser has measured the box (and in tests, which have no layout) draw a screenful.
    initialRect: { width: 1200, height },
  });
  const n = worksheet.columns.length;
  const template = `${ACCOUNT_W}px ${CLASS_W}px repeat(${n}, minmax(${AMOUNT_W}px, 1fr))`;
  const minWidth = ACCOUNT_W + CLASS_W + n * AMOUNT_W;
  const rowStyle: CSSProperties = { display: "grid", gridTemplateColumns: template, minWidth, height: ROW_HEIGHT, borderBottom: "1px solid var(--mantine-color-gray-2)" };
  const hidden = worksheet.rows.length - worksheetRows(worksheet, false).length;
  const outOfBalance = worksheet.columns.filter((_, i) => !totals.balanced[i]);

  const amountCell = (row: WorksheetRow, i: number) => {
    const col = worksheet.columns[i]!;
    const amount = row.amounts[i]!;
    const kind = columnKind(col.id);
    const strong = kind === "consolidated";
    let content: ReactNode;
    if (amount === 0) {
      content = (
        <Text span size="sm" c="gray.5">
          –
        </Text>
      );
    } else if (accounts.has(row.account)) {
      const href = drillHref({ account: row.account, from, to, ...(kind === "entity" ? { realmId: col.id } : {}) });
      content = (
        <Anchor component={Link} to={href} underline="hover" size="sm" fw={strong ? 700 : undefined} style={mono} title={`Show the transactions behind this figure (${col.label})`}>
          {formatAmount(amount, currency)}
        </Anchor>
      );
    } else {
      content = (
        <Text span size="sm" fw={strong ? 700 : undefined} style={mono}>
          {formatAmount(amount, currency)}
        </Text>
      );
    }
    return (
      <Cell key={col.id} style={{ justifyContent: "flex-end", background: columnBackground(col.id, "transparent"), ...stickyRight(col.id, columnBackground(col.id)) }}>
        {content}
      </Cell>
    );
  };

  const rowCells = (row: WorksheetRow) => {
    const number = numbers.get(row.account);
    return (
      <>
        <Cell role="rowheader" style={{ ...stickyLeft(0, "white"), gap: 8 }}>
          {number ? (
            <Text span size="xs" c="dimmed" ff="monospace">
              {number}
            </Text>
          ) : null}
          <Text span size="sm" truncate title={row.name} fs={row.role === "nciShareOfProfit" ? "italic" : undefined}>
            {row.name}
          </Text>
          {isUnmappedRow(row.account) ? (
            <Badge size="xs" color="orange" variant="light" style={{ flexShrink: 0 }}>
              Unmapped
            </Badge>
          ) : null}
        </Cell>
        <Cell style={{ ...stickyLeft(ACCOUNT_W, "white"), borderRight: border }}>
          <Text span size="xs" c="dimmed">
            {row.classification}
          </Text>
        </Cell>
        {worksheet.columns.map((_, i) => amountCell(row, i))}
      </>
    );
  };

  const totalRow = (label: string, values: number[], testId: string) => (
    <div role="row" data-testid={testId} style={{ ...rowStyle, background: "var(--mantine-color-gray-0)", borderBottom: "none" }}>
      <Cell role="rowheader" style={stickyLeft(0, "var(--mantine-color-gray-0)")}>
        <Text span size="sm" fw={700}>
          {label}
        </Text>
      </Cell>
      <Cell style={{ ...stickyLeft(ACCOUNT_W, "var(--mantine-color-gray-0)"), borderRight: border }} />
      {values.map((v, i) => (
        <Cell key={worksheet.columns[i]!.id} style={{ justifyContent: "flex-end", ...stickyRight(worksheet.columns[i]!.id, "var(--mantine-color-gray-0)") }}>
          <Text span size="sm" fw={700} c={totals.balanced[i] ? undefined : "red.8"} style={mono}>
            {formatAmount(v, currency)}
          </Text>
        </Cell>
      ))}
    </div>
  );

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed" maw={820}>
          Each entity translated into {currency} and mapped onto the parent&apos;s accounts, then the eliminations and the non-controlling interests;
          each row adds across to the consolidated figure. Debits are positive, credits in parentheses. Select a figure to see the transactions
          behind it.
        </Text>
        <Switch
          label={`Show accounts with no amounts${hidden > 0 ? ` (${hidden})` : ""}`}
          checked={showEmpty}
          onChange={(e) => setShowEmpty(e.currentTarget.checked)}
          size="sm"
        />
      </Group>
      {outOfBalance.length > 0 ? (
        <Text size="sm" c="red.8" fw={600} role="alert">
          Debits and credits differ in {outOfBalance.map((c) => c.label).join(", ")}. Do not rely on these figures; contact support.
        </Text>
      ) : null}
      <Box
        ref={scrollRef}
        role="table"
        aria-label="Consolidation worksheet"
        aria-rowcount={rows.length + 3}
        data-testid="worksheet"
        data-virtualized={virtual || undefined}
        style={{ border, borderRadius: 8, background: "white", overflow: "auto", position: "relative", ...(virtual ? { height } : { maxHeight: height }) }}
      >
        <div role="row" style={{ ...rowStyle, height: 52, position: "sticky", top: 0, zIndex: 3, background: "var(--mantine-color-gray-0)", borderBottom: border }}>
          <Cell role="columnheader" style={stickyLeft(0, "var(--mantine-color-gray-0)", 4)}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase">
              Account
            </Text>
          </Cell>
          <Cell role="columnheader" style={{ ...stickyLeft(ACCOUNT_W, "var(--mantine-color-gray-0)", 4), borderRight: border }}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase">
              Class
            </Text>
          </Cell>
          {worksheet.columns.map((c) => (
            <Cell
              key={c.id}
              role="columnheader"
              style={{ justifyContent: "flex-end", textAlign: "right", background: columnBackground(c.id, "transparent"), ...stickyRight(c.id, "var(--mantine-color-blue-0)", 4) }}
            >
              <Text size="xs" fw={700} lineClamp={2} title={c.label}>
                {c.label}
              </Text>
            </Cell>
          ))}
        </div>
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed" p="lg" ta="center">
            No account has an amount in this period.
          </Text>
        ) : null}
        {virtual ? (
          <div style={{ height: virtualizer.getTotalSize(), position: "relative", minWidth }}>
            {virtualizer.getVirtualItems().map((v) => {
              const row = rows[v.index]!;
              return (
                <div
                  key={row.account}
                  role="row"
                  aria-rowindex={v.index + 2}
                  data-account={row.account}
                  style={{ ...rowStyle, position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
                >
                  {rowCells(row)}
                </div>
              );
            })}
          </div>
        ) : (
          rows.map((row, i) => (
            <div key={row.account} role="row" aria-rowindex={i + 2} data-account={row.account} style={rowStyle}>
              {rowCells(row)}
            </div>
          ))
        )}
        <div style={{ position: "sticky", bottom: 0, zIndex: 2, borderTop: "2px solid var(--mantine-color-gray-4)", minWidth }}>
          {totalRow("Total debits", totals.debits, "worksheet-debits")}
          {totalRow("Total credits", totals.credits, "worksheet-credits")}
        </div>
      </Box>
      <Text size="xs" c="dimmed">
        {rows.length.toLocaleString()} of {worksheet.rows.length.toLocaleString()} rows shown
        {virtual ? " · long worksheet: rows are drawn as they scroll into view" : ""}
      </Text>
    </Stack>
  );
}
