import { Badge, Group, Paper, Select, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useSearchParams } from "react-router";
import { formatAmount, localMonthOf, shiftMonth } from "@groupledger/domain";
import { useCompanyStatus } from "../../companies/api.ts";
import { useChart } from "../../mapping/api.ts";
import { ProblemList } from "../../obal/components/TrialBalanceView.tsx";
import { shortMonth } from "../../runs/model.ts";
import { Screen } from "../../screens/components/Screen.tsx";
import { GroupGate, type GroupSetup } from "../../eliminations/components/GroupGate.tsx";
import { useTransactionDetail } from "../api.ts";
import { grandTotal, parentAccountOptions, queryOf, readUrl, transactionCount, urlOf, type UrlState } from "../model.ts";
import { CompanyTransactions } from "./CompanyTransactions.tsx";
import { MonthRangeInputs } from "../../screens/components/MonthInput.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

const ALL = "all";

/** /consolidation/transaction-detail "Transaction Detail" (SPEC §2): the QuickBooks transactions behind a consolidated line. */
export function TransactionDetailPage() {
  return (
    <Screen
      title="Transaction Detail"
      description="The QuickBooks transactions behind a line of the consolidation: for a parent account and a range of months, every company's postings on the accounts mapped to it, in their own currency and in the parent's."
      maw={1440}
    >
      <GroupGate needsOpening={false} why="Transaction detail follows the parent's chart of accounts into each subsidiary's books.">
        {(setup) => <TransactionDetail setup={setup} />}
      </GroupGate>
    </Screen>
  );
}

function TransactionDetail({ setup }: { setup: GroupSetup }) {
  const { parent, subsidiaries } = setup;
  const [params, setParams] = useSearchParams();
  const state = readUrl(params, shiftMonth(localMonthOf(new Date()), -1));
  const status = useCompanyStatus();
  const chart = useChart(parent.realmId, status.data?.[parent.realmId]?.sync.lastSyncedAt ?? null);
  const query = queryOf(state);
  const detail = useTransactionDetail(query);

  const change = (patch: Partial<UrlState>) => setParams(urlOf({ ...state, ...patch }));
  const companies = [parent, ...subsidiaries];
  const accountKnown = !state.account || !chart.data || chart.data.some((a) => a.Id === state.account);

  const data = detail.data;
  const total = data ? grandTotal(data.companies) : null;
  return (
    <>
      <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="What to show">
        <Stack gap="sm">
          <Group align="flex-end" gap="md" wrap="wrap">
            <Select
              label="Parent account"
              placeholder={chart.isPending ? "Loading the parent's chart…" : "Search by number or name"}
              data={chart.data ? parentAccountOptions(chart.data) : []}
              value={state.account}
              onChange={(v) => change({ account: v })}
              searchable
              nothingFoundMessage="No account matches"
              maxDropdownHeight={360}
              w={420}
              error={chart.error ? `The parent's chart could not be loaded: ${chart.error.message}` : !accountKnown ? `Account ${state.account} is not in ${parent.companyName}'s chart.` : undefined}
            />
            <MonthRangeInputs
              from={state.from}
              to={state.to}
              onFrom={(from) => change({ from, to: state.to < from ? from : state.to })}
              onTo={(to) => change({ to, from: state.from > to ? to : state.from })}
              valueFormat="MMM YYYY"
              w={140}
              monthName={shortMonth}
            />
            <Select
              label="Company"
              data={[{ value: ALL, label: "All companies" }, ...companies.map((c) => ({ value: c.realmId, label: `${c.companyName} (${c.homeCurrency})` }))]}
              value={state.realmId ?? ALL}
              onChange={(v) => change({ realmId: v && v !== ALL ? v : null })}
              allowDeselect={false}
              w={300}
            />
          </Group>
          {state.problem ? (
            <Text size="sm" c="red.8" role="alert">
              {state.problem}
            </Text>
          ) : null}
        </Stack>
      </Paper>

      {!state.account ? (
        <Text size="sm" c="dimmed" data-testid="choose-account">
          Choose a parent account to see the transactions behind it, company by company. From a consolidated report, a figure&apos;s link opens
          this screen with its account and months already chosen.
        </Text>
      ) : detail.error ? (
        <Failure title="The transactions could not be read" message={detail.error.message} />
      ) : query && detail.isPending ? (
        <Skeleton height={280} radius="md" />
      ) : data ? (
        <>
          <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Summary">
            <Stack gap="xs">
              <Group gap="sm" align="center">
                <Title order={2} size="h4">
                  {chart.data?.find((a) => a.Id === data.account.id)?.acctNum ? `${chart.data.find((a) => a.Id === data.account.id)!.acctNum} · ` : ""}
                  {data.account.name}
                </Title>
                <Badge variant="light" size="sm">
                  {data.account.classification}
                </Badge>
                <Text size="sm" c="dimmed">
                  {data.period.from === data.period.to ? shortMonth(data.period.from) : `${shortMonth(data.period.from)} – ${shortMonth(data.period.to)}`}
                </Text>
              </Group>
              <Text size="sm" data-testid="summary">
                {transactionCount(data.companies)} transaction{transactionCount(data.companies) === 1 ? "" : "s"} in {data.companies.length}{" "}
                compan{data.companies.length === 1 ? "y" : "ies"}
                {total !== null ? `, ${formatAmount(total, data.parentCurrency)} in ${data.parentCurrency}` : ""}.
              </Text>
              <Text size="xs" c="dimmed" maw={980}>
                Amounts are debit positive; credits are in parentheses. Entries GroupLedger posted into the parent (opening balances,
                consolidations, eliminations) are left out, since the subsidiaries&apos; own transactions behind them are listed. A balance-sheet
                line&apos;s consolidated figure also holds the balance brought forward and its retranslation at the closing rate, which are not
                transactions.
              </Text>
            </Stack>
          </Paper>
          <ProblemList problems={data.problems} title="Not everything could be translated" />
          {data.companies.length === 0 ? (
            <Text size="sm" c="dimmed">
              No company has an account mapped to this parent account{state.realmId ? " among the companies chosen" : ""}.
            </Text>
          ) : null}
          {data.companies.map((c) => (
            <CompanyTransactions key={c.realmId} company={c} parentCurrency={data.parentCurrency} />
          ))}
          {data.companies.length > 0 ? (
            <Paper withBorder radius="md" p="md" bg="gray.0" component="section" aria-label="Total">
              <Group justify="space-between">
                <Text fw={700}>Total in {data.parentCurrency}</Text>
                <Text fw={700} ff="monospace" data-testid="grand-total">
                  {total === null ? "— (a rate is missing)" : formatAmount(total, data.parentCurrency)}
                </Text>
              </Group>
            </Paper>
          ) : null}
        </>
      ) : null}
    </>
  );
}
