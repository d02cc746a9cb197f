import { Alert, Button, Divider, Group, Paper, Skeleton, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { accountPatchSchema, type Account } from "@groupledger/contract";
import { useState } from "react";
import { messageOf, validateWith } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { useAccount, usePatchAccount } from "../../account/api.ts";
import { ToleranceForm } from "../../eliminations/components/ToleranceForm.tsx";
import { NightlySyncForm } from "../../settings/components/NightlySyncForm.tsx";
import { Saved } from "../../settings/components/Saved.tsx";

function Form({ account }: { account: Account }) {
  const patch = usePatchAccount();
  const [saved, setSaved] = useState<string | null>(null);
  const form = useForm({ initialValues: { name: account.name }, validate: validateWith(accountPatchSchema) });
  const submit = form.onSubmit((values) => {
    setSaved(null);
    patch.mutate(
      { name: values.name.trim() },
      {
        onSuccess: (next) => {
          form.setInitialValues({ name: next.name });
          form.setValues({ name: next.name });
          setSaved("The group's name was saved.");
        },
        onError: (err) => {
          const fields = err instanceof ApiError ? err.fieldErrors() : {};
          form.setFieldError("name", fields["name"] ?? messageOf(err));
        },
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Group name">
      <Group align="flex-start" gap="sm">
        <TextInput label="Group name" placeholder="Northwind Group" style={{ flex: 1 }} maw={420} {...form.getInputProps("name")} />
        <Button type="submit" mt={25} variant="default" loading={patch.isPending} disabled={!form.isDirty()}>
          Save name
        </Button>
      </Group>
      <Saved>{saved}</Saved>
    </form>
  );
}

/** The group's (account's) settings: its name (what invitation mails say a colleague is invited to), its elimination tolerance and its nightly sync. */
export function GroupNameCard() {
  const account = useAccount();
  return (
    <Paper withBorder radius="md" p="lg" bg="white">
      <Title order={3} size="h4" mb={4}>
        Your group
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Invitation mails name it: &ldquo;… invited you to join &ldquo;{account.data?.name ?? "…"}&rdquo; on GroupLedger&rdquo;.
      </Text>
      {account.isPending ? <Skeleton height={60} /> : account.isError ? <Alert color="red">{messageOf(account.error)}</Alert> : <Form account={account.data} />}
      <Divider my="md" />
      <ToleranceForm />
      <Divider my="md" />
      <NightlySyncForm />
    </Paper>
  );
}
