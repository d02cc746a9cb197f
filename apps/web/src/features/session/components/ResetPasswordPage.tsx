import { Anchor, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { resetPasswordRequestSchema } from "@groupledger/contract";
import { emailSchema } from "@groupledger/domain";
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { sessionApi } from "../api.ts";
import { AuthCard } from "./AuthCard.tsx";
import type { LoginNotice } from "./LoginForm.tsx";
import { validateNewPassword } from "./validateNewPassword.ts";
import { AuthFooter } from "./AuthFooter.tsx";
import { FormAlerts } from "./FormAlerts.tsx";
import { CodeInput } from "./CodeInput.tsx";
import { NewPasswordFields } from "./NewPasswordFields.tsx";

/** SPEC §4: after the forgot-password request, a passwordResetRequested marker holds the email. */
export const RESET_MARKER_KEY = "passwordResetRequested";

function readMarker(): string | null {
  try {
    return sessionStorage.getItem(RESET_MARKER_KEY);
  } catch {
    return null;
  }
}

function writeMarker(email: string | null): void {
  try {
    if (email === null) sessionStorage.removeItem(RESET_MARKER_KEY);
    else sessionStorage.setItem(RESET_MARKER_KEY, email);
  } catch {
    // Without storage the marker lives only in this page's state, which is enough to finish.
  }
}

/** /resetPassword: ask for a code by email, then set a new password with it. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const [requestedFor, setRequestedFor] = useState<string | null>(() => readMarker());
  const [sentMessage, setSentMessage] = useState<string | null>(null);

  const requested = (email: string, message: string | null) => {
    writeMarker(email);
    setRequestedFor(email);
    setSentMessage(message);
  };

  return requestedFor === null ? (
    <RequestCode initialEmail={params.get("email") ?? ""} onRequested={requested} />
  ) : (
    <SetNewPassword
      email={requestedFor}
      sentMessage={sentMessage}
      onChangeEmail={() => {
        writeMarker(null);
        setRequestedFor(null);
      }}
    />
  );
}

function RequestCode({ initialEmail, onRequested }: { initialEmail: string; onRequested: (email: string, message: string | null) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<{ email: string }>({
    initialValues: { email: initialEmail },
    validate: (values) => {
      const r = emailSchema.safeParse(values.email);
      return r.success ? {} : { email: r.error.issues[0]?.message ?? "" };
    },
  });

  const submit = form.onSubmit(async (values) => {
    // SPEC §5: the request sends the normalized email.
    const email = emailSchema.parse(values.email);
    setSubmitting(true);
    setError(null);
    try {
      const res = await sessionApi.forgotPassword(email);
      onRequested(email, res.message);
    } catch (err) {
      setError(messageOf(err));
      setSubmitting(false);
    }
  });

  const alreadyHaveCode = () => {
    const r = emailSchema.safeParse(form.values.email);
    if (!r.success) {
      form.setFieldError("email", r.error.issues[0]?.message ?? "");
      return;
    }
    onRequested(r.data, null);
  };

  return (
    <AuthCard
      title="Reset your password"
      subtitle="Enter the email you sign in with. We'll send you a code to set a new password."
      footer={<AuthFooter question="Remembered it?" to="/login" link="Log in" />}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormAlerts error={error} errorTitle="Could not send the code" />
          <TextInput label="Email" type="email" autoComplete="email" {...form.getInputProps("email")} />
          <Button type="submit" loading={submitting} fullWidth>
            Send reset code
          </Button>
          <Group justify="center">
            <Button variant="subtle" size="compact-sm" onClick={alreadyHaveCode}>
              I already have a code
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}

interface NewPasswordValues {
  code: string;
  password: string;
  confirmPassword: string;
}

function SetNewPassword({ email, sentMessage, onChangeEmail }: { email: string; sentMessage: string | null; onChangeEmail: () => void }) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<NewPasswordValues>({
    initialValues: { code: "", password: "", confirmPassword: "" },
    validate: (values) =>
      validateNewPassword(resetPasswordRequestSchema, { email, code: values.code, password: values.password }, values.confirmPassword),
  });

  const submit = form.onSubmit(async (values) => {
    const body = resetPasswordRequestSchema.parse({ email, code: values.code, password: values.password });
    setSubmitting(true);
    setError(null);
    try {
      await sessionApi.resetPassword(body);
      writeMarker(null);
      const state: LoginNotice = { notice: "passwordReset" };
      void navigate(`/login?email=${encodeURIComponent(email)}`, { state, replace: true });
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors());
      setError(messageOf(err));
      setSubmitting(false);
    }
  });

  return (
    <AuthCard
      title="Set a new password"
      subtitle={
        <>
          Enter the code we sent to <b>{email}</b> and choose a new password.{" "}
          <Anchor component="button" type="button" size="sm" onClick={onChangeEmail}>
            Use a different email
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormAlerts info={sentMessage} error={error} errorTitle="Could not reset the password" />
          <CodeInput
            label="Reset code"
            {...form.getInputProps("code")}
            onChange={(e) => {
              form.setFieldValue("code", e.currentTarget.value);
              setError(null);
            }}
          />
          <NewPasswordFields rulesId="reset-password-rules" labels={["New password", "Confirm new password"]} email={email} password={form.getInputProps("password")} confirm={form.getInputProps("confirmPassword")} />
          <Button type="submit" loading={submitting} fullWidth>
            Set new password
          </Button>
          <Text size="xs" c="dimmed" ta="center">
            Setting a new password logs you out everywhere else.
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
