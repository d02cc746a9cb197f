import { Button, Modal, Radio, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import type { Company } from "@groupledger/contract";
import { endSentence } from "@groupledger/domain";
import { useState } from "react";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { useCompanyStatus } from "../../companies/api.ts";
import { useChart } from "../../mapping/api.ts";
import { eliminationsApi, useCompanyNames, useEliminationMutation } from "../api.ts";
import {
  DIFFERENCE_TO,
  EMPTY_PAIR_FORM,
  formErrorsOf,
  PAIR_KINDS,
  pairFormErrors,
  pairRequestOf,
  sideAccountOptions,
  sideNameOptions,
  type DifferenceTo,
  type PairFormValues,
  type PairKind,
} from "../model.ts";
import { Failure } from "../../screens/components/Failure.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

type Errors = Partial<Record<keyof PairFormValues, string>>;

/**
 * Defines a pair: a receivable (or revenue) account in one group company against a payable (or
 * expense) account in another, and where what does not cancel goes. Account pickers offer only
 * what the server accepts for the kind; its own refusals land on the fields they are about.
 */
export function PairForm({ opened, companies, defaults, onClose }: { opened: boolean; companies: Company[]; defaults: Pick<PairFormValues, "leftRealmId" | "rightRealmId">; onClose: () => void }) {
  const [values, setValues] = useState<PairFormValues>({ ...EMPTY_PAIR_FORM, ...defaults });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const status = useCompanyStatus();
  const synced = (realmId: string | null) => (realmId ? (status.data?.[realmId]?.sync.lastSyncedAt ?? null) : null);
  const leftChart = useChart(values.leftRealmId, synced(values.leftRealmId));
  const rightChart = useChart(values.rightRealmId, synced(values.rightRealmId));
  const leftNames = useCompanyNames(values.leftRealmId);
  const rightNames = useCompanyNames(values.rightRealmId);
  const create = useEliminationMutation(eliminationsApi.create);

  const classificationOf = (realmId: string, accountId: string) => {
    const chart = realmId === values.leftRealmId ? leftChart.data : realmId === values.rightRealmId ? rightChart.data : undefined;
    return chart?.find((a) => a.Id === accountId)?.classification;
  };
  const leftClass = values.leftRealmId && values.leftAccountId ? (classificationOf(values.leftRealmId, values.leftAccountId) ?? null) : null;
  const rightClass = values.rightRealmId && values.rightAccountId ? (classificationOf(values.rightRealmId, values.rightAccountId) ?? null) : null;

  const update = (patch: Partial<PairFormValues>) => {
    const next = { ...values, ...patch };
    setValues(next);
    setFailure(null);
    // Once the user has tried to add, errors follow the fields as they are fixed.
    if (submitted) setErrors(pairFormErrors(next, classificationOf));
  };

  const info = PAIR_KINDS[values.kind];
  const companyData = companies.map((c) => ({ value: c.realmId, label: `${c.companyName} (${c.homeCurrency})` }));

  const submit = () => {
    setSubmitted(true);
    const found = pairFormErrors(values, classificationOf);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(pairRequestOf(values), {
      onSuccess: () => onClose(),
      onError: (e) => {
        const fields = e instanceof ApiError ? formErrorsOf(e.fieldErrors()) : {};
        if (Object.keys(fields).length > 0) setErrors(fields);
        else setFailure(messageOf(e));
      },
    });
  };

  const side = (which: "left" | "right") => {
    const realmKey = which === "left" ? "leftRealmId" : "rightRealmId";
    const accountKey = which === "left" ? "leftAccountId" : "rightAccountId";
    const nameKey = which === "left" ? "leftName" : "rightName";
    const chart = which === "left" ? leftChart : rightChart;
    const names = which === "left" ? leftNames : rightNames;
    const otherRealm = which === "left" ? values.rightRealmId : values.leftRealmId;
    const otherCompany = companies.find((c) => c.realmId === otherRealm)?.companyName;
    const role = which === "left" ? info.left : info.right;
    const options = chart.data ? sideAccountOptions(values.kind, chart.data, which === "left" ? rightClass : leftClass) : [];
    const nameOptions = names.data ? sideNameOptions(names.data.names, otherRealm, values[nameKey]) : [];
    return (
      <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }} aria-label={`${role} side`}>
        <Text fw={600} size="sm" component="legend">
          {role} side
        </Text>
        <Select
          label={`${role} company`}
          data={companyData}
          value={values[realmKey]}
          onChange={(v) => update({ [realmKey]: v, [accountKey]: null, [nameKey]: null })}
          allowDeselect={false}
          error={errors[realmKey]}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={`${role} account`}
          placeholder={values[realmKey] === null ? "Choose the company first" : chart.isPending ? "Loading the chart of accounts…" : "Search by number or name"}
          data={options}
          value={values[accountKey]}
          onChange={(v) => update({ [accountKey]: v })}
          searchable
          clearable
          nothingFoundMessage={`No ${info.classifications.map((c) => c.toLowerCase()).join(" or ")} account matches`}
          disabled={values[realmKey] === null || chart.isPending}
          error={errors[accountKey] ?? (chart.error ? `The chart of accounts could not be loaded: ${chart.error.message}` : undefined)}
          maxDropdownHeight={280}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={`${role} customer or vendor`}
          description={endSentence(`Optional. When this account also holds amounts with others, take only those booked against the customer or vendor that stands for ${otherCompany ?? "the other company"}`)}
          placeholder={values[realmKey] === null ? "Choose the company first" : names.isPending ? "Loading customers and vendors…" : "The whole account"}
          data={nameOptions}
          value={values[nameKey]}
          onChange={(v) => update({ [nameKey]: v })}
          searchable
          clearable
          nothingFoundMessage={names.data && names.data.names.length === 0 ? "No customers or vendors synced for this company yet" : "No customer or vendor matches"}
          disabled={values[realmKey] === null || names.isPending}
          error={errors[nameKey] ?? (names.error ? `The customers and vendors could not be loaded: ${names.error.message}` : undefined)}
          maxDropdownHeight={280}
          comboboxProps={{ withinPortal: true }}
        />
      </Stack>
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} size="xl" centered title={<Text fw={700}>Add an intercompany pair</Text>}>
      <form
        noValidate
        aria-label="Add an intercompany pair"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput label="Name" placeholder="e.g. UK loan from parent" value={values.name} onChange={(e) => update({ name: e.currentTarget.value })} error={errors.name} data-autofocus />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="pair-kind-label">
              Kind
            </Text>
            <SegmentedControl
              aria-labelledby="pair-kind-label"
              data={(Object.keys(PAIR_KINDS) as PairKind[]).map((k) => ({ value: k, label: PAIR_KINDS[k].label }))}
              value={values.kind}
              // The accounts chosen for one kind cannot serve the other.
              onChange={(k) => update({ kind: k as PairKind, leftAccountId: null, rightAccountId: null })}
              w="fit-content"
            />
            <Text size="xs" c="dimmed">
              {info.explanation}
            </Text>
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {side("left")}
            {side("right")}
          </SimpleGrid>
          <Radio.Group label="What does not cancel goes to" value={values.differenceTo} onChange={(v) => update({ differenceTo: v as DifferenceTo })}>
            <Stack gap={8} mt={6}>
              {(Object.keys(DIFFERENCE_TO) as DifferenceTo[]).map((d) => (
                <Radio key={d} value={d} label={DIFFERENCE_TO[d].label} description={DIFFERENCE_TO[d].explanation} />
              ))}
            </Stack>
          </Radio.Group>
          <Failure title="The pair was not added" message={failure} />
          <DialogActions onCancel={onClose} busy={create.isPending}>
            <Button type="submit" loading={create.isPending}>
              Add pair
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </Modal>
  );
}
