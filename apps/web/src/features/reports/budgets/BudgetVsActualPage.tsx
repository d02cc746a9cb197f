import { Alert, Anchor, Badge, Button, FileInput, Group, List, Paper, ScrollArea, Select, Skeleton, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { IconCloudDownload, IconFileTypeCsv } from "@tabler/icons-react";
import { budgetFiscalYear, formatAmount, shiftMonth } from "@groupledger/domain";
import { fieldErrorSchema, type BudgetOverview, type BudgetVsActualReport } from "@groupledger/contract";
import { useState } from "react";
import { z } from "zod";
import { ApiError } from "../../../lib/http.ts";
import { messageOf } from "../../../lib/forms.ts";
import { AdminGate, useAdminOnly } from "../../team/permissions.tsx";
import { Failure } from "../../screens/components/Failure.tsx";
import { ReportControls } from "../components/ReportControls.tsx";
import { ReportProblems, ReportWarnings } from "../components/ReportProblems.tsx";
import { type AreaGroup, ReportsAreaScreen, useAreaPeriod } from "../components/ReportsAreaScreen.tsx";
import { firstBookMonth, periodLabel } from "../period.ts";
import { downloadBudgetTemplate, useBudgetOverview, useBudgetVsActual, useImportBudgetCsv, useReadQuickBooksBudgets, useSaveBudgetRates } from "./api.ts";
import { budgetRows, pairAgreement, percentText, showsEliminations, varianceMark } from "./model.ts";

const DESCRIPTION =
  "The consolidated profit and loss against the companies' budgets: each budget mapped onto the parent's chart and translated at the year's budget rate, with the variance in the parent's currency, the variance at constant currency (the actual at the budget rate) and the effect of exchange rates.";

const mono = { fontVariantNumeric: "tabular-nums" } as const;
/** The eliminations column, set apart as the segments statement sets apart its own. */
const shaded = { ...mono, background: "var(--mantine-color-gray-0)" } as const;
const MAX_LISTED = 50;

/** /consolidation/reports/budget: budget vs actual for the period the address names, the year's budgets and budget rates. */
export function BudgetVsActualPage() {
  return <ReportsAreaScreen description={DESCRIPTION}>{(group) => <BudgetSection group={group} />}</ReportsAreaScreen>;
}

function BudgetSection({ group }: { group: AreaGroup }) {
  const { companies } = group;
  const { period, onPeriod, currentMonth, fyStart, valid } = useAreaPeriod(group, "year");
  const fiscalYear = valid ? budgetFiscalYear(period.from, period.to, fyStart) : null;
  const statement = useBudgetVsActual(valid && fiscalYear !== null ? { from: period.from, to: period.to } : null);
  const data = statement.data;
  return (
    <Stack gap="md" data-testid="budget-vs-actual">
      <ReportControls
        period={period}
        compare="none"
        fyStart={fyStart}
        firstMonth={firstBookMonth(companies, shiftMonth(currentMonth, -36))}
        lastMonth={shiftMonth(currentMonth, 12)}
        currentMonth={currentMonth}
        onPeriod={onPeriod}
      />
      {valid && fiscalYear === null ? (
        <Alert color="yellow" role="alert">
          {period.from} to {period.to} runs over two fiscal years, which have their own budget rates: choose months within one fiscal year.
        </Alert>
      ) : null}
      {fiscalYear !== null ? <BudgetsPanel fiscalYear={fiscalYear} /> : null}
      {statement.isPending && fiscalYear !== null ? <Skeleton height={420} radius="md" /> : null}
      <Failure title="The statement could not be prepared" message={statement.error?.message} data-testid="budget-error" />
      {data && !statement.error ? (
        <div style={{ opacity: statement.isPlaceholderData ? 0.55 : 1 }} aria-busy={statement.isFetching || undefined}>
          <Statement report={data} title={`Budget vs actual, ${periodLabel(period, fyStart)}`} />
        </div>
      ) : null}
    </Stack>
  );
}

function Statement({ report, title }: { report: BudgetVsActualReport; title: string }) {
  const s = report.statement;
  const money = (n: number) => formatAmount(n, report.parentCurrency);
  const eliminating = s !== null && showsEliminations(s);
  return (
    <Paper withBorder radius="md" p="md" bg="white">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="xs" c="dimmed">
          In {report.parentCurrency}, revenue and expenses both positive. Actual at the actual rates (the consolidated P&L); budget at the FY{report.fiscalYear} budget rates. Variance = actual − budget (F favourable, A adverse);
          constant-currency variance = actual at the budget rate − budget; FX effect = actual − actual at the budget rate.
          {eliminating
            ? " Budget = the companies' budgets − the eliminations of the group's intra-group pairs, both sides of each at the budget rates; where the two sides' budgets disagree, the difference is on its own line, so the group's budgeted profit is the companies'."
            : ""}
        </Text>
        {!report.ok || !s ? (
          <ReportProblems problems={report.problems} title="The statement cannot be drawn up yet" />
        ) : (
          <ScrollArea type="auto">
            {/* Ten columns with the eliminations: a size smaller, so a laptop's page holds them all. */}
            <Table aria-label="Budget vs actual" verticalSpacing={4} horizontalSpacing={eliminating ? 6 : undefined} fz={eliminating ? "xs" : "sm"} data-testid="budget-statement" miw={980}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th miw={170}>Account</Table.Th>
                  <Table.Th ta="right">Actual</Table.Th>
                  {eliminating ? (
                    <>
                      <Table.Th ta="right">Companies&apos; budgets</Table.Th>
                      <Table.Th ta="right">Budget eliminations</Table.Th>
                    </>
                  ) : null}
                  <Table.Th ta="right">Budget</Table.Th>
                  <Table.Th ta="right">Variance</Table.Th>
                  <Table.Th ta="right">Variance %</Table.Th>
                  <Table.Th ta="right">Actual at budget rate</Table.Th>
                  <Table.Th ta="right">Constant-currency variance</Table.Th>
                  <Table.Th ta="right">FX effect</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {budgetRows(s).map((r) => {
                  const c = r.columns;
                  const bold = r.kind !== "line" ? 700 : undefined;
                  return (
                    <Table.Tr key={r.key} data-testid={`bva-${r.key}`}>
                      <Table.Td pl={r.kind === "line" ? "lg" : undefined} fw={bold}>
                        {r.label}
                      </Table.Td>
                      {c ? (
                        <>
                          <Table.Td ta="right" fw={bold} style={mono} data-col="actual">{money(c.actual)}</Table.Td>
                          {eliminating ? (
                            <>
                              <Table.Td ta="right" style={mono} data-col="budgetCompanies">{money(c.budgetCompanies)}</Table.Td>
                              {/* Added to the companies' budgets, as the statements' eliminations columns are: a deduction in brackets. */}
                              <Table.Td ta="right" style={shaded} data-col="budgetEliminations">{c.budgetEliminations === 0 ? "" : money(-c.budgetEliminations)}</Table.Td>
                            </>
                          ) : null}
                          <Table.Td ta="right" fw={bold} style={mono} data-col="budget">{money(c.budget)}</Table.Td>
                          <Table.Td ta="right" fw={bold} style={{ ...mono, whiteSpace: "nowrap" }} c={c.favourable === null || r.disagreement ? undefined : c.favourable ? "teal.8" : "red.8"} data-col="variance">
                            {money(c.variance)} {r.disagreement ? "" : varianceMark(c)}
                          </Table.Td>
                          <Table.Td ta="right" style={mono} data-col="variancePercent">{r.disagreement ? "" : percentText(c)}</Table.Td>
                          <Table.Td ta="right" style={mono} data-col="actualAtBudgetRate">{money(c.actualAtBudgetRate)}</Table.Td>
                          <Table.Td ta="right" fw={bold} style={mono} data-col="constantCurrencyVariance">{money(c.constantCurrencyVariance)}</Table.Td>
                          <Table.Td ta="right" style={mono} data-col="fxEffect">{money(c.fxEffect)}</Table.Td>
                        </>
                      ) : (
                        <Table.Td colSpan={eliminating ? 9 : 7} />
                      )}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
        {s && eliminating ? <Eliminations statement={s} /> : null}
        {s ? <Entities statement={s} /> : null}
        <ReportWarnings warnings={report.warnings} />
      </Stack>
    </Paper>
  );
}

/** Each intra-group pair's two budgets, in each company's currency and at the budget rate, eliminated; whether they agree. */
function Eliminations({ statement: s }: { statement: NonNullable<BudgetVsActualReport["statement"]> }) {
  const money = (n: number) => formatAmount(n, s.currency);
  const side = (x: NonNullable<BudgetVsActualReport["statement"]>["eliminations"][number]["revenue"]) => (
    <>
      <Text size="sm">
        {x.entityName} <Text span c="dimmed" size="xs">{x.accountName}</Text>
      </Text>
      <Text size="sm" style={mono}>
        {x.currency === s.currency ? money(x.translated) : `${formatAmount(x.local, x.currency)} = ${money(x.translated)}`}
      </Text>
    </>
  );
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        Intra-group budgets eliminated
      </Title>
      <Table aria-label="Intra-group budgets eliminated" verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Pair</Table.Th>
            <Table.Th>Revenue side</Table.Th>
            <Table.Th>Expense side</Table.Th>
            <Table.Th>At the budget rates</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {s.eliminations.map((e) => {
            const agreement = pairAgreement(e, money);
            return (
              <Table.Tr key={e.id} data-testid={`bva-pair-${e.id}`}>
                <Table.Td>{e.name}</Table.Td>
                <Table.Td>{side(e.revenue)}</Table.Td>
                <Table.Td>{side(e.expense)}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={600} c={`${agreement.color}.8`}>
                    {agreement.text}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {s.eliminations.some((e) => e.difference !== 0) ? (
        <Text size="xs" c="dimmed">
          Both sides of each pair are eliminated in full; what their budgets differ by at the budget rates is on the line &ldquo;Intra-group budgets that disagree&rdquo;, which has no actual. Agree the two budgets to clear it.
        </Text>
      ) : null}
    </Stack>
  );
}

/** Each company's budgeted and actual profit in its own currency and at the budget rate. */
function Entities({ statement: s }: { statement: NonNullable<BudgetVsActualReport["statement"]> }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        Profit by company, at the budget rate
      </Title>
      <Table aria-label="Profit by company at the budget rate" verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Company</Table.Th>
            <Table.Th ta="right">Budget rate</Table.Th>
            <Table.Th ta="right">Budgeted profit</Table.Th>
            <Table.Th ta="right">Actual profit</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {s.entities.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{e.name}</Table.Td>
              <Table.Td ta="right" style={mono}>
                {e.currency === s.currency ? "—" : `${e.budgetRate} ${s.currency}/${e.currency}`}
              </Table.Td>
              <Table.Td ta="right" style={mono}>
                {e.currency === s.currency ? formatAmount(e.budget, s.currency) : `${formatAmount(e.budgetLocal, e.currency)} = ${formatAmount(e.budget, s.currency)}`}
              </Table.Td>
              <Table.Td ta="right" style={mono}>
                {e.currency === s.currency ? formatAmount(e.actualAtBudgetRate, s.currency) : `${formatAmount(e.actualLocal, e.currency)} = ${formatAmount(e.actualAtBudgetRate, s.currency)}`}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** The year's budgets and budget rates: where each company's budget comes from, reading them from QuickBooks, a CSV import, and the rates (admins). */
function BudgetsPanel({ fiscalYear }: { fiscalYear: number }) {
  const overview = useBudgetOverview(fiscalYear);
  const read = useReadQuickBooksBudgets();
  if (overview.isPending) return <Skeleton height={200} radius="md" />;
  if (!overview.data) return <Failure title="The budgets could not be loaded" message={overview.error?.message} />;
  const o = overview.data;
  const skipped = read.data?.skipped ?? [];
  return (
    <Paper withBorder radius="md" p="md" bg="white" component="section" aria-label="Budgets and budget rates">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <Title order={2} size="h4">
            Budgets and budget rates, FY{fiscalYear} ({o.months.from} to {o.months.to})
          </Title>
          <Button variant="default" leftSection={<IconCloudDownload size={16} aria-hidden />} loading={read.isPending} onClick={() => read.mutate(fiscalYear)}>
            Read budgets from QuickBooks
          </Button>
        </Group>
        <Failure message={read.error ? messageOf(read.error) : null} />
        {read.data ? (
          <Alert color="teal" role="status" data-testid="budget-read-result">
            <Text size="sm">
              Read {read.data.imported.length === 0 ? "no budget" : read.data.imported.map((i) => `${i.companyName}: "${i.name}" (${i.from} to ${i.to}${i.entered === "monthly" ? "" : `, ${i.entered}`})`).join("; ")}.
            </Text>
            {skipped.map((s) => (
              <Text key={`${s.realmId}:${s.name ?? ""}`} size="sm">
                {s.companyName}
                {s.name ? ` "${s.name}"` : ""}: {s.reason}
              </Text>
            ))}
          </Alert>
        ) : null}
        <Table aria-label="Where each company's budget comes from" verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Company</Table.Th>
              <Table.Th>Budget</Table.Th>
              <Table.Th>Months without a budget</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {o.companies.map((c) => (
              <Table.Tr key={c.realmId} data-testid={`budget-company-${c.realmId}`}>
                <Table.Td>
                  {c.companyName} <Text span c="dimmed" size="xs">{c.currency}</Text>
                </Table.Td>
                <Table.Td>
                  {c.sources.length === 0 ? (
                    <Text size="sm" c="dimmed">None yet</Text>
                  ) : (
                    <Stack gap={2}>
                      {c.sources.map((s) => (
                        <Group key={`${s.source}:${s.name}`} gap={6} wrap="nowrap">
                          <Badge size="xs" variant="light" color={s.source === "quickbooks" ? "green" : "blue"}>
                            {s.source === "quickbooks" ? "QuickBooks" : "CSV"}
                          </Badge>
                          <Text size="sm">
                            {s.name}, {s.from} to {s.to}
                            {s.entered === "monthly" ? "" : `, entered ${s.entered} (compared over whole ${s.entered === "quarterly" ? "quarters" : s.entered === "annually" ? "years" : "periods"})`}
                          </Text>
                        </Group>
                      ))}
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td>{c.missingMonths.length === 0 ? "—" : c.missingMonths.length === 12 ? "All 12" : `${c.missingMonths.length}: ${c.missingMonths[0]} to ${c.missingMonths.at(-1)}`}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group align="flex-start" gap="xl" wrap="wrap">
          <RatesEditor overview={o} />
          <CsvImport overview={o} />
        </Group>
      </Stack>
    </Paper>
  );
}

/** One rate per foreign currency for the year; admins edit, others read. */
function RatesEditor({ overview: o }: { overview: BudgetOverview }) {
  const adminOnly = useAdminOnly("change the budget rates");
  const canEdit = adminOnly === null;
  const save = useSaveBudgetRates();
  const [draft, setDraft] = useState<Record<string, string>>({});
  const value = (currency: string, rate: string | null) => draft[currency] ?? rate ?? "";
  const changed = o.rates.filter((r) => draft[r.currency] !== undefined && draft[r.currency] !== (r.rate ?? ""));
  const submit = () =>
    save.mutate({ fiscalYear: o.fiscalYear, rates: changed.map((r) => ({ currency: r.currency, rate: draft[r.currency]!.trim() })) }, { onSuccess: () => setDraft({}) });
  if (o.rates.length === 0) return <Text size="sm" c="dimmed">Every company keeps its books in {o.parentCurrency}: no budget rate is needed.</Text>;
  return (
    <Stack gap={6} maw={360} component="section" aria-label="Budget rates">
      <Title order={3} size="h5">
        Budget rates, FY{o.fiscalYear}
      </Title>
      <Text size="xs" c="dimmed">
        {o.parentCurrency} per one unit of each currency, as the budget was set.{canEdit ? "" : " Only an admin can change them."}
      </Text>
      {o.rates.map((r) => (
        <TextInput
          key={r.currency}
          label={`${r.currency} budget rate`}
          placeholder="not set"
          value={value(r.currency, r.rate)}
          onChange={(e) => {
            const next = e.currentTarget.value;
            setDraft((d) => ({ ...d, [r.currency]: next }));
          }}
          readOnly={!canEdit}
          error={r.rate === null && draft[r.currency] === undefined ? "Not set: the statement needs it." : undefined}
          w={220}
          styles={{ input: mono }}
        />
      ))}
      <Failure message={save.error ? errorLines(save.error).join(" ") || messageOf(save.error) : null} />
      <Group>
        <AdminGate reason={adminOnly}>
          <Button onClick={submit} disabled={changed.length === 0} loading={save.isPending}>
            Save rates
          </Button>
        </AdminGate>
      </Group>
    </Stack>
  );
}

/** The per-line messages of a refused request (details.fields), in the file's order. */
function errorLines(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [];
  const fields = z.array(fieldErrorSchema).safeParse(error.details["fields"]);
  return fields.success ? fields.data.map((f) => f.message) : [];
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

/** A company's budget from a CSV file: all or nothing, every bad line listed. */
function CsvImport({ overview: o }: { overview: BudgetOverview }) {
  const [realmId, setRealmId] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const importCsv = useImportBudgetCsv();
  const submit = async () => {
    if (!file || !realmId) return;
    let csv: string;
    try {
      csv = await readText(file);
    } catch {
      setReadError("The file could not be read. Choose it again.");
      return;
    }
    importCsv.mutate({ realmId, fiscalYear: o.fiscalYear, name: file.name, csv }, { onSuccess: () => setFile(null) });
  };
  const lines = errorLines(importCsv.error);
  return (
    <Stack gap={6} maw={520} component="section" aria-label="Import a budget from CSV">
      <Title order={3} size="h5">
        Import a budget from CSV
      </Title>
      <Text size="xs" c="dimmed">
        For a company whose QuickBooks keeps no budget. Header <code>account,month,amount</code>: the account&apos;s number or exact name, a month like 2026-01, the amount in the company&apos;s currency (income and expenses both positive; a line left blank is not budgeted). It replaces the company&apos;s budget for the months in the file.
      </Text>
      {realmId ? (
        <Anchor component="button" type="button" size="sm" ta="left" onClick={() => void downloadBudgetTemplate(realmId, o.fiscalYear).catch((e: unknown) => setReadError(messageOf(e)))}>
          Download the template for {o.companies.find((c) => c.realmId === realmId)?.companyName}
        </Anchor>
      ) : null}
      <Group align="flex-end" gap="xs">
        <Select
          label="Company"
          placeholder="Choose a company"
          data={o.companies.map((c) => ({ value: c.realmId, label: c.companyName }))}
          value={realmId}
          onChange={(v) => {
            setRealmId(v);
            importCsv.reset();
          }}
          w={220}
        />
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => {
            setFile(f);
            setReadError(null);
            importCsv.reset();
          }}
          leftSection={<IconFileTypeCsv size={18} aria-hidden />}
          clearable
          error={readError}
          w={220}
        />
        <Button onClick={() => void submit()} disabled={!file || !realmId} loading={importCsv.isPending}>
          Import
        </Button>
      </Group>
      {importCsv.data ? (
        <Alert color="teal" role="status">
          Imported {importCsv.data.imported[0]?.lines} budget lines for {importCsv.data.imported[0]?.companyName}, {importCsv.data.imported[0]?.from} to {importCsv.data.imported[0]?.to}.
        </Alert>
      ) : null}
      {importCsv.error ? (
        <Alert color="red" role="alert" title="Nothing was imported" data-testid="budget-import-errors">
          <Text size="sm" mb={lines.length > 1 ? 6 : 0}>
            {lines.length === 1 ? lines[0] : importCsv.error.message}
          </Text>
          {lines.length > 1 ? (
            <ScrollArea.Autosize mah={220}>
              <List size="sm" spacing={2}>
                {lines.slice(0, MAX_LISTED).map((m, i) => (
                  <List.Item key={`${i}:${m}`}>{m}</List.Item>
                ))}
              </List>
              {lines.length > MAX_LISTED ? <Text size="sm">…and {lines.length - MAX_LISTED} more. Is it the right file?</Text> : null}
            </ScrollArea.Autosize>
          ) : null}
        </Alert>
      ) : null}
    </Stack>
  );
}
