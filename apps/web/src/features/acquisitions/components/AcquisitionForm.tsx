import { Alert, Button, Grid, Group, Radio, Select, Stack, Table, Text, TextInput, Title, type SelectProps } from "@mantine/core";
import { DateInput } from "@mantine/dates";
import "@mantine/dates/styles.css";
import { useForm, type GetInputPropsReturnType } from "@mantine/form";
import type { AcquisitionFigures, AcquisitionSubsidiary } from "@groupledger/contract";
import { currencyExponent, formatAmount, lastDayOfMonth, monthOf } from "@groupledger/domain";
import { IconPlus } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { ApiError } from "../../../lib/http.ts";
import { formatDate } from "../../companies/format.ts";
import { nciPercent, parseAmount } from "../../cta/model.ts";
import { useSaveAcquisition } from "../api.ts";
import {
  accountLabel,
  buildInput,
  equityRowError,
  FAIR_VALUE_KINDS,
  NCI_MEASUREMENTS,
  newAdjustment,
  newOwnershipChange,
  parseDateText,
  placeErrors,
  unplacedErrors,
  whollyOwned,
  type AccountOption,
  type AcquisitionForm as FormValues,
} from "../model.ts";
import { FiguresTable } from "./FiguresTable.tsx";
import { HeadedTable, type Column } from "../../screens/components/HeadedTable.tsx";
import { RemoveButton } from "../../screens/components/RemoveButton.tsx";

interface Props {
  sub: AcquisitionSubsidiary;
  parentName: string;
  parentCurrency: string;
  assetAccounts: readonly AccountOption[];
  expenseAccounts: readonly AccountOption[];
  initial: FormValues;
  /** The figures of what the form started from (the proposal, or the acquisition as saved). */
  figures: AcquisitionFigures | null;
  figuresCaption: string;
  /** Said above the figures once the form differs from what they were computed from. */
  figuresStaleNote: string;
  submitLabel: string;
  onSaved: (fresh: AcquisitionSubsidiary) => void;
  /** Editing a saved acquisition can be abandoned; a proposal has nothing to go back to. */
  onCancel?: () => void;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={4} size="h6">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** A row's choice of one of the parent's accounts, searched by number or name. */
function RowAccount({ label, placeholder, clearable = false, data, input }: { label: string; placeholder: string; clearable?: boolean; data: SelectProps["data"]; input: GetInputPropsReturnType }) {
  return <Select size="xs" aria-label={label} placeholder={placeholder} searchable clearable={clearable} data={data} comboboxProps={{ withinPortal: true }} {...input} />;
}

/**
 * A list the form edits row by row: its table while it has rows (each row's cells, then its Remove),
 * a refusal of the list as a whole, and the button that adds a row.
 */
function EditableRows<R extends { key: string }>({
  rows,
  listPath,
  minWidth,
  label,
  columns,
  removeLabel,
  onRemove,
  error,
  addLabel,
  onAdd,
  children: cells,
}: {
  rows: readonly R[];
  /** Where the list is in the form's values: a row's fields are at `${listPath}.${i}.${field}`. */
  listPath: string;
  minWidth: number;
  label: string;
  columns: readonly Column[];
  /** The Remove button's name for row `n` (1-based). */
  removeLabel: (n: number) => string;
  onRemove: (i: number) => void;
  error?: ReactNode;
  addLabel: string;
  onAdd: () => void;
  /** A row's cells, given the row, its number (1-based) and the path of each of its fields. */
  children: (row: R, n: number, path: (field: string) => string) => ReactNode;
}) {
  return (
    <>
      {rows.length > 0 ? (
        <Table.ScrollContainer minWidth={minWidth}>
          <HeadedTable verticalSpacing={6} aria-label={label} columns={[...columns, { w: 40 }]}>
            {rows.map((row, i) => (
              <Table.Tr key={row.key}>
                {cells(row, i + 1, (field) => `${listPath}.${i}.${field}`)}
                <Table.Td>
                  <RemoveButton label={removeLabel(i + 1)} onClick={() => onRemove(i)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </HeadedTable>
        </Table.ScrollContainer>
      ) : null}
      {error ? (
        <Text size="sm" c="red.8" role="alert">
          {error}
        </Text>
      ) : null}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={onAdd}>
          {addLabel}
        </Button>
      </Group>
    </>
  );
}

const options = (accounts: readonly AccountOption[]) => accounts.map((a) => ({ value: a.accountId, label: accountLabel(a) }));
const num = { fontVariantNumeric: "tabular-nums" } as const;

/**
 * One subsidiary's acquisition, edited all at once and saved all or nothing. The form's paths are
 * the API's, so the server's field errors land next to their inputs; a failed save keeps
 * everything the user typed.
 */
export function AcquisitionForm({ sub, parentName, parentCurrency, assetAccounts, expenseAccounts, initial, figures, figuresCaption, figuresStaleNote, submitLabel, onSaved, onCancel }: Props) {
  const form = useForm<FormValues>({
    initialValues: initial,
    validate: (values) => buildInput(values, sub.currency, parentCurrency).errors,
  });
  const save = useSaveAcquisition();
  const [failure, setFailure] = useState<string | null>(null);
  const values = form.getValues();
  const wholly = whollyOwned(values.ownershipPercent);
  const nci = nciPercent(values.ownershipPercent);
  const assetData = options(assetAccounts);
  const expenseData = options(expenseAccounts);
  const dirty = form.isDirty();
  const errors = form.errors as Record<string, React.ReactNode>;

  const submit = form.onSubmit(
    (v) => {
      setFailure(null);
      const built = buildInput(v, sub.currency, parentCurrency);
      if (!built.input) return;
      save.mutate(
        { realmId: sub.realmId, body: built.input },
        {
          onSuccess: onSaved,
          onError: (e) => {
            const fields = placeErrors(e instanceof ApiError ? e.fieldErrors() : {}, built.equityIndex);
            form.setErrors(fields);
            const unplaced = unplacedErrors(fields);
            setFailure(Object.keys(fields).length > 0 && unplaced.length === 0 ? `Nothing was saved: ${e.message}` : `Nothing was saved: ${[e.message, ...unplaced].join(" ")}`);
          },
        },
      );
    },
    () => setFailure("Nothing was sent: correct the fields marked in red."),
  );

  const localExponent = currencyExponent(sub.currency);
  let equityTotal = 0;
  for (const line of values.equityAtAcquisition) equityTotal += parseAmount(line.localAmount, localExponent) ?? 0;
  const acquiredOn = values.acquiredOn;
  const acquiredDate = parseDateText(acquiredOn);
  const effective = acquiredDate ? formatDate(lastDayOfMonth(monthOf(acquiredDate))) : null;

  return (
    <form onSubmit={submit} noValidate aria-label={`${sub.companyName} acquisition`}>
      <Stack gap="lg">
        {failure ? (
          <Alert color="red" title={`${sub.companyName}'s acquisition was not saved`}>
            {failure}
          </Alert>
        ) : null}
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <DateInput
              label="Acquisition date"
              placeholder="YYYY-MM-DD"
              valueFormat="YYYY-MM-DD"
              dateParser={parseDateText}
              clearable
              popoverProps={{ withinPortal: true }}
              description={
                effective
                  ? `The books are monthly: it takes effect at the month-end, ${effective}.`
                  : "The books are monthly: the acquisition takes effect at the end of its month."
              }
              value={acquiredOn === "" ? null : acquiredOn}
              error={errors["acquiredOn"]}
              onChange={(v) => {
                form.setFieldValue("acquiredOn", v ?? "");
                form.clearFieldError("acquiredOn");
              }}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput
              label="% acquired"
              inputMode="decimal"
              rightSection={<Text size="sm">%</Text>}
              description={nci === null ? "Such as 80 or 62.5." : nci === "0" ? "Wholly owned: no non-controlling interests." : `Non-controlling interests hold ${nci}%.`}
              {...form.getInputProps("ownershipPercent")}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput
              label={`Consideration paid (${parentCurrency})`}
              inputMode="decimal"
              placeholder="e.g. 1,234,567.89"
              description={`What ${parentName} paid, in ${parentCurrency}; acquisition costs are expenses, not consideration.`}
              {...form.getInputProps("consideration")}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <Select
              label="Investment account"
              description={`${parentName}'s asset account that holds the investment`}
              placeholder="Choose an asset account"
              searchable
              nothingFoundMessage="No asset account of the parent matches"
              data={assetData}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps("investmentAccountId")}
            />
          </Grid.Col>
          {wholly ? null : (
            <Grid.Col span={12}>
              <Group align="flex-start" gap="xl">
                <Radio.Group label="Measure the non-controlling interests at" {...form.getInputProps("nciMeasurement")}>
                  <Stack gap="xs" mt="xs">
                    {NCI_MEASUREMENTS.map((m) => (
                      <Radio key={m.value} value={m.value} label={m.label} description={m.explanation} />
                    ))}
                  </Stack>
                </Radio.Group>
                {values.nciMeasurement === "fairValue" ? (
                  <TextInput
                    label={`NCI fair value at acquisition (${parentCurrency})`}
                    inputMode="decimal"
                    placeholder="e.g. 40,000.00"
                    miw={260}
                    {...form.getInputProps("nciFairValue")}
                  />
                ) : null}
              </Group>
            </Grid.Col>
          )}
        </Grid>

        <Section title="Equity at acquisition">
          <Text size="xs" c="dimmed">
            {sub.companyName}&apos;s equity at the acquisition date in {sub.currency}, as credits (share capital of 100,000 is 100,000; an
            accumulated loss is negative). Leave an account blank when it held nothing.
          </Text>
          <Table.ScrollContainer minWidth={520}>
            <HeadedTable
              verticalSpacing={6}
              aria-label={`Equity of ${sub.companyName} at acquisition`}
              maw={720}
              columns={["Account", { label: `Amount (${sub.currency})`, w: 260 }]}
            >
              {values.equityAtAcquisition.map((line, i) => (
                <Table.Tr key={line.accountId} data-account-id={line.accountId}>
                  <Table.Td>
                    <Text size="sm">{accountLabel(line)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      inputMode="decimal"
                      aria-label={`Equity at acquisition of ${line.name}`}
                      {...form.getInputProps(`equityAtAcquisition.${i}.localAmount`)}
                      error={equityRowError(errors, i)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th scope="row">Net assets</Table.Th>
                <Table.Td style={num} data-testid="equity-total">
                  <Text size="sm" fw={600} pl="xs">
                    {formatAmount(equityTotal, sub.currency)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            </HeadedTable>
          </Table.ScrollContainer>
          {errors["equityAtAcquisition"] ? (
            <Text size="sm" c="red.8" role="alert">
              {errors["equityAtAcquisition"]}
            </Text>
          ) : null}
        </Section>

        <Section title="Fair-value adjustments">
          <Text size="xs" c="dimmed">
            Identifiable assets whose fair value at acquisition differs from {sub.companyName}&apos;s books (a brand, customer lists, property,
            stock), in {sub.currency}, an uplift positive. Each is amortised over its useful life to the expense account you choose.
          </Text>
          <EditableRows
            rows={values.fairValueAdjustments}
            listPath="fairValueAdjustments"
            minWidth={1100}
            label={`Fair-value adjustments of ${sub.companyName}`}
            columns={["Description", { label: "Kind", w: 130 }, "Asset account", { label: `Amount (${sub.currency})`, w: 150 }, { label: "Useful life (months)", w: 120 }, "Expense account"]}
            removeLabel={(n) => `Remove adjustment ${n}`}
            onRemove={(i) => form.removeListItem("fairValueAdjustments", i)}
            addLabel="Add adjustment"
            onAdd={() => form.insertListItem("fairValueAdjustments", newAdjustment())}
          >
            {(_row, n, path) => (
              <>
                <Table.Td>
                  <TextInput size="xs" aria-label={`Description of adjustment ${n}`} placeholder="e.g. Customer relationships" {...form.getInputProps(path("description"))} />
                </Table.Td>
                <Table.Td>
                  <Select size="xs" aria-label={`Kind of adjustment ${n}`} data={FAIR_VALUE_KINDS.map((k) => ({ ...k }))} allowDeselect={false} comboboxProps={{ withinPortal: true }} {...form.getInputProps(path("kind"))} />
                </Table.Td>
                <Table.Td>
                  <RowAccount label={`Asset account of adjustment ${n}`} placeholder="Parent's asset account" data={assetData} input={form.getInputProps(path("assetAccountId"))} />
                </Table.Td>
                <Table.Td>
                  <TextInput size="xs" inputMode="decimal" aria-label={`Amount of adjustment ${n}`} placeholder="e.g. 250,000.00" {...form.getInputProps(path("amount"))} />
                </Table.Td>
                <Table.Td>
                  <TextInput size="xs" inputMode="numeric" aria-label={`Useful life of adjustment ${n} in months`} placeholder="e.g. 60" {...form.getInputProps(path("usefulLifeMonths"))} />
                </Table.Td>
                <Table.Td>
                  <RowAccount label={`Expense account of adjustment ${n}`} placeholder="Parent's expense account" data={expenseData} input={form.getInputProps(path("expenseAccountId"))} />
                </Table.Td>
              </>
            )}
          </EditableRows>
        </Section>

        <Section title="Later changes in ownership">
          <Text size="xs" c="dimmed">
            Shares {parentName} bought or sold after the acquisition while keeping control. Each is a transaction between owners: the
            non-controlling interests are adjusted, the difference goes to equity and there is no gain or loss (IFRS 10.23, ASC 810-10-45-23).
          </Text>
          <EditableRows
            rows={values.ownershipChanges}
            listPath="ownershipChanges"
            minWidth={900}
            label={`Changes in ownership of ${sub.companyName}`}
            columns={[{ label: "Date", w: 190 }, { label: "% held after", w: 150 }, { label: `Paid or received (${parentCurrency})`, w: 220 }, "Booked on"]}
            removeLabel={(n) => `Remove change ${n}`}
            onRemove={(i) => form.removeListItem("ownershipChanges", i)}
            error={errors["ownershipChanges"]}
            addLabel="Add change in ownership"
            onAdd={() => form.insertListItem("ownershipChanges", newOwnershipChange())}
          >
            {(row, n, path) => (
              <>
                <Table.Td>
                  <DateInput
                    size="xs"
                    aria-label={`Date of change ${n}`}
                    placeholder="YYYY-MM-DD"
                    valueFormat="YYYY-MM-DD"
                    dateParser={parseDateText}
                    popoverProps={{ withinPortal: true }}
                    value={row.effectiveOn === "" ? null : row.effectiveOn}
                    error={errors[path("effectiveOn")]}
                    onChange={(v) => {
                      form.setFieldValue(path("effectiveOn"), v ?? "");
                      form.clearFieldError(path("effectiveOn"));
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput size="xs" inputMode="decimal" aria-label={`Percent held after change ${n}`} placeholder="e.g. 90" rightSection={<Text size="xs">%</Text>} {...form.getInputProps(path("ownershipPercent"))} />
                </Table.Td>
                <Table.Td>
                  <TextInput size="xs" inputMode="decimal" aria-label={`Consideration of change ${n}`} placeholder="e.g. 150,000.00" {...form.getInputProps(path("consideration"))} />
                </Table.Td>
                <Table.Td>
                  <RowAccount label={`Account change ${n} was booked on`} placeholder="The investment account" clearable data={assetData} input={form.getInputProps(path("accountId"))} />
                </Table.Td>
              </>
            )}
          </EditableRows>
        </Section>

        <Group justify="flex-end" gap="sm">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={save.isPending}>
              Cancel
            </Button>
          ) : null}
          <Button
            variant="default"
            disabled={!dirty || save.isPending}
            onClick={() => {
              form.reset();
              setFailure(null);
            }}
          >
            Discard changes
          </Button>
          <Button type="submit" loading={save.isPending}>
            {submitLabel}
          </Button>
        </Group>

        {figures ? (
          <FiguresTable
            companyName={sub.companyName}
            figures={figures}
            currency={sub.currency}
            parentCurrency={parentCurrency}
            caption={figuresCaption}
            stale={dirty ? figuresStaleNote : null}
          />
        ) : (
          <Text size="sm" c="dimmed">
            Goodwill and the non-controlling interests at acquisition are worked out once the acquisition is saved.
          </Text>
        )}
      </Stack>
    </form>
  );
}
