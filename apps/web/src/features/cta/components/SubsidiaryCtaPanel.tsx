import { Badge, Button, Grid, Group, Paper, Radio, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import type { CtaSubsidiary } from "@groupledger/contract";
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
  type CtaForm,
  type DividendRatePolicy,
  type EquityRowForm,
  type FieldErrors,
  type TranslationMethod,
} from "../model.ts";
import { EquityTable } from "./EquityTable.tsx";
import { MissingChecklist } from "./MissingChecklist.tsx";
import { Failure } from "../../screens/components/Failure.tsx";
import { Notice } from "../../screens/components/Notice.tsx";

interface Props {
  sub: CtaSubsidiary;
  parentName: string;
  parentCurrency: string;
  /** The group's CTA account as the picker names it ("3600 · Accumulated OCI"); null until chosen. */
  groupAccountLabel: string | null;
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
/** Where this subsidiary's CTA goes: the group's one account, chosen above the subsidiaries. */
function GroupAccountLine({ companyName, parentName, label }: { companyName: string; parentName: string; label: string | null }) {
  return label ? (
    <Stack gap={4} data-testid="group-cta-account">
      <Text size="sm">
        {companyName}&apos;s CTA goes to <strong>{label}</strong> in {parentName}, the group&apos;s CTA account.
      </Text>
      <Text size="xs" c="dimmed">
        Every foreign subsidiary uses it; change it under &quot;CTA account of the group&quot; at the top of this page.
      </Text>
    </Stack>
  ) : (
    <Text size="sm" c="orange.9" data-testid="group-cta-account">
      Not chosen yet: choose the group&apos;s CTA account under &quot;CTA account of the group&quot; at the top of this page. It receives {companyName}&apos;s CTA and
      every other foreign subsidiary&apos;s.
    </Text>
  );
}

export function SubsidiaryCtaPanel({ sub, parentName, parentCurrency, groupAccountLabel, onDirtyChange }: Props) {
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
      <Notice message={notice} onDismiss={() => setNotice(null)} />
      <Failure title={`${sub.companyName}'s settings were not saved`} message={failure} />
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Section title="CTA account">
            <GroupAccountLine companyName={sub.companyName} parentName={parentName} label={groupAccountLabel} />
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
