import { Group, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import type { EliminationToleranceView } from "@groupledger/contract";
import { ELIMINATION_TOLERANCE_DEFAULT, formatAmount } from "@groupledger/domain";
import { useState } from "react";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { Loaded } from "../../screens/components/Loaded.tsx";
import { SaveRow } from "../../settings/components/Saved.tsx";
import { eliminationsApi, useEliminationMutation, useTolerance } from "../api.ts";
import { parseTolerance, toleranceInput } from "../model.ts";

function Form({ view }: { view: EliminationToleranceView & { currency: string } }) {
  const save = useEliminationMutation(eliminationsApi.setTolerance);
  const [saved, setSaved] = useState<string | null>(null);
  const { currency } = view;
  const form = useForm({
    initialValues: { tolerance: toleranceInput(view.tolerance, currency) },
    validate: {
      tolerance: (text) => {
        const parsed = parseTolerance(text, currency);
        return "error" in parsed ? parsed.error : null;
      },
    },
  });
  const submit = form.onSubmit((values) => {
    const parsed = parseTolerance(values.tolerance, currency);
    if ("error" in parsed) return;
    setSaved(null);
    save.mutate(parsed.tolerance, {
      onSuccess: (next) => {
        const text = toleranceInput(next.tolerance, currency);
        form.setInitialValues({ tolerance: text });
        form.setValues({ tolerance: text });
        setSaved(
          next.tolerance === 0
            ? "The elimination tolerance was saved: only pairs that cancel to the cent count as matched."
            : `The elimination tolerance was saved: pairs within ${formatAmount(next.tolerance, currency)} count as matched.`,
        );
      },
      onError: (err) => {
        const fields = err instanceof ApiError ? err.fieldErrors() : {};
        form.setFieldError("tolerance", fields["tolerance"] ?? messageOf(err));
      },
    });
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Elimination tolerance">
      <Group align="flex-start" gap="sm">
        <TextInput
          label={`Elimination tolerance (${currency})`}
          description={`Intercompany pairs whose two sides differ by no more than this count as matched on Interco Eliminations. The difference is still shown and posted to the parent's FX account (or CTA, as the pair says). 0 is exact matching; the default is ${formatAmount(ELIMINATION_TOLERANCE_DEFAULT, currency)}.`}
          inputMode="decimal"
          style={{ flex: 1 }}
          maw={520}
          {...form.getInputProps("tolerance")}
        />
      </Group>
      <SaveRow label="Save tolerance" pending={save.isPending} dirty={form.isDirty()} saved={saved} />
    </form>
  );
}

/** The group's elimination tolerance (GET/PUT /api/eliminations/tolerance), in the parent's currency. */
export function ToleranceForm() {
  return (
    <Loaded query={useTolerance()} height={60}>
      {(view) =>
        view.currency === null ? (
          <Stack gap={2}>
            <Text size="sm" fw={500}>
              Elimination tolerance
            </Text>
            <Text size="sm" c="dimmed" data-testid="tolerance-needs-parent">
              Choose a parent company first: the tolerance is an amount in the parent&apos;s currency.
            </Text>
          </Stack>
        ) : (
          <Form view={{ ...view, currency: view.currency }} />
        )
      }
    </Loaded>
  );
}
