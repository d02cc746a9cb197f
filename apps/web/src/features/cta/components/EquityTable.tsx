import { SegmentedControl, Table, Text, TextInput } from "@mantine/core";
import { formatAmount } from "@groupledger/domain";
import { accountLabel, creditSide, rowError, translationOf, type EquityRowForm, type FieldErrors, type HistoricalMode } from "../model.ts";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";

interface Props {
  /** Contributed equity, or the non-monetary items the temporal method remeasures at history. */
  kind?: "equity" | "nonMonetary";
  /** Where these rows start in the `historical` array the server's error paths index. */
  offset?: number;
  /** Whether the server has listed the non-monetary accounts yet (it does once temporal is saved). */
  listed?: boolean;
  companyName: string;
  currency: string;
  parentCurrency: string;
  rows: readonly EquityRowForm[];
  errors: FieldErrors;
  onChange: (index: number, patch: Partial<EquityRowForm>) => void;
}

const MODES: { label: string; value: HistoricalMode }[] = [
  { label: "Rate", value: "rate" },
  { label: "Amount", value: "amount" },
];

/**
 * Contributed equity, translated at history: each account's local balance, the historical rate
 * or translated amount (one or the other per account), and the translated figure with how it was
 * reached, computed exactly as the consolidation will.
 */
export function EquityTable({ kind = "equity", offset = 0, listed = true, companyName, currency, parentCurrency, rows, errors, onChange }: Props) {
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {kind === "equity"
          ? `${companyName} has no contributed-equity accounts (share capital, paid-in capital) in QuickBooks, so there is nothing to translate at historical rates.`
          : listed
            ? `No non-monetary account of ${companyName} (inventory, fixed assets, prepayments, deferred income) holds a balance, so there is nothing to remeasure at historical rates.`
            : `Save the temporal method to list ${companyName}'s non-monetary accounts (inventory, fixed assets, prepayments, deferred income) here for their historical rates.`}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={760}>
      <HeadedTable
        verticalSpacing="sm"
        aria-label={`${kind === "equity" ? "Contributed equity" : "Non-monetary items"} of ${companyName}`}
        columns={["Account", { label: `Balance (${currency})`, ta: "right" }, "Translate by", "Historical rate or translated amount", { label: `Translated (${parentCurrency})`, ta: "right" }]}
      >
        {rows.map((row, i) => {
          const t = translationOf(row, currency, parentCurrency);
          const error = rowError(errors, offset + i, row.mode) ?? (t.kind === "error" ? t.message : null);
          const label = accountLabel(row);
          const needed = row.localAmount !== null && row.localAmount !== 0 && t.kind === "none";
          return (
            <Table.Tr key={row.accountId} data-account-id={row.accountId}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {label}
                </Text>
              </Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
                {row.localAmount === null ? (
                  <Text size="sm" c="dimmed">
                    No balance synced
                  </Text>
                ) : (
                  <Text size="sm">{formatAmount(row.localAmount, currency)}</Text>
                )}
              </Table.Td>
              <Table.Td>
                <SegmentedControl
                  size="xs"
                  data={MODES}
                  value={row.mode}
                  aria-label={`Translate ${row.name} by`}
                  onChange={(v) => onChange(i, { mode: v as HistoricalMode })}
                />
              </Table.Td>
              <Table.Td miw={230}>
                {row.mode === "rate" ? (
                  <TextInput
                    size="xs"
                    inputMode="decimal"
                    aria-label={`Historical rate of ${row.name}`}
                    placeholder="e.g. 1.2745"
                    description={`${parentCurrency} per 1 ${currency} on the day it was ${kind === "equity" ? "contributed" : "acquired"}`}
                    value={row.rate}
                    error={error}
                    onChange={(e) => onChange(i, { rate: e.currentTarget.value })}
                  />
                ) : (
                  <TextInput
                    size="xs"
                    inputMode="decimal"
                    aria-label={`Translated amount of ${row.name}`}
                    placeholder="e.g. 126,500.00"
                    description={`In ${parentCurrency}, as a ${creditSide(row.localAmount) ? "credit" : "debit"} like the balance`}
                    value={row.amount}
                    error={error}
                    onChange={(e) => onChange(i, { amount: e.currentTarget.value })}
                  />
                )}
              </Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }} data-testid="translated">
                {t.kind === "translated" ? (
                  <>
                    <Text size="sm" fw={600}>
                      {formatAmount(t.amount, parentCurrency)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t.rate !== null && row.localAmount !== null ? `${formatAmount(row.localAmount, currency)} × ${t.rate}` : "as entered"}
                    </Text>
                  </>
                ) : (
                  <Text size="sm" c={needed ? "red.8" : "dimmed"}>
                    {needed ? "Needed" : "—"}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </HeadedTable>
      <Text size="xs" c="dimmed" mt="xs">
        Translated = balance × historical rate, rounded half-up to the {parentCurrency} minor unit, exactly as the consolidation computes it.
        {kind === "equity"
          ? `Enter a translated amount instead when the contribution's ${parentCurrency} value is known from the parent's books.`
          : `Enter a translated amount instead when the item's ${parentCurrency} cost at the date it was acquired is known.`}
      </Text>
    </Table.ScrollContainer>
  );
}
