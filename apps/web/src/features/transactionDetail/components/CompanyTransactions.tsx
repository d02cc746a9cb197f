import { Anchor, Table, Text } from "@mantine/core";
import { IconExternalLink } from "@tabler/icons-react";
import { formatAmount } from "@groupledger/domain";
import { companySums, type CompanyDetail } from "../model.ts";
import { Section } from "../../screens/components/Section.tsx";
import { AmountCell } from "../../screens/components/AmountCell.tsx";

/**
 * One company's transactions behind the parent account: each in the company's currency and in
 * the parent's at its month's average rate, then the company's subtotal as the consolidation
 * computes it, with the cent or so of rounding between the two said on its own line.
 */
export function CompanyTransactions({ company, parentCurrency }: { company: CompanyDetail; parentCurrency: string }) {
  const foreign = company.currency !== parentCurrency;
  const sums = companySums(company);
  const local = (n: number) => formatAmount(n, company.currency);
  const parent = (n: number | null) => (n === null ? "—" : formatAmount(n, parentCurrency));
  const columns = foreign ? 10 : 8;
  return (
    <Section
      label={company.companyName}
      title={`${company.companyName} (${company.currency})`}
      description={
        <>
          {company.accounts.length === 1 ? "Account" : "Accounts"} behind this line: {company.accounts.map((a) => a.name).join(", ")}.
          {foreign ? ` Each transaction in ${parentCurrency} at the average rate of its month.` : ""}
        </>
      }
    >
      {company.transactions.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="no-transactions">
          No transactions in this range.
        </Text>
      ) : (
        // Narrow enough to fit beside the navigation from 1366 px up, a desktop scroll bar included (name, memo and
        // account wrap; amounts do not): wider, the Link column ended past the edge and had to be scrolled to.
        <Table.ScrollContainer minWidth={foreign ? 1000 : 860}>
          <Table striped withTableBorder fz="sm" verticalSpacing={4} aria-label={`${company.companyName} transactions`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={100}>Date</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Num</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Memo</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th ta="right">Amount ({company.currency})</Table.Th>
                {foreign ? (
                  <>
                    <Table.Th ta="right">Rate</Table.Th>
                    <Table.Th ta="right">Amount ({parentCurrency})</Table.Th>
                  </>
                ) : null}
                <Table.Th w={40}>
                  <Text span size="xs" c="dimmed">
                    Link
                  </Text>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {company.transactions.map((t, i) => (
                <Table.Tr key={`${t.txnId ?? "row"}-${t.accountId}-${i}`}>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{t.date}</Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{t.type}</Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{t.docNumber ?? ""}</Table.Td>
                  <Table.Td>{t.name ?? ""}</Table.Td>
                  <Table.Td maw={320}>
                    <Text size="sm" lineClamp={2} title={t.memo ?? undefined}>
                      {t.memo ?? ""}
                    </Text>
                  </Table.Td>
                  <Table.Td>{t.accountName}</Table.Td>
                  <AmountCell style={{ whiteSpace: "nowrap" }}>{local(t.local)}</AmountCell>
                  {foreign ? (
                    <>
                      <AmountCell>{t.rate ?? "No rate"}</AmountCell>
                      <AmountCell style={{ whiteSpace: "nowrap" }}>{parent(t.translated)}</AmountCell>
                    </>
                  ) : null}
                  <Table.Td>
                    {t.url ? (
                      <Anchor href={t.url} target="_blank" rel="noopener noreferrer" aria-label={`Open ${t.type} ${t.docNumber ?? t.txnId ?? ""} in QuickBooks (opens in a new tab)`}>
                        <IconExternalLink size={16} aria-hidden />
                      </Anchor>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              {sums.rounding !== 0 ? (
                <Table.Tr data-testid="rounding">
                  <Table.Td colSpan={columns - 2}>
                    <Text size="sm">Rounding</Text>
                    <Text size="xs" c="dimmed">
                      The consolidation translates each account&apos;s month as one sum, not transaction by transaction.
                    </Text>
                  </Table.Td>
                  <AmountCell>{parent(sums.rounding)}</AmountCell>
                  <Table.Td />
                </Table.Tr>
              ) : null}
              <Table.Tr fw={650} data-testid="company-total">
                <Table.Td colSpan={6}>Total {company.companyName}</Table.Td>
                <AmountCell style={{ whiteSpace: "nowrap" }}>{local(company.totalLocal)}</AmountCell>
                {foreign ? (
                  <>
                    <Table.Td />
                    <AmountCell style={{ whiteSpace: "nowrap" }}>{parent(company.totalTranslated)}</AmountCell>
                  </>
                ) : null}
                <Table.Td />
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      )}
      {company.totalTranslated === null ? (
        <Text size="sm" c="orange.8">
          The total in {parentCurrency} is missing until every month of the range has its average rate (see above).
        </Text>
      ) : null}
    </Section>
  );
}
