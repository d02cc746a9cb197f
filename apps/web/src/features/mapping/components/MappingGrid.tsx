import { ActionIcon, Badge, Box, Button, Checkbox, Group, Text, Tooltip, VisuallyHidden } from "@mantine/core";
import type { CompanyAccount } from "@groupledger/contract";
import { IconAlertTriangle, IconCheck, IconUnlink } from "@tabler/icons-react";
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable, type Row } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { latestAmountLabel } from "../../companies/latestAmount.ts";
import { accountLabel, formatBalance, type MappingRow } from "../model.ts";
import { ParentPicker } from "./ParentPicker.tsx";

export interface MappingGridProps {
  rows: readonly MappingRow[];
  parents: readonly CompanyAccount[];
  selected: ReadonlySet<string>;
  /** Errors the API gave per subsidiary account (400 invalid_mapping details.fields). */
  errors: Readonly<Record<string, string>>;
  busy: boolean;
  onToggle: (accountId: string) => void;
  onToggleAll: (select: boolean) => void;
  onMap: (accountId: string, parentId: string) => void;
  onUnmap: (accountId: string) => void;
  /** Grid height in px; the rows scroll inside it. */
  height?: number;
  /**
   * Whether the company uses account numbers (any of its accounts has one); without them the
   * Number column is left out and accounts go by name. Default true.
   */
  numbered?: boolean;
}

interface Meta {
  parentsById: ReadonlyMap<string, CompanyAccount>;
  props: MappingGridProps;
}

const ROW_HEIGHT = 52;
/** A row with a message under its parent account (a refusal or an invalid map), clamped to three lines. */
const NOTE_ROW_HEIGHT = 100;
/** A row whose suggestion "Accept all" leaves for review: room for its reason on three lines. */
const CAUTION_ROW_HEIGHT = 84;
// Sized to fit the content area beside the navigation at 1280 px and wider; below that the grid scrolls sideways inside its own box.
const NUMBER_COLUMN = "56px ";
const columnsTemplate = (numbered: boolean) =>
  `28px ${numbered ? NUMBER_COLUMN : ""}minmax(150px,1.4fr) minmax(104px,1fr) 72px 40px 112px 52px minmax(200px,1.4fr) minmax(210px,1.4fr)`;
const minWidth = (numbered: boolean) => (numbered ? 1080 : 1018);
/** A sub-account's name is indented this much per level of parent accounts above it. */
const INDENT_PX = 14;
const col = createColumnHelper<MappingRow>();

const allColumns = [
  col.display({ id: "select", header: "Select" }),
  col.accessor((r) => r.account.acctNum ?? "", { id: "number", header: "Number" }),
  col.accessor((r) => r.account.name, { id: "name", header: "Account" }),
  col.accessor((r) => r.account.accountType, { id: "type", header: "Type" }),
  col.accessor((r) => r.account.classification, { id: "classification", header: "Class" }),
  col.accessor((r) => r.account.currency, { id: "currency", header: "Cur" }),
  col.accessor((r) => r.account.latestAmount, { id: "balance", header: "Balance" }),
  col.accessor((r) => r.account.active, { id: "active", header: "Active" }),
  col.accessor((r) => r.parentId, { id: "parent", header: "Parent account" }),
  col.accessor((r) => r.suggestion, { id: "suggestion", header: "Suggestion" }),
];

function SuggestionCell({ row, parentsById, busy, onMap }: { row: MappingRow; parentsById: Meta["parentsById"]; busy: boolean; onMap: Props["onMap"] }) {
  const s = row.suggestion;
  if (row.parentId !== null) return null;
  if (!s) {
    return (
      <Text size="xs" c="dimmed">
        {row.account.everHadBalance ? "No compatible match; choose by hand" : "Never had a balance"}
      </Text>
    );
  }
  const p = parentsById.get(s.parentAccountId);
  const label = p ? accountLabel(p) : s.parentAccountId;
  return (
    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
      <Box style={{ minWidth: 0, flex: 1 }}>
        <Text size="xs" fw={600} truncate title={label}>
          {label} <Text span size="xs" c="dimmed" fw={400}>{Math.round(s.score * 100)}%</Text>
        </Text>
        {s.caution ? (
          // Why "Accept all" left it: the reasons for the suggestion stay in the tooltip.
          <Text size="xs" c="orange.8" lineClamp={3} title={`${s.caution}. Suggested for: ${s.reasons.join(", ")}`} role="note" data-testid="suggestion-caution">
            <IconAlertTriangle size={11} style={{ verticalAlign: "-1px" }} aria-hidden /> {s.caution}
          </Text>
        ) : (
          <Text size="xs" c="dimmed" truncate title={s.reasons.join(", ")}>
            {s.reasons.join(", ")}
          </Text>
        )}
      </Box>
      <Button
        size="compact-xs"
        variant="light"
        disabled={busy}
        onClick={() => onMap(row.account.Id, s.parentAccountId)}
        aria-label={`Accept ${label} for ${accountLabel(row.account)}`}
      >
        Accept
      </Button>
    </Group>
  );
}
type Props = MappingGridProps;

function Cell({ id, row, meta }: { id: string; row: MappingRow; meta: Meta }) {
  const { props, parentsById } = meta;
  const a = row.account;
  switch (id) {
    case "select":
      return (
        <Checkbox
          size="xs"
          tabIndex={-1}
          aria-label={`Select ${accountLabel(a)}`}
          checked={props.selected.has(a.Id)}
          onChange={() => props.onToggle(a.Id)}
        />
      );
    case "number":
      return <Text size="xs" ff="monospace">{a.acctNum ?? ""}</Text>;
    case "name":
      // A sub-account sits under its parent account, indented; its full name ("Parent:Child") is its title.
      return (
        <Box style={{ minWidth: 0, paddingLeft: row.depth * INDENT_PX }} data-depth={row.depth}>
          <Text size="sm" truncate title={a.fullyQualifiedName}>
            {row.depth > 0 ? (
              <Text span c="dimmed" aria-hidden>
                {"↳ "}
              </Text>
            ) : null}
            {a.name}
            {row.depth > 0 ? <VisuallyHidden>, sub-account of {a.fullyQualifiedName.slice(0, a.fullyQualifiedName.lastIndexOf(":"))}</VisuallyHidden> : null}
          </Text>
          {!a.everHadBalance ? (
            <Badge size="xs" variant="light" color="gray" title="Never had a balance: not counted in the progress">
              Never a balance
            </Badge>
          ) : null}
        </Box>
      );
    case "type":
      return (
        <Text size="xs" truncate title={a.accountSubType ?? a.accountType}>
          {a.accountType}
        </Text>
      );
    case "classification":
      return <Text size="xs">{a.classification}</Text>;
    case "currency":
      return <Text size="xs">{a.currency}</Text>;
    case "balance":
      return (
        <Text size="xs" ta="right" ff="monospace" style={{ width: "100%" }} title={latestAmountLabel(a) ?? undefined} data-testid="balance">
          {formatBalance(a.latestAmount, a.currency)}
        </Text>
      );
    case "active":
      return a.active ? <Text size="xs">Yes</Text> : <Badge size="xs" color="gray" variant="outline">Inactive</Badge>;
    case "parent": {
      const error = props.errors[a.Id] ?? null;
      return (
        <Group gap={4} wrap="nowrap" style={{ width: "100%" }} align="flex-start">
          <Box style={{ flex: 1, minWidth: 0 }}>
            <ParentPicker
              sub={a}
              parents={props.parents}
              value={row.parentId}
              disabled={props.busy}
              error={error}
              onChange={(v) => (v === null ? props.onUnmap(a.Id) : props.onMap(a.Id, v))}
            />
            {row.invalidReason && !error ? (
              <Text size="xs" c="orange.8" mt={2} role="note" lineClamp={3} title={row.invalidReason}>
                <IconAlertTriangle size={12} style={{ verticalAlign: "-2px" }} aria-hidden /> {row.invalidReason}
              </Text>
            ) : null}
          </Box>
          {row.parentId !== null ? (
            <Tooltip label="Unmap">
              <ActionIcon variant="subtle" color="gray" size="sm" tabIndex={-1} disabled={props.busy} onClick={() => props.onUnmap(a.Id)} aria-label={`Unmap ${accountLabel(a)}`}>
                <IconUnlink size={14} aria-hidden />
              </ActionIcon>
            </Tooltip>
          ) : null}
        </Group>
      );
    }
    case "suggestion":
      return <SuggestionCell row={row} parentsById={parentsById} busy={props.busy} onMap={props.onMap} />;
    default:
      return null;
  }
}

/**
 * One account's row, drawn again only when something it shows changes: scrolling moves the rows
 * already on screen without rendering them (issue 22: the 5,000-row grid scrolls at 60 fps).
 */
const GridRow = memo(function GridRow(p: {
  row: Row<MappingRow>;
  index: number;
  start: number;
  size: number;
  active: boolean;
  selected: boolean;
  hasError: boolean;
  columns: string;
  minWidth: number;
  meta: Meta;
  onActivate: (index: number) => void;
}) {
  const { row: r, index, meta } = p;
  return (
    <div
      id={`map-row-${r.id}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={p.selected}
      data-row-id={r.id}
      data-index={index}
      data-active={p.active || undefined}
      onMouseDown={() => p.onActivate(index)}
      style={{
        position: "absolute",
        top: 0,
        left: 0,
        right: 0,
        transform: `translateY(${p.start}px)`,
        display: "grid",
        gridTemplateColumns: p.columns,
        gap: 6,
        alignItems: "center",
        height: p.size,
        padding: "4px 10px",
        minWidth: p.minWidth,
        borderBottom: "1px solid var(--mantine-color-gray-2)",
        background: p.hasError
          ? "var(--mantine-color-red-0)"
          : p.selected
            ? "var(--mantine-color-blue-0)"
            : r.original.invalidReason
              ? "var(--mantine-color-orange-0)"
              : undefined,
        boxShadow: p.active ? "inset 3px 0 0 var(--mantine-color-blue-6)" : undefined,
      }}
    >
      {r.getVisibleCells().map((c) => (
        <div role="gridcell" key={c.id} style={{ minWidth: 0, display: "flex", alignItems: "center" }}>
          <Cell id={c.column.id} row={r.original} meta={meta} />
        </div>
      ))}
    </div>
  );
});

/**
 * The subsidiary's accounts beside the parent accounts they map to: a virtualized grid (only the
 * rows on screen are in the DOM, so 5,000 accounts stay smooth) with keyboard navigation:
 * ↑/↓, Page Up/Down, Home/End move the active row, Space selects it, Enter opens its parent
 * picker, A accepts its suggestion, Delete unmaps it.
 */
export function MappingGrid(props: MappingGridProps) {
  const { rows, parents, selected, busy, height = 560, numbered = true } = props;
  const parentsById = useMemo(() => new Map(parents.map((p) => [p.Id, p])), [parents]);
  const columns = useMemo(() => (numbered ? allColumns : allColumns.filter((c) => c.id !== "number")), [numbered]);
  const COLUMNS = columnsTemplate(numbered);
  const MIN_WIDTH = minWidth(numbered);
  const table = useReactTable({
    data: rows as MappingRow[],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => r.account.Id,
  });
  const tableRows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    // Fixed heights known from the data: measuring each row in the browser forced a layout per row
    // and was a large part of the time to first paint with 5,000 accounts.
    estimateSize: (i) => {
      const r = tableRows[i]?.original;
      if (r && (props.errors[r.account.Id] !== undefined || r.invalidReason)) return NOTE_ROW_HEIGHT;
      return r && r.parentId === null && r.suggestion?.caution ? CAUTION_ROW_HEIGHT : ROW_HEIGHT;
    },
    overscan: 8,
  });
  // The sizes change with the refusals and the data; the virtualizer caches them until told. Not on
  // mount: the sizes are fresh then, and a re-measure would render the grid a second time.
  const measured = useRef<{ rows: unknown; errors: unknown } | null>(null);
  useEffect(() => {
    const prev = measured.current;
    measured.current = { rows: tableRows, errors: props.errors };
    if (prev && (prev.rows !== tableRows || prev.errors !== props.errors)) virtualizer.measure();
  }, [virtualizer, tableRows, props.errors]);
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, Math.max(0, tableRows.length - 1));
  // Stable while only the scroll position changes, so the rows already on screen are not drawn again.
  const meta: Meta = useMemo(() => ({ parentsById, props }), [parentsById, props]);

  const move = useCallback(
    (to: number) => {
      const next = Math.max(0, Math.min(tableRows.length - 1, to));
      setActive(next);
      virtualizer.scrollToIndex(next, { align: "auto" });
    },
    [tableRows.length, virtualizer],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = tableRows[activeIndex]?.original;
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(activeIndex + 1),
      ArrowUp: () => move(activeIndex - 1),
      PageDown: () => move(activeIndex + page),
      PageUp: () => move(activeIndex - page),
      Home: () => move(0),
      End: () => move(tableRows.length - 1),
      " ": () => row && props.onToggle(row.account.Id),
      Enter: () => {
        const picker = row && scrollRef.current?.querySelector<HTMLButtonElement>(`[data-row-id="${CSS.escape(row.account.Id)}"] [data-parent-picker]`);
        picker?.click();
      },
      a: () => row?.suggestion && !busy && row.parentId === null && props.onMap(row.account.Id, row.suggestion.parentAccountId),
      Delete: () => row?.parentId != null && !busy && props.onUnmap(row.account.Id),
    };
    // Only keys pressed on the grid itself: typing in a picker or clicking a button keeps its own meaning.
    if (e.target !== e.currentTarget) return;
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };

  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.account.Id));
  const someSelected = !allSelected && rows.some((r) => selected.has(r.account.Id));
  const activeId = tableRows[activeIndex]?.id;

  return (
    <Box
      role="grid"
      aria-label="Subsidiary accounts and their parent accounts"
      aria-rowcount={rows.length + 1}
      aria-activedescendant={activeId ? `map-row-${activeId}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="mapping-grid"
      style={{ border: "1px solid var(--mantine-color-gray-3)", borderRadius: 8, background: "white", outlineOffset: 2, overflowX: "auto" }}
    >
      <Box
        role="row"
        aria-rowindex={1}
        style={{ display: "grid", gridTemplateColumns: COLUMNS, gap: 6, padding: "8px 10px", minWidth: MIN_WIDTH, borderBottom: "1px solid var(--mantine-color-gray-3)", background: "var(--mantine-color-gray-0)", borderRadius: "8px 8px 0 0" }}
      >
        {table.getHeaderGroups()[0]?.headers.map((h) => (
          <Box role="columnheader" key={h.id}>
            {h.id === "select" ? (
              <Checkbox
                size="xs"
                tabIndex={-1}
                aria-label="Select all shown accounts"
                checked={allSelected}
                indeterminate={someSelected}
                onChange={() => props.onToggleAll(!allSelected)}
              />
            ) : (
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" ta={h.id === "balance" ? "right" : undefined}>
                {flexRender(h.column.columnDef.header, h.getContext())}
              </Text>
            )}
          </Box>
        ))}
      </Box>
      <div ref={scrollRef} style={{ height, minWidth: MIN_WIDTH, overflowY: "auto", overflowX: "hidden", position: "relative" }} data-testid="mapping-grid-scroll">
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed" p="lg" ta="center">
            No account matches these filters.
          </Text>
        ) : null}
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((v) => {
            const r = tableRows[v.index];
            if (!r) return null;
            return (
              <GridRow
                key={r.id}
                row={r}
                index={v.index}
                start={v.start}
                size={v.size}
                active={v.index === activeIndex}
                selected={selected.has(r.id)}
                hasError={props.errors[r.id] !== undefined}
                columns={COLUMNS}
                minWidth={MIN_WIDTH}
                meta={meta}
                onActivate={setActive}
              />
            );
          })}
        </div>
      </div>
      <Group justify="space-between" px="sm" py={6} style={{ borderTop: "1px solid var(--mantine-color-gray-3)" }}>
        <Text size="xs" c="dimmed">
          {rows.length.toLocaleString()} accounts shown · {selected.size.toLocaleString()} selected
        </Text>
        <Text size="xs" c="dimmed">
          <IconCheck size={11} aria-hidden /> Keys: ↑ ↓ move · Space select · Enter choose parent · A accept suggestion · Delete unmap
        </Text>
      </Group>
    </Box>
  );
}
