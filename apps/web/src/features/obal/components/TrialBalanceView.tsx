import { Alert, Badge, Button, Group, List, Paper, Stack, Table, Text, Title } from "@mantine/core";
import type { ObalTrialBalance } from "@groupledger/contract";
import { formatAmount, type AmountFormat } from "@groupledger/domain";
import { IconAlertTriangle, IconCircleCheck } from "@tabler/icons-react";
import { useState } from "react";
import { collapseMissingRates, type ProblemLike } from "../missingRates.ts";
import { ctaBreakdown, fixLink, isEmptyLine, isUnmappedRow, monthTextLabel, type CtaView } from "../model.ts";
import { BalancedBadge } from "../../entries/components/EntryLines.tsx";
import { AmountCell } from "../../screens/components/AmountCell.tsx";
import { WithFixLink } from "../../screens/components/FixLink.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";

type View = NonNullable<ObalTrialBalance["view"]>;

/** Trial-balance amounts: the currency's decimals, en-US grouping, no symbol, credits in parentheses. */
const TB_AMOUNT: AmountFormat = { currency: "none", locale: "en-US" };

/**
 * Account numbers (QBO AcctNum) by QBO account id, of the subsidiary and of the parent: what an
 * accountant recognises an account by. The ids in the trial balance mean nothing to a person, so
 * nothing is shown where a company does not number its accounts (or its chart has not loaded).
 */
export interface AccountNumbers {
  sub: ReadonlyMap<string, string>;
  parent: ReadonlyMap<string, string>;
}
const NO_NUMBERS: AccountNumbers = { sub: new Map(), parent: new Map() };

function AccountLabel({ number, name, fw }: { number: string | undefined; name: string; fw?: number }) {
  return (
    <>
      {number ? (
        <Text span c="dimmed" size="xs" mr={6} ff="monospace">
          {number}
        </Text>
      ) : null}
      <Text span size="sm" fw={fw}>
        {name}
      </Text>
    </>
  );
}

const BASIS_LABELS: Record<string, string> = {
  unchanged: "Same currency",
  closing: "Closing rate",
  average: "Average rate",
  historical: "Historical",
  retainedEarningsRollForward: "Rolled forward",
  dividends: "Rate when declared",
  combinedIntoRetainedEarnings: "Into retained earnings",
  cta: "Balancing (CTA)",
  remeasurement: "Remeasurement",
};
export const basisLabel = (basis: string): string => BASIS_LABELS[basis] ?? basis;

/** What blocks review and posting, each with a link to the screen that fixes it. */
export function ProblemList({ problems, title }: { problems: readonly ProblemLike[]; title: string }) {
  if (problems.length === 0) return null;
  // A month without rates is two problems, a year of them 26: each currency's missing rates are one line.
  const lines = collapseMissingRates(problems);
  return (
    <Alert color="red" radius="md" title={title} icon={<IconAlertTriangle size={18} aria-hidden />} role="alert" data-testid="problems">
      <List size="sm" spacing={6}>
        {lines.map((p, i) => (
          <List.Item key={`${p.code}-${i}`}>
            <WithFixLink message={p.message} fix={fixLink(p.code)} />
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** The CTA line's derivation: the engine's parts, and proof that they add up to the change it books. */
function CtaExplanationBox({ cta, parentCurrency, account }: { cta: CtaView; parentCurrency: string; account: { number: string | undefined; name: string } }) {
  const breakdown = ctaBreakdown(cta);
  // The engine explains the CTA credit positive; it is shown debit positive like the trial balance above, so the
  // closing CTA here reads exactly as the highlighted CTA line does.
  const fmt = (n: number) => formatAmount(-n, parentCurrency, TB_AMOUNT);
  return (
    <Paper withBorder radius="md" p="md" bg="yellow.0" data-testid="cta-explanation" aria-label="How the CTA is made up" component="section">
      <Stack gap="xs">
        <Text fw={650}>
          Cumulative translation adjustment (CTA), posted to {account.number ? `${account.number} ` : ""}
          {account.name}
        </Text>
        <Text size="sm" c="dimmed" maw={760}>
          The CTA balances the translated trial balance: assets and liabilities are at the closing rate, income at the average rate and
          equity at historical rates. Amounts are in {parentCurrency}; debits positive, credits in parentheses, as on the trial balance.
        </Text>
        {breakdown ? (
          <Table withRowBorders={false} verticalSpacing={2} maw={640} fz="sm">
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>Opening CTA</Table.Td>
                <AmountCell>{fmt(cta.opening)}</AmountCell>
              </Table.Tr>
              {breakdown.parts.map((p) => (
                <Table.Tr key={p.key} data-testid={`cta-part-${p.key}`}>
                  <Table.Td pl="lg">+ {p.label}</Table.Td>
                  <AmountCell>{fmt(p.amount)}</AmountCell>
                </Table.Tr>
              ))}
              <Table.Tr style={{ borderTop: "1px solid var(--mantine-color-gray-4)" }}>
                <Table.Td fw={600}>Change in the period</Table.Td>
                <AmountCell fw={600} data-testid="cta-change">{fmt(breakdown.sum)}</AmountCell>
              </Table.Tr>
              <Table.Tr>
                <Table.Td fw={650}>Closing CTA</Table.Td>
                <AmountCell fw={650}>{fmt(cta.closing)}</AmountCell>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm">The breakdown of the CTA is not available for this trial balance.</Text>
        )}
        {breakdown ? (
          breakdown.addsUp && cta.opening + cta.change === cta.closing ? (
            <Group gap={6}>
              <IconCircleCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden />
              <Text size="sm" c="teal.9" data-testid="cta-adds-up">
                The parts add up to the change of {fmt(cta.change)}, and opening plus change is the closing CTA.
              </Text>
            </Group>
          ) : (
            <Text size="sm" c="red.8" fw={600} role="alert">
              The parts add up to {fmt(breakdown.sum)}, not the change of {fmt(cta.change)} on the CTA line. Do not post this trial balance;
              contact support.
            </Text>
          )
        ) : null}
      </Stack>
    </Paper>
  );
}

/** A subsidiary's trial balance at the locked month-end: local, translated at its rate and basis, mapped onto the parent. */
export function TrialBalanceView({ view, numbers = NO_NUMBERS }: { view: View; numbers?: AccountNumbers }) {
  const [showEmpty, setShowEmpty] = useState(false);
  const local = (n: number) => formatAmount(n, view.currency, TB_AMOUNT);
  const translated = (n: number) => formatAmount(n, view.parentCurrency, TB_AMOUNT);
  const t = view.totals;
  const translatedInto = view.currency !== view.parentCurrency;
  // Accounts with nothing in them are most of a chart; they add nothing to the totals or the entry.
  const emptyCount = view.lines.filter(isEmptyLine).length;
  // A subsidiary in the parent's currency has no translation difference: a zero CTA line would only puzzle.
  const noCta = (l: View["lines"][number]) => !translatedInto && l.special === "cta" && l.translated === 0;
  const lines = view.lines.filter((l) => !noCta(l) && (showEmpty || !isEmptyLine(l)));
  const ctaLine = view.lines.find((l) => l.special === "cta");
  const ctaAccount = { number: numbers.parent.get(view.cta.account), name: ctaLine?.parentAccountName ?? view.byParentAccount.find((a) => a.account === view.cta.account)?.name ?? view.cta.account };
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Group gap="sm">
          <Title order={3} size="h4">
            {view.companyName}: trial balance at the end of {monthTextLabel(view.month)}
          </Title>
          <BalancedBadge balanced={t.balanced} />
        </Group>
        <Text size="sm" c="dimmed">
          {translatedInto ? `${view.currency} translated into ${view.parentCurrency}. ` : `In ${view.currency} like the parent: nothing is translated. `}
          Profit and loss from {monthTextLabel(view.period.from)} to {monthTextLabel(view.period.to)}; retained earnings as at the end of{" "}
          {monthTextLabel(view.openingMonth)}. Debits are positive, credits in parentheses.
        </Text>
      </Stack>
      <Table.ScrollContainer minWidth={980}>
        <Table striped highlightOnHover withTableBorder fz="sm" verticalSpacing={6} aria-label={`Trial balance of ${view.companyName}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th>Classification</Table.Th>
              <Table.Th ta="right">Local ({view.currency})</Table.Th>
              <Table.Th>Basis</Table.Th>
              <Table.Th ta="right">Rate</Table.Th>
              <Table.Th ta="right">Translated ({view.parentCurrency})</Table.Th>
              <Table.Th>Parent account</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map((l, i) => {
              const cta = l.special === "cta";
              const unmapped = isUnmappedRow(l.parentAccount);
              return (
                <Table.Tr
                  key={`${l.account ?? l.special ?? "line"}-${i}`}
                  data-testid={cta ? "cta-line" : undefined}
                  bg={cta ? "var(--mantine-color-yellow-1)" : undefined}
                  fw={cta ? 600 : undefined}
                >
                  <Table.Td>
                    <AccountLabel number={l.account ? numbers.sub.get(l.account) : undefined} name={l.name} fw={cta ? 600 : undefined} />
                    {cta ? (
                      <Badge ml="xs" size="xs" color="yellow" variant="filled">
                        CTA
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{l.classification}</Table.Td>
                  <AmountCell>{local(l.local)}</AmountCell>
                  <Table.Td>{basisLabel(l.basis)}</Table.Td>
                  <AmountCell>{l.rate ?? "—"}</AmountCell>
                  <AmountCell>{translated(l.translated)}</AmountCell>
                  <Table.Td>
                    {unmapped ? (
                      <Text span size="sm" c={l.translated === 0 ? "dimmed" : "red.8"} fw={l.translated === 0 ? undefined : 600}>
                        Not mapped
                      </Text>
                    ) : (
                      <AccountLabel number={numbers.parent.get(l.parentAccount)} name={l.parentAccountName} fw={cta ? 600 : undefined} />
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={650} data-testid="total-debits">
              <Table.Td colSpan={2}>Total debits</Table.Td>
              <AmountCell>{local(t.localDebit)}</AmountCell>
              <Table.Td colSpan={2} />
              <AmountCell>{translated(t.debit)}</AmountCell>
              <Table.Td />
            </Table.Tr>
            <Table.Tr fw={650} data-testid="total-credits">
              <Table.Td colSpan={2}>Total credits</Table.Td>
              <AmountCell>{local(-t.localCredit)}</AmountCell>
              <Table.Td colSpan={2} />
              <AmountCell>{translated(-t.credit)}</AmountCell>
              <Table.Td />
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      {emptyCount > 0 ? (
        <Group gap="xs" mt={-8}>
          <Text size="sm" c="dimmed">
            {showEmpty
              ? `Showing ${emptyCount} ${emptyCount === 1 ? "account" : "accounts"} with no balance.`
              : `${emptyCount} ${emptyCount === 1 ? "account" : "accounts"} with no balance ${emptyCount === 1 ? "is" : "are"} not shown.`}
          </Text>
          <Button variant="subtle" size="compact-sm" onClick={() => setShowEmpty((v) => !v)}>
            {showEmpty ? "Hide them" : "Show them"}
          </Button>
        </Group>
      ) : null}
      {translatedInto ? <CtaExplanationBox cta={view.cta} parentCurrency={view.parentCurrency} account={ctaAccount} /> : null}
      {view.byParentAccount.length > 0 ? (
        <Stack gap={4}>
          <Text fw={650} size="sm">
            The journal entry posted to the parent, by parent account
          </Text>
          <HeadedTable
            withTableBorder
            fz="sm"
            verticalSpacing={4}
            maw={640}
            aria-label="Journal entry lines"
            columns={["Parent account", { label: `Debit (${view.parentCurrency})`, ta: "right" }, { label: `Credit (${view.parentCurrency})`, ta: "right" }]}
          >
            {view.byParentAccount.map((a) => (
              <Table.Tr key={a.account}>
                <Table.Td>
                  <AccountLabel number={numbers.parent.get(a.account)} name={a.name} />
                </Table.Td>
                <AmountCell>{a.amount > 0 ? translated(a.amount) : ""}</AmountCell>
                <AmountCell>{a.amount < 0 ? formatAmount(-a.amount, view.parentCurrency, TB_AMOUNT) : ""}</AmountCell>
              </Table.Tr>
            ))}
          </HeadedTable>
        </Stack>
      ) : null}
    </Stack>
  );
}
