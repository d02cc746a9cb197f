import { Alert, Badge, Button, Group, List, Loader, Paper, Switch, Text, Tooltip } from "@mantine/core";
import type { FxRatesResponse } from "@groupledger/contract";
import { localMonthOf } from "@groupledger/domain";
import { IconCloudDownload, IconDeviceFloppy, IconDownload, IconHistory, IconUpload } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { ApiError } from "../../../lib/http.ts";
import { downloadTemplate, useSaveRates } from "../api.ts";
import {
  applyEdit,
  editProblems,
  fetchedResultText,
  importedResultText,
  missingRates,
  missingText,
  monthLabel,
  pendingEdits,
  ratesToSave,
  savedRatesOf,
  serverCellErrors,
  type CellRef,
  type Edits,
  type MonthRangeValue,
} from "../model.ts";
import { FetchDialog } from "./FetchDialog.tsx";
import { HistoryDrawer } from "./HistoryDrawer.tsx";
import { ImportDialog } from "./ImportDialog.tsx";
import { MonthRangeFields } from "./MonthRangeFields.tsx";
import { RateGrid } from "./RateGrid.tsx";
import { RateSemantics } from "./RateSemantics.tsx";
import { UnsavedChangesGuard } from "./UnsavedChangesGuard.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

interface Props {
  grid: FxRatesResponse;
  parentCurrency: string;
  parentName: string | null;
  range: MonthRangeValue;
  onRangeChange: (range: MonthRangeValue) => void;
  loadingRange: boolean;
  rangeError: string | null;
}

type Notice = { color: "teal" | "blue"; text: string };
type Dialog = "import" | "fetch" | "history" | null;

/** The grid with its edits, one Save for all of them, and the import, fetch and history around it. */
export function RatesWorkspace({ grid, parentCurrency, parentName, range, onRangeChange, loadingRange, rangeError }: Props) {
  const saved = useMemo(() => savedRatesOf(grid), [grid]);
  const [rawEdits, setEdits] = useState<Edits>({});
  const edits = useMemo(() => pendingEdits(rawEdits, saved), [rawEdits, saved]);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saveError, setSaveError] = useState<{ message: string; other: string[] } | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [onlyMissing, setOnlyMissing] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [templateError, setTemplateError] = useState<string | null>(null);
  const save = useSaveRates();

  const problems = editProblems(edits);
  const errors = { ...serverErrors, ...problems };
  const changeCount = Object.keys(edits).length;
  const invalidCount = Object.keys(problems).length;
  const dirty = changeCount > 0;
  const currentMonth = localMonthOf(new Date());
  // A consolidation reads saved rates, so the count is of those; the row filter too, so a row does not vanish while it is typed in.
  const savedValue = (ref: CellRef) => saved.get(`${ref.currency}:${ref.month}:${ref.field}`) ?? "";
  const missing = missingRates(grid.currencies, grid.months, savedValue);
  const newestFirst = [...grid.months].reverse();
  const rows = onlyMissing ? newestFirst.filter((m) => missing.months.includes(m) || Object.keys(edits).some((k) => k.includes(`:${m}:`))) : newestFirst;

  const onEdit = (changes: { ref: CellRef; text: string }[]) => {
    setEdits((current) => changes.reduce((acc, c) => applyEdit(acc, saved, c.ref, c.text), pendingEdits(current, saved)));
    setServerErrors((current) => {
      const next = { ...current };
      for (const c of changes) delete next[`${c.ref.currency}:${c.ref.month}:${c.ref.field}`];
      return next;
    });
    setNotice(null);
  };

  const discard = () => {
    setEdits({});
    setServerErrors({});
    setSaveError(null);
  };

  const onSave = () => {
    const sent = ratesToSave(edits, saved);
    if (sent.length === 0 || invalidCount > 0) return;
    setSaveError(null);
    setNotice(null);
    save.mutate(sent, {
      onSuccess: () => {
        setEdits({});
        setServerErrors({});
        setNotice({ color: "teal", text: `Saved ${changeCount} ${changeCount === 1 ? "rate" : "rates"}. Each change is in the change history.` });
      },
      onError: (e) => {
        const mapped = e instanceof ApiError ? serverCellErrors(e.fieldErrors(), sent) : { cells: {}, other: [] };
        setServerErrors(mapped.cells);
        setSaveError({ message: e.message, other: mapped.other });
      },
    });
  };

  const getTemplate = () => {
    setTemplateError(null);
    downloadTemplate().catch((e: unknown) => setTemplateError(`The template could not be downloaded: ${e instanceof Error ? e.message : String(e)}`));
  };

  return (
    <>
      <RateSemantics parentCurrency={parentCurrency} parentName={parentName} currencies={grid.currencies} grid={grid} />

      <Paper withBorder radius="md" p="sm" bg="white">
        <Group justify="space-between" align="flex-end" gap="md">
          <Group gap="sm" align="flex-end">
            <MonthRangeFields
              idPrefix="fx-range"
              value={range}
              onChange={onRangeChange}
              disabled={dirty}
              note={dirty ? "Save or discard your changes to show other months." : null}
            />
            {loadingRange ? (
              <Loader size="xs" mb={10} aria-label="Loading the months" />
            ) : null}
          </Group>
          <Group gap="xs">
            <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={getTemplate}>
              Download template
            </Button>
            <Button variant="default" leftSection={<IconUpload size={16} aria-hidden />} onClick={() => setDialog("import")}>
              Import CSV
            </Button>
            <Button variant="default" leftSection={<IconCloudDownload size={16} aria-hidden />} onClick={() => setDialog("fetch")}>
              Fetch rates
            </Button>
            <Button variant="subtle" leftSection={<IconHistory size={16} aria-hidden />} onClick={() => setDialog("history")}>
              History
            </Button>
          </Group>
        </Group>
      </Paper>

      <Failure title="Those months could not be loaded" message={rangeError} />
      <Failure withCloseButton closeButtonLabel="Dismiss message" onClose={() => setTemplateError(null)} message={templateError} />
      {notice ? (
        <Alert color={notice.color} role="status" withCloseButton closeButtonLabel="Dismiss message" onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      ) : null}
      {saveError ? (
        <Alert color="red" role="alert" title="Nothing was saved" withCloseButton closeButtonLabel="Dismiss message" onClose={() => setSaveError(null)}>
          <Text size="sm">{saveError.message} The cells with a problem are marked in red.</Text>
          {saveError.other.length > 0 ? (
            <List size="sm" mt={4}>
              {saveError.other.map((m) => (
                <List.Item key={m}>{m}</List.Item>
              ))}
            </List>
          ) : null}
        </Alert>
      ) : null}

      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Tooltip
            label={missing.months.length > 0 ? `Missing in ${missing.months.slice(-6).reverse().map((m) => monthLabel(m)).join(", ")}${missing.months.length > 6 ? "…" : ""}` : "No saved rate is missing"}
            withArrow
          >
            <Badge size="lg" variant="light" color={missing.months.length > 0 ? "orange" : "teal"} data-testid="missing-summary" tt="none">
              {missingText(missing)}
            </Badge>
          </Tooltip>
          <Switch label="Only months missing a rate" checked={onlyMissing} onChange={(e) => setOnlyMissing(e.currentTarget.checked)} size="sm" />
        </Group>
        <Group gap="xs">
          {dirty ? (
            <Text size="sm" c={invalidCount > 0 ? "red.8" : "dimmed"} data-testid="unsaved-summary">
              {changeCount} unsaved {changeCount === 1 ? "change" : "changes"}
              {invalidCount > 0 ? `, ${invalidCount} not valid` : ""}
            </Text>
          ) : null}
          <Button variant="default" onClick={discard} disabled={!dirty || save.isPending}>
            Discard
          </Button>
          <Button leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={onSave} disabled={!dirty || invalidCount > 0} loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Group>

      {rows.length === 0 ? (
        <Paper withBorder radius="md" p="lg" bg="white" role="status">
          <Text size="sm">Every month shown has all its rates.</Text>
        </Paper>
      ) : (
        <RateGrid
          parentCurrency={parentCurrency}
          currencies={grid.currencies}
          months={rows}
          allMonths={grid.months}
          currentMonth={currentMonth}
          saved={saved}
          edits={edits}
          errors={errors}
          disabled={save.isPending}
          onEdit={onEdit}
        />
      )}
      <Text size="xs" c="dimmed">
        Keys: ↑ ↓ or Enter move between months · ← → between columns · Esc restores the saved rate · paste a block copied from a spreadsheet
        into its first cell. Empty means missing: a consolidation that needs it stops and names it, it is never read as zero.
      </Text>

      <ImportDialog
        opened={dialog === "import"}
        parentCurrency={parentCurrency}
        onClose={() => setDialog(null)}
        onDownloadTemplate={getTemplate}
        onImported={(r) => setNotice({ color: "teal", text: importedResultText(r) })}
      />
      <FetchDialog
        opened={dialog === "fetch"}
        initialRange={range}
        parentCurrency={parentCurrency}
        currencies={grid.currencies}
        onClose={() => setDialog(null)}
        onFetched={(r, requested) => {
          setDialog(null);
          setNotice({ color: "teal", text: fetchedResultText(r, requested) });
        }}
      />
      <HistoryDrawer opened={dialog === "history"} onClose={() => setDialog(null)} />
      <UnsavedChangesGuard changes={changeCount} />
    </>
  );
}
