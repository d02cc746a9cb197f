import { Alert, Anchor, Badge, Group, List, Paper, Stack, Table, Text, Title } from "@mantine/core";
import type { ObalTrialBalance } from "@groupledger/contract";
import { IconAlertTriangle, IconCircleCheck } from "@tabler/icons-react";
import { Link } from "react-router";
import { ctaBreakdown, fixLink, formatAmount, type CtaView } from "../model.ts";

type View = NonNullable<ObalTrialBalance["view"]>;

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
export function ProblemList({ problems, title }: { problems: { code: string; message: string }[]; title: string }) {
  if (problems.length === 0) return null;
  return (
    <Alert color="red" radius="md" title={title} icon={<IconAlertTriangle size={18} aria-hidden />} role="alert" data-testid="problems">
      <List size="sm" spacing={6}>
        {problems.map((p, i) => {
          const fix = fixLink(p.code);
          return (
            <List.Item key={`${p.code}-${i}`}>
              {p.message}
              {fix ? (
                <>
                  {" "}
                  <Anchor component={Link} to={fix.href} size="sm">
                    {fix.label}
                  </Anchor>
                </>
              ) : null}
            </List.Item>
          );
        })}
      </List>
    </Alert>
  );
}

/** The CTA line's derivation: the engine's parts, and proof that they add up to the change it books. */
function CtaExplanationBox({ cta, parentCurrency }: { cta: CtaView; parentCurrency: string }) {
  const breakdown = ctaBreakdown(cta);
  // The engine explains the CTA credit positive; it is shown debit positive like the trial balance above, so the
  // closing CTA here reads exactly as the highlighted CTA line does.
  const fmt = (n: number) => formatAmount(-n, parentCurrency);
  return (
    <Paper withBorder radius="md" p="md" bg="yellow.0" data-testid="cta-explanation" aria-label="How the CTA is made up" component="section">
      <Stack gap="xs">
        <Text fw={650}>Cumulative translation adjustment (CTA), account {cta.account}</Text>
        <Text size="sm" c="dimmed" maw={760}>
          The CTA balances the translated trial balance: assets and liabilities are at the closing rate, income at the average rate and
          equity at historical rates. Amounts are in {parentCurrency}; debits positive, credits in parentheses, as on the trial balance.
        </Text>
        {breakdown ? (
          <Table withRowBorders={false} verticalSpacing={2} maw={640} fz="sm">
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>Opening CTA</Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {fmt(cta.opening)}
                </Table.Td>
              </Table.Tr>
              {breakdown.parts.map((p) => (
                <Table.Tr key={p.key} data-testid={`cta-part-${p.key}`}>
                  <Table.Td pl="lg">+ {p.label}</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {fmt(p.amount)}
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr style={{ borderTop: "1px solid var(--mantine-color-gray-4)" }}>
                <Table.Td fw={600}>Change in the period</Table.Td>
                <Table.Td ta="right" ff="monospace" fw={600} data-testid="cta-change">
                  {fmt(breakdown.sum)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td fw={650}>Closing CTA</Table.Td>
                <Table.Td ta="right" ff="monospace" fw={650}>
                  {fmt(cta.closing)}
                </Table.Td>
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
              <Text size="sm" c="teal.8" data-testid="cta-adds-up">
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
export function TrialBalanceView({ view }: { view: View }) {
  const local = (n: number) => formatAmount(n, view.currency);
  const translated = (n: number) => formatAmount(n, view.parentCurrency);
  const t = view.totals;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={3} size="h4">
            {view.companyName}: trial balance at {view.month}
          </Title>
          <Text size="sm" c="dimmed">
            {view.currency} translated into {view.parentCurrency}; period {view.period.from} to {view.period.to}, opening {view.openingMonth}.
            Debits are positive, credits in parentheses.
          </Text>
        </Stack>
        {t.balanced ? (
          <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={14} aria-hidden />} data-testid="balanced">
            Balanced
          </Badge>
        ) : (
          <Badge color="red" variant="filled" data-testid="balanced">
            Does not balance
          </Badge>
        )}
      </Group>
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
            {view.lines.map((l, i) => {
              const cta = l.special === "cta";
              return (
                <Table.Tr
                  key={`${l.account ?? l.special ?? "line"}-${i}`}
                  data-testid={cta ? "cta-line" : undefined}
                  bg={cta ? "var(--mantine-color-yellow-1)" : undefined}
                  fw={cta ? 600 : undefined}
                >
                  <Table.Td>
                    {l.account ? <Text span c="dimmed" size="xs" mr={6}>{l.account}</Text> : null}
                    {l.name}
                    {cta ? (
                      <Badge ml="xs" size="xs" color="yellow" variant="filled">
                        CTA
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{l.classification}</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {local(l.local)}
                  </Table.Td>
                  <Table.Td>{basisLabel(l.basis)}</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {l.rate ?? "—"}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {translated(l.translated)}
                  </Table.Td>
                  <Table.Td>
                    <Text span c="dimmed" size="xs" mr={6}>
                      {l.parentAccount}
                    </Text>
                    {l.parentAccountName}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={650} data-testid="total-debits">
              <Table.Td colSpan={2}>Total debits</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {local(t.localDebit)}
              </Table.Td>
              <Table.Td colSpan={2} />
              <Table.Td ta="right" ff="monospace">
                {translated(t.debit)}
              </Table.Td>
              <Table.Td />
            </Table.Tr>
            <Table.Tr fw={650} data-testid="total-credits">
              <Table.Td colSpan={2}>Total credits</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {local(-t.localCredit)}
              </Table.Td>
              <Table.Td colSpan={2} />
              <Table.Td ta="right" ff="monospace">
                {translated(-t.credit)}
              </Table.Td>
              <Table.Td />
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      <CtaExplanationBox cta={view.cta} parentCurrency={view.parentCurrency} />
      {view.byParentAccount.length > 0 ? (
        <Stack gap={4}>
          <Text fw={650} size="sm">
            The journal entry posted to the parent, by parent account
          </Text>
          <Table withTableBorder fz="sm" verticalSpacing={4} maw={640} aria-label="Journal entry lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Parent account</Table.Th>
                <Table.Th ta="right">Debit ({view.parentCurrency})</Table.Th>
                <Table.Th ta="right">Credit ({view.parentCurrency})</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.byParentAccount.map((a) => (
                <Table.Tr key={a.account}>
                  <Table.Td>
                    <Text span c="dimmed" size="xs" mr={6}>
                      {a.account}
                    </Text>
                    {a.name}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {a.amount > 0 ? translated(a.amount) : ""}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {a.amount < 0 ? formatAmount(-a.amount, view.parentCurrency) : ""}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ) : null}
    </Stack>
  );
}
