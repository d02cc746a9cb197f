import { Badge, Button, Group, Select, SimpleGrid, Stack, Table, Text, TextInput } from "@mantine/core";
import type { Company, Intragroup } from "@groupledger/contract";
import {} from "@tabler/icons-react";
import { useState } from "react";
import { formatAmount } from "@groupledger/domain";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { intragroupApi, useIntragroup, useIntragroupMutation } from "../api.ts";
import { percentOfMargin, stockRequestOf, type StockForm } from "../model.ts";
import { Section } from "../../screens/components/Section.tsx";
import { AmountCell } from "../../screens/components/AmountCell.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { RemoveButton } from "../../screens/components/RemoveButton.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

const label = (a: { name: string; acctNum: string | null }) => (a.acctNum ? `${a.acctNum} ${a.name}` : a.name);
const options = (list: Intragroup["assetAccounts"]) => list.map((a) => ({ value: a.accountId, label: label(a) }));

/** The server's refusal, field by field (details.fields). */
const serverFields = (e: unknown): Record<string, string> => (e instanceof ApiError ? e.fieldErrors() : {});

/**
 * Intra-group trade the consolidation adjusts for (issue 16): stock one group company still holds
 * at a month-end that it bought from another (its unrealised profit is eliminated that period and
 * realised the next), and where the parent books each subsidiary's dividends.
 */
export function IntragroupSection({ companies }: { companies: Company[] }) {
  const data = useIntragroup();
  if (data.error) return <Failure title="Intra-group trade could not be loaded" message={data.error.message} />;
  if (!data.data) return null;
  return (
    <>
      <StockHeld data={data.data} companies={companies} />
      <Dividends data={data.data} />
    </>
  );
}

function StockHeld({ data, companies }: { data: Intragroup; companies: Company[] }) {
  const empty: StockForm = { sellerRealmId: null, buyerRealmId: null, month: "", amount: "", marginPercent: "", inventoryAccountId: data.proposedInventoryAccountId, cogsAccountId: data.proposedCogsAccountId };
  const [form, setForm] = useState<StockForm>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useIntragroupMutation(intragroupApi.saveInventory);
  const remove = useIntragroupMutation(intragroupApi.deleteInventory);
  const companyOptions = companies.map((c) => ({ value: c.realmId, label: `${c.companyName} (${c.homeCurrency})` }));
  const buyerCurrency = companies.find((c) => c.realmId === form.buyerRealmId)?.homeCurrency ?? null;
  const update = (patch: Partial<StockForm>) => {
    setForm({ ...form, ...patch });
    setFailure(null);
  };
  const submit = () => {
    const out = stockRequestOf(form, buyerCurrency);
    if ("errors" in out) {
      setErrors(out.errors);
      return;
    }
    setErrors({});
    save.mutate(out.request, {
      onSuccess: () => setForm({ ...empty, sellerRealmId: form.sellerRealmId, buyerRealmId: form.buyerRealmId }),
      onError: (e) => {
        setErrors(serverFields(e));
        setFailure(messageOf(e));
      },
    });
  };
  return (
    <Section label="Intra-group stock held">
      <Text size="sm" c="dimmed" maw={880}>
        Goods one group company bought from another and still holds at a month-end, at the price it paid. The seller&apos;s profit on them is not
        the group&apos;s until they are sold outside it: the consolidation of a period ending that month takes it out of cost of sales and
        inventory (shared with the seller&apos;s non-controlling interests), and the next period gives it back when they are sold.
      </Text>
      {data.inventory.length ? (
        <HeadedTable
          striped
          withTableBorder
          fz="sm"
          verticalSpacing={4}
          aria-label="Stock held"
          columns={["Held at the end of", "Sold by → held by", { label: "Stock at transfer price", ta: "right" }, { label: "Margin", ta: "right" }, { label: "Unrealised profit", ta: "right" }, { w: 50 }]}
        >
          {data.inventory.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{r.month}</Table.Td>
              <Table.Td>
                {r.sellerName} → {r.buyerName}
              </Table.Td>
              <AmountCell>{formatAmount(r.inventory, r.currency)}</AmountCell>
              <Table.Td ta="right">{percentOfMargin(r.margin)}%</Table.Td>
              <AmountCell>{formatAmount(r.unrealisedProfit, r.currency)}</AmountCell>
              <Table.Td>
                <RemoveButton label={`Remove the stock ${r.buyerName} held at ${r.month}`} loading={remove.isPending && remove.variables === r.id} onClick={() => remove.mutate(r.id)} />
              </Table.Td>
            </Table.Tr>
          ))}
        </HeadedTable>
      ) : (
        <Text size="sm">No stock is recorded.</Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 4 }} spacing="sm">
        <Select label="Sold by" data={companyOptions} value={form.sellerRealmId} onChange={(v) => update({ sellerRealmId: v })} error={errors["sellerRealmId"]} />
        <Select label="Held by" data={companyOptions} value={form.buyerRealmId} onChange={(v) => update({ buyerRealmId: v })} error={errors["buyerRealmId"]} />
        <TextInput label="Held at the end of" placeholder="2025-12" value={form.month} onChange={(e) => update({ month: e.currentTarget.value })} error={errors["month"]} />
        <TextInput
          label={`Stock at transfer price${buyerCurrency ? ` (${buyerCurrency})` : ""}`}
          placeholder="12,500.00"
          value={form.amount}
          onChange={(e) => update({ amount: e.currentTarget.value })}
          error={errors["inventory"]}
        />
        <TextInput label="Seller's margin (%)" description="Of the transfer price" placeholder="25" value={form.marginPercent} onChange={(e) => update({ marginPercent: e.currentTarget.value })} error={errors["margin"]} />
        <Select label="Parent's inventory account" data={options(data.assetAccounts)} value={form.inventoryAccountId} onChange={(v) => update({ inventoryAccountId: v })} error={errors["inventoryAccountId"]} searchable />
        <Select label="Parent's cost of sales account" data={options(data.expenseAccounts)} value={form.cogsAccountId} onChange={(v) => update({ cogsAccountId: v })} error={errors["cogsAccountId"]} searchable />
      </SimpleGrid>
      <Group>
        <Button onClick={submit} loading={save.isPending}>
          Record stock held
        </Button>
      </Group>
      <Failure title="It was not saved" message={failure} />
    </Section>
  );
}

function Dividends({ data }: { data: Intragroup }) {
  return (
    <Section label="Dividends to the parent">
      <Text size="sm" c="dimmed" maw={880}>
        A subsidiary&apos;s dividend to the parent is a transfer within the group: the parent&apos;s income is eliminated against its share of the
        dividend declared, and any difference between the two (another rate, a revalued receivable) is shown as an exchange difference.
      </Text>
      {data.dividends.map((d) => (
        <DividendRow key={d.realmId} row={d} data={data} />
      ))}
    </Section>
  );
}

function DividendRow({ row, data }: { row: Intragroup["dividends"][number]; data: Intragroup }) {
  const start = row.saved ?? row.proposal;
  const [income, setIncome] = useState<string | null>(start?.incomeAccountId ?? null);
  const [name, setName] = useState<string | null>(start?.nameId ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useIntragroupMutation(intragroupApi.saveDividends);
  const changed = !row.saved || row.saved.incomeAccountId !== income || row.saved.nameId !== name;
  const submit = () => {
    if (!income) {
      setErrors({ incomeAccountId: "Choose the parent's account where it books this subsidiary's dividends." });
      return;
    }
    setErrors({});
    save.mutate(
      { realmId: row.realmId, body: { incomeAccountId: income, nameId: name } },
      {
        onError: (e) => {
          setErrors(serverFields(e));
          setFailure(messageOf(e));
        },
      },
    );
  };
  return (
    <Stack gap={6} component="article" aria-label={`Dividends of ${row.companyName}`}>
      <Group gap="xs">
        <Text fw={600}>{row.companyName}</Text>
        {row.saved ? (
          <Badge color="teal" variant="light">
            Confirmed
          </Badge>
        ) : row.proposal ? (
          <Badge color="blue" variant="light">
            Proposed from the books
          </Badge>
        ) : null}
      </Group>
      <Group align="flex-end" gap="sm">
        <Select label="Parent's income account" w={340} data={options(data.revenueAccounts)} value={income} onChange={setIncome} error={errors["incomeAccountId"]} searchable />
        <Select
          label="Parent's customer for it"
          description="When one account holds several subsidiaries' dividends"
          w={320}
          clearable
          data={data.parentCustomers.map((c) => ({ value: c.id, label: c.displayName }))}
          value={name}
          onChange={setName}
          error={errors["nameId"]}
          searchable
        />
        <Button variant={row.saved ? "default" : "filled"} disabled={!changed} loading={save.isPending} onClick={submit}>
          {row.saved ? "Save" : "Confirm"}
        </Button>
      </Group>
      {!row.saved && row.reasons.length ? (
        <Text size="xs" c="dimmed">
          {row.reasons.join(" ")}
        </Text>
      ) : null}
      <Failure title="It was not saved" message={failure} />
    </Stack>
  );
}
