import { Alert, Anchor, Button, Code, FileInput, List, Modal, ScrollArea, Stack, Text } from "@mantine/core";
import { fieldErrorSchema, FX_CSV_HEADER } from "@groupledger/contract";
import { IconFileTypeCsv } from "@tabler/icons-react";
import { useState } from "react";
import { z } from "zod";
import { ApiError } from "../../../lib/http.ts";
import { useImportRates, type FxUpdated } from "../api.ts";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

/** More than this many row errors is a wrong file, not a few typos: the rest are counted, not listed. */
const MAX_LISTED = 50;

interface Props {
  opened: boolean;
  parentCurrency: string;
  onClose: () => void;
  onImported: (result: FxUpdated) => void;
  onDownloadTemplate: () => void;
}

/** FileReader rather than File.text(): it is in every browser and in the test DOM too. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ""));
    reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
    reader.readAsText(file);
  });
}

/** The row-level messages of a refused import (details.fields), in the file's order, several per row when a row has several problems. */
function rowErrors(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [];
  const fields = z.array(fieldErrorSchema).safeParse(error.details["fields"]);
  return fields.success ? fields.data.map((f) => f.message) : [];
}

/**
 * Import rates from a CSV file. The server checks every row first and imports nothing when any
 * row is wrong, so the dialog stays open with the rows to fix.
 */
export function ImportDialog({ opened, parentCurrency, onClose, onImported, onDownloadTemplate }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState<number | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const importRates = useImportRates();

  const close = () => {
    if (importRates.isPending) return;
    setFile(null);
    setRows(null);
    setReadError(null);
    importRates.reset();
    onClose();
  };

  const choose = async (next: File | null) => {
    setFile(next);
    setRows(null);
    setReadError(null);
    importRates.reset();
    if (!next) return;
    try {
      const text = await readText(next);
      setRows(Math.max(0, text.split(/\r?\n/).filter((l) => l.trim() !== "").length - 1));
    } catch {
      setReadError("The file could not be read. Choose it again.");
    }
  };

  const submit = async () => {
    if (!file) return;
    let text: string;
    try {
      text = await readText(file);
    } catch {
      setReadError("The file could not be read. Choose it again.");
      return;
    }
    importRates.mutate(text, {
      onSuccess: (result) => {
        onImported(result);
        close();
      },
    });
  };

  const errors = rowErrors(importRates.error);
  return (
    <Modal opened={opened} onClose={close} title={<Text fw={700}>Import rates from CSV</Text>} size="lg" centered>
      <Stack gap="sm">
        <Text size="sm">
          One line per currency and month, under the header <Code>{FX_CSV_HEADER.join(",")}</Code>, for example{" "}
          <Code>GBP,2026-10,1.2745,1.2810</Code>. Rates are {parentCurrency} per one unit of the currency. An empty value clears that
          rate.
        </Text>
        <Text size="sm" c="dimmed">
          All or nothing: if any row has a problem, nothing is imported and the rows to fix are listed here.{" "}
          <Anchor component="button" type="button" size="sm" onClick={onDownloadTemplate}>
            Download the template
          </Anchor>
        </Text>
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => void choose(f)}
          leftSection={<IconFileTypeCsv size={18} aria-hidden />}
          clearable
          disabled={importRates.isPending}
          description={file && rows !== null ? `${rows} ${rows === 1 ? "row" : "rows"} of rates in ${file.name}` : undefined}
          error={readError}
        />
        {importRates.error ? (
          <Alert color="red" role="alert" title="Nothing was imported" data-testid="import-errors">
            <Text size="sm" mb={errors.length > 1 ? 6 : 0}>
              {errors.length === 1 ? errors[0] : importRates.error.message}
            </Text>
            {errors.length > 1 ? (
              <ScrollArea.Autosize mah={220}>
                <List size="sm" spacing={2}>
                  {errors.slice(0, MAX_LISTED).map((m, i) => (
                    <List.Item key={`${i}:${m}`}>{m}</List.Item>
                  ))}
                </List>
                {errors.length > MAX_LISTED ? (
                  <Text size="sm" mt={4}>
                    …and {errors.length - MAX_LISTED} more. Is it the right file?
                  </Text>
                ) : null}
              </ScrollArea.Autosize>
            ) : null}
          </Alert>
        ) : null}
        <DialogActions onCancel={close} busy={importRates.isPending} mt="xs">
          <Button onClick={() => void submit()} disabled={!file || readError !== null} loading={importRates.isPending}>
            Import
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}
