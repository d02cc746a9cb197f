import { Badge, Group, Text } from "@mantine/core";
import { useRef, type ClipboardEvent, type KeyboardEvent } from "react";
import { cellKey, FIELD_LABELS, monthLabel, nearestRate, parsePastedBlock, RATE_FIELDS, rateWarning, type CellRef, type Edits, type SavedRates } from "../model.ts";
import classes from "./RateGrid.module.css";

export interface RateGridProps {
  parentCurrency: string;
  currencies: readonly string[];
  /** The rows, in the order shown. */
  months: readonly string[];
  /** Every month of the range, oldest first, for the "nearby months" of a warning. */
  allMonths: readonly string[];
  currentMonth: string;
  saved: SavedRates;
  edits: Edits;
  /** Messages per cell key: the browser's check first, then what the server refused. */
  errors: Readonly<Record<string, string>>;
  disabled: boolean;
  onEdit: (changes: { ref: CellRef; text: string }[]) => void;
}

const cellLabel = (ref: CellRef) => `${ref.currency} ${FIELD_LABELS[ref.field].toLowerCase()} rate, ${monthLabel(ref.month)}`;

/** Whether an arrow key should leave the input: the whole text is selected, or the caret is already at that edge. */
function leavesInput(input: HTMLInputElement, direction: "left" | "right"): boolean {
  const { selectionStart: start, selectionEnd: end, value } = input;
  if (start === null || end === null) return true;
  if (start === 0 && end === value.length) return true;
  return start === end && (direction === "left" ? start === 0 : start === value.length);
}

/**
 * Months down, and per foreign currency its average and end-of-period rate across. A spreadsheet
 * in the ways that matter for typing rates: ↑ ↓ and Enter (Shift+Enter) move between months, ← →
 * between columns at the edge of the text, Escape restores the saved rate, and a block copied from
 * a spreadsheet pastes across the cells from the one it lands in.
 */
export function RateGrid(props: RateGridProps) {
  const { parentCurrency, currencies, months, saved, edits, errors, disabled } = props;
  const ref = useRef<HTMLDivElement>(null);
  const columns: { currency: string; field: (typeof RATE_FIELDS)[number] }[] = currencies.flatMap((currency) => RATE_FIELDS.map((field) => ({ currency, field })));

  const focusCell = (row: number, col: number) => {
    const r = Math.max(0, Math.min(months.length - 1, row));
    const c = Math.max(0, Math.min(columns.length - 1, col));
    ref.current?.querySelector<HTMLInputElement>(`input[data-row="${r}"][data-col="${c}"]`)?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>, row: number, col: number, cell: CellRef) => {
    const input = e.currentTarget;
    const moves: Record<string, (() => boolean) | undefined> = {
      ArrowDown: () => (focusCell(row + 1, col), true),
      ArrowUp: () => (focusCell(row - 1, col), true),
      Enter: () => (focusCell(e.shiftKey ? row - 1 : row + 1, col), true),
      ArrowLeft: () => leavesInput(input, "left") && (focusCell(row, col - 1), true),
      ArrowRight: () => leavesInput(input, "right") && (focusCell(row, col + 1), true),
      Escape: () => (props.onEdit([{ ref: cell, text: saved.get(cellKey(cell)) ?? "" }]), true),
    };
    if (moves[e.key]?.()) e.preventDefault();
  };

  const onPaste = (e: ClipboardEvent<HTMLInputElement>, row: number, col: number) => {
    const text = e.clipboardData.getData("text/plain");
    if (!/[\t\n]/.test(text.replace(/\r?\n$/, ""))) return; // one value: the input pastes it itself
    e.preventDefault();
    const changes: { ref: CellRef; text: string }[] = [];
    parsePastedBlock(text).forEach((cells, dr) => {
      const month = months[row + dr];
      cells.forEach((value, dc) => {
        const column = columns[col + dc];
        if (month && column) changes.push({ ref: { ...column, month }, text: value });
      });
    });
    props.onEdit(changes);
  };

  return (
    <div ref={ref} className={classes.scroll} style={{ maxHeight: "calc(100vh - 260px)", minHeight: 240 }} data-testid="fx-grid">
      <table className={classes.table} aria-label={`FX rates: ${parentCurrency} per one unit of each foreign currency`} aria-rowcount={months.length + 2}>
        <thead>
          <tr>
            <th rowSpan={2} className={classes.monthHead} scope="col">
              Month
            </th>
            {currencies.map((c) => (
              <th key={c} colSpan={2} className={classes.currencyHead} scope="colgroup">
                <Group gap={6} wrap="nowrap">
                  <Text fw={700} size="sm">
                    {c}
                  </Text>
                  <Text size="xs" c="dimmed">
                    1 {c} = x {parentCurrency}
                  </Text>
                </Group>
              </th>
            ))}
          </tr>
          <tr>
            {columns.map((col, i) => (
              <th key={`${col.currency}:${col.field}`} scope="col" className={i % 2 === 0 ? classes.currencyHead : undefined} style={{ textAlign: "right" }}>
                {FIELD_LABELS[col.field]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {months.map((month, row) => {
            const emptyInRow = columns.filter((col) => valueOf({ ...col, month }).trim() === "").length;
            return (
              <tr key={month} className={classes.row} data-current={month === props.currentMonth || undefined} data-month={month}>
                <th scope="row" className={classes.monthCell}>
                  <Group gap={6} wrap="nowrap" justify="space-between">
                    <span>{monthLabel(month)}</span>
                    {/* Badges never shrink into an ellipsis ("CURR…"): the month column takes their width instead. */}
                    <Group gap={4} wrap="nowrap" className={classes.badges}>
                      {month === props.currentMonth ? (
                        <Badge size="xs" variant="light" color="gray" className={classes.badge} title="The month is not over: its end-of-period rate is usually not known yet">
                          Current
                        </Badge>
                      ) : null}
                      {emptyInRow > 0 ? (
                        <Badge size="xs" variant="light" color="orange" className={classes.badge} title={`${emptyInRow} of ${columns.length} rates of ${monthLabel(month)} are missing`}>
                          {emptyInRow} missing
                        </Badge>
                      ) : null}
                    </Group>
                  </Group>
                </th>
                {columns.map((col, ci) => {
                  const cell: CellRef = { ...col, month };
                  const key = cellKey(cell);
                  const value = valueOf(cell);
                  const dirty = key in edits;
                  const error = errors[key] ?? null;
                  const warning = dirty && !error ? rateWarning(value, nearestRate(saved, cell, props.allMonths), col.currency, parentCurrency) : null;
                  const noteId = `fx-note-${key.replace(/:/g, "-")}`;
                  return (
                    <td
                      key={key}
                      className={classes.cell}
                      data-first={ci % 2 === 0 || undefined}
                      data-empty={value.trim() === "" || undefined}
                      data-dirty={dirty || undefined}
                      data-invalid={error !== null || undefined}
                    >
                      <input
                        className={classes.input}
                        aria-label={cellLabel(cell)}
                        aria-invalid={error !== null}
                        aria-describedby={error || warning ? noteId : undefined}
                        inputMode="decimal"
                        autoComplete="off"
                        spellCheck={false}
                        placeholder="missing"
                        data-row={row}
                        data-col={ci}
                        value={value}
                        disabled={disabled}
                        onChange={(e) => props.onEdit([{ ref: cell, text: e.currentTarget.value }])}
                        onFocus={(e) => e.currentTarget.select()}
                        onKeyDown={(e) => onKeyDown(e, row, ci, cell)}
                        onPaste={(e) => onPaste(e, row, ci)}
                      />
                      {error ? (
                        <div id={noteId} className={classes.error}>
                          {error}
                        </div>
                      ) : warning ? (
                        <div id={noteId} className={classes.warning}>
                          {warning}
                        </div>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );

  function valueOf(cell: CellRef): string {
    const key = cellKey(cell);
    return edits[key] ?? saved.get(key) ?? "";
  }
}
