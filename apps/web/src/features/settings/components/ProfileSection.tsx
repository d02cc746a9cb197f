import { Alert, Button, Group, Paper, PasswordInput, Skeleton, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { emailChangeConfirmSchema, emailChangeRequestSchema, profilePatchSchema, reportEmailRequestSchema, reportEmailVerifySchema, type Profile } from "@groupledger/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { messageOf, validateWith } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { sessionKeys } from "../../session/api.ts";
import { saveToken } from "../../session/tokenStore.ts";
import { settingsApi, settingsKeys, useProfile } from "../api.ts";
import { Saved } from "./Saved.tsx";

/** Puts a server refusal on the form: field messages where it names fields, else the first field. */
function showError(form: { setErrors: (e: Record<string, string>) => void; setFieldError: (f: string, m: string) => void }, field: string, err: unknown) {
  const fields = err instanceof ApiError ? err.fieldErrors() : {};
  if (Object.keys(fields).length > 0) form.setErrors(fields);
  else form.setFieldError(field, messageOf(err));
}

function NameForm({ profile }: { profile: Profile }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useForm({ initialValues: { name: profile.name }, validate: validateWith(profilePatchSchema) });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setSaved(null);
    try {
      const next = await settingsApi.rename(profilePatchSchema.parse(values).name);
      client.setQueryData(settingsKeys.profile, next);
      void client.invalidateQueries({ queryKey: sessionKeys.user });
      setSaved("Your name was saved.");
    } catch (err) {
      showError(form, "name", err);
    } finally {
      setBusy(false);
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Change your name">
      <Group align="flex-start" gap="sm">
        <TextInput label="Your name" placeholder="Jane Controller" style={{ flex: 1 }} maw={420} {...form.getInputProps("name")} />
        <Button type="submit" mt={25} variant="default" loading={busy}>
          Save name
        </Button>
      </Group>
      <Saved>{saved}</Saved>
    </form>
  );
}

function EmailChange({ profile }: { profile: Profile }) {
  const client = useQueryClient();
  const [pending, setPending] = useState<string | null>(profile.pendingEmail);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const start = useForm({ initialValues: { newEmail: "", currentPassword: "" }, validate: validateWith(emailChangeRequestSchema) });
  const confirm = useForm({ initialValues: { code: "" }, validate: validateWith(emailChangeConfirmSchema) });

  const submitStart = start.onSubmit(async (values) => {
    setBusy(true);
    try {
      const body = emailChangeRequestSchema.parse(values);
      const res = await settingsApi.startEmailChange(body.newEmail, body.currentPassword);
      setPending(res.pendingEmail);
      start.reset();
    } catch (err) {
      showError(start, "newEmail", err);
    } finally {
      setBusy(false);
    }
  });
  const submitConfirm = confirm.onSubmit(async (values) => {
    setBusy(true);
    try {
      const res = await settingsApi.confirmEmailChange(emailChangeConfirmSchema.parse(values).code);
      // Other sessions ended with the change; this one carries on with the new token.
      saveToken(res.token);
      setPending(null);
      confirm.reset();
      await client.invalidateQueries({ queryKey: settingsKeys.profile });
      await client.invalidateQueries({ queryKey: sessionKeys.user });
      setSaved(`Email changed: you now sign in with ${res.email}.`);
    } catch (err) {
      showError(confirm, "code", err);
    } finally {
      setBusy(false);
    }
  });

  if (pending) {
    return (
      <form onSubmit={submitConfirm} noValidate aria-label="Confirm your new email">
        <Stack gap="xs">
          <Text size="sm">
            We sent a code to <b>{pending}</b>. Enter it to finish; until then you keep signing in with {profile.email}.
          </Text>
          <Group align="flex-start" gap="sm">
            <TextInput label="Code from the email" placeholder="ABCD-EFGH" w={200} {...confirm.getInputProps("code")} />
            <Button type="submit" mt={25} loading={busy}>
              Confirm new email
            </Button>
            <Button variant="subtle" mt={25} onClick={() => setPending(null)}>
              Use another address
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }
  return (
    <form onSubmit={submitStart} noValidate aria-label="Change your sign-in email">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput label="New sign-in email" type="email" style={{ flex: 1, minWidth: 220 }} {...start.getInputProps("newEmail")} />
        <PasswordInput label="Current password" style={{ flex: 1, minWidth: 200 }} autoComplete="current-password" {...start.getInputProps("currentPassword")} />
        <Button type="submit" mt={25} variant="default" loading={busy}>
          Send code
        </Button>
      </Group>
      <Saved>{saved}</Saved>
    </form>
  );
}

/**
 * Where exported workbooks are mailed. An address other than the sign-in email receives nothing
 * until the code mailed to it is entered here, so a mistyped or someone else's address never gets
 * the group's figures.
 */
function ReportEmailForm({ profile }: { profile: Profile }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  /** The address waiting for its code (null once verified). */
  const unverified = profile.reportEmailVerified ? null : profile.reportEmail;
  const form = useForm({ initialValues: { email: profile.reportEmail }, validate: validateWith(reportEmailRequestSchema) });
  const confirm = useForm({ initialValues: { code: "" }, validate: validateWith(reportEmailVerifySchema) });
  const refresh = () => client.invalidateQueries({ queryKey: settingsKeys.profile });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setSaved(null);
    setSent(null);
    try {
      const res = await settingsApi.setReportEmail(reportEmailRequestSchema.parse(values).email);
      form.setValues({ email: res.data.email });
      confirm.reset();
      await refresh();
      if (res.data.verified) setSaved(`Exported workbooks will be sent to ${res.data.email}.`);
      else setSent(res.data.message ?? `We sent a code to ${res.data.email}.`);
    } catch (err) {
      showError(form, "email", err);
    } finally {
      setBusy(false);
    }
  });
  const resend = async () => {
    if (!unverified) return;
    setBusy(true);
    setSent(null);
    try {
      const res = await settingsApi.setReportEmail(unverified);
      confirm.reset();
      setSent(res.data.message ?? `We sent a new code to ${unverified}.`);
    } catch (err) {
      showError(confirm, "code", err);
    } finally {
      setBusy(false);
    }
  };
  const submitCode = confirm.onSubmit(async (values) => {
    setBusy(true);
    try {
      const res = await settingsApi.verifyReportEmail(reportEmailVerifySchema.parse(values).code);
      confirm.reset();
      setSent(null);
      await refresh();
      setSaved(`Verified: exported workbooks will be sent to ${res.data.email}.`);
    } catch (err) {
      showError(confirm, "code", err);
    } finally {
      setBusy(false);
    }
  });
  return (
    <Stack gap="sm">
      <form onSubmit={submit} noValidate aria-label="Report delivery email">
        <Group align="flex-start" gap="sm">
          <TextInput
            label="Send exported workbooks to"
            type="email"
            description={
              profile.reportEmailIsSignInEmail
                ? "Your sign-in email, until you choose another address (it gets a code to confirm it first)."
                : "Enter your sign-in email to go back to it."
            }
            style={{ flex: 1 }}
            maw={420}
            {...form.getInputProps("email")}
          />
          <Button type="submit" mt={25} variant="default" loading={busy}>
            Save address
          </Button>
        </Group>
      </form>
      {unverified ? (
        <form onSubmit={submitCode} noValidate aria-label="Verify the report address">
          <Stack gap="xs">
            <Alert color="yellow" data-testid="report-email-unverified">
              {sent ?? `${unverified} is not verified yet: no report is sent to it until you enter the code we mailed to it.`}
            </Alert>
            <Group align="flex-start" gap="sm">
              <TextInput label="Code from the email" placeholder="ABCD-EFGH" w={200} {...confirm.getInputProps("code")} />
              <Button type="submit" mt={25} loading={busy}>
                Verify address
              </Button>
              <Button variant="subtle" mt={25} onClick={() => void resend()} disabled={busy}>
                Send a new code
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
      <Saved>{saved}</Saved>
    </Stack>
  );
}

export function ProfileSection() {
  const profile = useProfile();
  if (profile.isPending) return <Skeleton height={260} radius="md" />;
  if (profile.isError) return <Alert color="red">{messageOf(profile.error)}</Alert>;
  const p = profile.data;
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="lg" bg="white">
        <Stack gap="md">
          <Title order={3} size="h4">
            Profile
          </Title>
          <Text size="sm" c="dimmed">
            Signed in as <b>{p.email}</b>
          </Text>
          <NameForm profile={p} />
          <EmailChange profile={p} />
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="lg" bg="white">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Report delivery
          </Title>
          <Text size="sm" c="dimmed">
            Where the Excel workbooks you export are emailed. Only yours: each person chooses their own.
          </Text>
          <ReportEmailForm profile={p} />
        </Stack>
      </Paper>
    </Stack>
  );
}
