import { Alert, Badge, Button, Grid, Group, Paper, Radio, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import type { CompanyAccount, CtaSubsidiary } from "@groupledger/contract";
import { useEffect, useMemo, useState } from "react";
import { ApiError } from "../../../lib/http.ts";
import { useSaveCta } from "../api.ts";
import {
  DIVIDEND_POLICIES,
  formOf,
  TRANSLATION_METHODS,
  withoutRowErrors,
  isDirty,
  nciPercent,
  unplacedErrors,
  updateBody,
  validate,
  type CtaAccountOption,
  type CtaForm,
  type DividendRatePolicy,
  type EquityRowForm,
  type FieldErrors,
  type TranslationMethod,
} from "../model.ts";
import { CtaAccountPicker } from "./CtaAccountPicker.tsx";
import { EquityTable } from "./EquityTable.tsx";
import { MissingChecklist } from "./MissingChecklist.tsx";

interface Props {
  sub: CtaSubsidiary;
  parentName: string;
  parentRealmId: string;
  parentCurrency: string;
  accountOptions: readonly CtaAccountOption[];
  canCreateAccount: boolean;
  onDirtyChange: (realmId: string, dirty: boolean) => void;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" bg="white" component="section" aria-label={title} h="100%">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** One foreign subsidiary's translation settings, edited together and saved all or nothing. */
export function SubsidiaryCtaPanel({ sub, parentName, parentRealmId, parentCurrency, accountOptions, canCreateAccount, onDirtyChange }: Props) {
  const serverForm = useMemo(() => formOf(sub, parentCurrency), [sub, parentCurrency]);
  const [saved, setSaved] = useState<CtaForm>(serverForm);
  const [form, setForm] = useState<CtaForm>(serverForm);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const save = useSaveCta();
  const dirty = isDirty(form, saved, parentCurrency);

  // Fresh settings from the server (another subsidiary saved, a refetch) replace an untouched form; edits in progress stay.
  useEffect(() => {
    if (isDirty(form, saved, parentCurrency)) return;
    setSaved(serverForm);
    setForm(serverForm);
    // Only a new server answer resets the form, never a keystroke: form and saved are read, not watched.
  }, [serverForm]);
  useEffect(() => {
    onDirtyChange(sub.realmId, dirty);
  }, [onDirtyChange, sub.realmId, dirty]);

  const edit = (patch: Partial<CtaForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setNotice(null);
  };
  /** Row `index` of one of the two tables; its errors sit at its place in the `historical` array sent. */
  const editRow = (list: "rows" | "nonMonetaryRows", index: number, patch: Partial<EquityRowForm>) => {
    setForm((f) => ({ ...f, [list]: f[list].map((r, i) => (i === index ? { ...r, ...patch } : r)) }));
    // A row's old message no longer describes what is typed now.
    setErrors((e) => withoutRowErrors(e, list === "rows" ? index : form.rows.length + index));
    setNotice(null);
  };

  const submit = () => {
    setFailure(null);
    setNotice(null);
    const found = validate(form, sub.currency, parentCurrency);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      { realmId: sub.realmId, body: updateBody(form, parentCurrency) },
      {
        onSuccess: (fresh) => {
          const next = formOf(fresh, parentCurrency);
          setSaved(next);
          setForm(next);
          setErrors({});
          setNotice(fresh.missing.length === 0 ? `Saved. ${sub.companyName} can be translated.` : `Saved. ${fresh.missing.length} ${fresh.missing.length === 1 ? "item still blocks" : "items still block"} translation.`);
        },
        onError: (e) => {
          const fields = e instanceof ApiError ? e.fieldErrors() : {};
          setErrors(fields);
          const unplaced = unplacedErrors(fields);
          setFailure(Object.keys(fields).length > 0 && unplaced.length === 0 ? `Nothing was saved: ${e.message}` : `Nothing was saved: ${[e.message, ...unplaced].join(" ")}`);
        },
      },
    );
  };

  const nci = nciPercent(form.ownershipPercent);
  return (
    <Stack gap="md" component="section" aria-label={`${sub.companyName} CTA settings`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {sub.companyName}
          </Title>
          <Text size="sm" c="dimmed">
            Keeps its books in {sub.currency}; {parentName} consolidates it in {parentCurrency}.
          </Text>
        </Stack>
        <Group gap="sm" wrap="nowrap">
          {dirty ? (
            <Badge color="yellow" variant="light" data-testid="unsaved">
              Unsaved changes
            </Badge>
          ) : null}
          <Button
            variant="default"
            disabled={!dirty || save.isPending}
            onClick={() => {
              setForm(saved);
              setErrors({});
              setFailure(null);
            }}
          >
            Discard changes
          </Button>
          <Button onClick={submit} loading={save.isPending} disabled={!dirty}>
            Save
          </Button>
        </Group>
      </Group>
      {notice ? (
        <Alert color="teal" role="status" withCloseButton closeButtonLabel="Dismiss message" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}
      {failure ? (
        <Alert color="red" role="alert" title={`${sub.companyName}'s settings were not saved`}>
          {failure}
        </Alert>
      ) : null}
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Section title="CTA account">
            <CtaAccountPicker
              companyName={sub.companyName}
              parentName={parentName}
              parentRealmId={parentRealmId}
              options={accountOptions}
              value={form.ctaAccountId}
              error={errors["ctaAccountId"] ?? null}
              canCreate={canCreateAccount}
              onChange={(id) => {
                edit({ ctaAccountId: id });
                setErrors(({ ctaAccountId: _gone, ...rest }) => rest);
              }}
              onCreated={(account: CompanyAccount) => {
                edit({ ctaAccountId: account.Id });
                setNotice(`"${account.name}" was created in ${parentName}'s QuickBooks and chosen here. Save to keep the choice.`);
              }}
            />
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <MissingChecklist companyName={sub.companyName} missing={sub.missing} unsaved={dirty} />
        </Grid.Col>
        <Grid.Col span={12}>
          <Section title="Contributed equity at historical rates">
            <EquityTable
              companyName={sub.companyName}
              currency={sub.currency}
              parentCurrency={parentCurrency}
              rows={form.rows}
              errors={errors}
              onChange={(i, patch) => editRow("rows", i, patch)}
            />
          </Section>
        </Grid.Col>
        <Grid.Col span={12}>
          <Section title="Translation method">
            <Select
              label="Translation method"
              data={TRANSLATION_METHODS.map((m) => ({ value: m.value, label: m.label }))}
              value={form.translationMethod}
              allowDeselect={false}
              error={errors["translationMethod"]}
              description={TRANSLATION_METHODS.find((m) => m.value === form.translationMethod)?.explanation}
              maw={560}
              comboboxProps={{ withinPortal: true }}
              onChange={(v) => {
                if (v === null) return;
                edit({ translationMethod: v as TranslationMethod });
                setErrors(({ translationMethod: _gone, ...rest }) => rest);
              }}
            />
          </Section>
        </Grid.Col>
        {form.translationMethod === "temporal" ? (
          <Grid.Col span={12}>
            <Section title="Non-monetary items at historical rates">
              <EquityTable
                kind="nonMonetary"
                offset={form.rows.length}
                listed={saved.translationMethod === "temporal"}
                companyName={sub.companyName}
                currency={sub.currency}
                parentCurrency={parentCurrency}
                rows={form.nonMonetaryRows}
                errors={errors}
                onChange={(i, patch) => editRow("nonMonetaryRows", i, patch)}
              />
            </Section>
          </Grid.Col>
        ) : null}
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Section title="Ownership">
            <TextInput
              label={`${parentName}'s share`}
              inputMode="decimal"
              rightSection={<Text size="sm">%</Text>}
              value={form.ownershipPercent}
              error={errors["ownershipPercent"]}
              description={
                nci === null
                  ? "A percentage above 0 and at most 100, such as 80 or 62.5."
                  : nci === "0"
                    ? "Wholly owned: no non-controlling interests."
                    : `Non-controlling interests hold ${nci}% of its net assets, profit and CTA.`
              }
              onChange={(e) => {
                edit({ ownershipPercent: e.currentTarget.value });
                setErrors(({ ownershipPercent: _gone, ...rest }) => rest);
              }}
            />
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Section title="Dividends">
            <Radio.Group
              label="Translate dividends at the"
              value={form.dividendRatePolicy}
              error={errors["dividendRatePolicy"]}
              onChange={(v) => edit({ dividendRatePolicy: v as DividendRatePolicy })}
            >
              <Stack gap="sm" mt="xs">
                {DIVIDEND_POLICIES.map((p) => (
                  <Radio key={p.value} value={p.value} label={p.label} description={p.explanation} />
                ))}
              </Stack>
            </Radio.Group>
          </Section>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
