import { Anchor, Button, Group, Paper, PasswordInput, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { CONFIRMATION_MESSAGE, confirmationMatches, LOGIN_PASSWORD_MESSAGE, loginPasswordSchema, passwordProblems } from "@groupledger/domain";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { Screen } from "../../screens/components/Screen.tsx";
import { useSessionUser } from "../../session/api.ts";
import { saveToken } from "../../session/tokenStore.ts";
import { settingsApi } from "../api.ts";
import { NewPasswordFields } from "../../session/components/NewPasswordFields.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

interface Values {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const PASSWORD_CHANGED = "Your password was changed. Every other session was signed out; this one carries on.";

/** The form's checks: the same creation rules (SPEC §5) the server applies, against the user's email. */
export function changePasswordErrors(values: Values, email: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!loginPasswordSchema.safeParse(values.currentPassword).success) errors["currentPassword"] = LOGIN_PASSWORD_MESSAGE;
  const problems = passwordProblems(values.newPassword, email);
  if (problems[0]) errors["newPassword"] = problems[0];
  if (!confirmationMatches(values.confirmPassword, values.newPassword)) errors["confirmPassword"] = CONFIRMATION_MESSAGE;
  return errors;
}

/** /changePassword: current password, then a new one with the creation rules ticked off as it is typed. */
export function ChangePasswordPage() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const email = user.data?.email ?? "";
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm<Values>({
    initialValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
    validate: (values) => changePasswordErrors(values, email),
  });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setError(null);
    try {
      const res = await settingsApi.changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      // Every other session ended; this one continues with the token the server just issued.
      saveToken(res.token);
      void navigate("/settings?tab=security", { state: { notice: PASSWORD_CHANGED } });
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      if (Object.keys(fields).length > 0) form.setErrors(fields);
      else setError(messageOf(err));
      setBusy(false);
    }
  });
  return (
    <Screen title="Change Password" description="Set a new password while you are signed in. Your other sessions end when you do." maw={640}>
      <Paper withBorder radius="md" p="lg" bg="white">
        <form onSubmit={submit} noValidate aria-label="Change password">
          <Stack gap="md">
            <Failure message={error} />
            <PasswordInput label="Current password" autoComplete="current-password" {...form.getInputProps("currentPassword")} />
            <NewPasswordFields rulesId="new-password-rules" labels={["New password", "Confirm new password"]} email={email} password={form.getInputProps("newPassword")} confirm={form.getInputProps("confirmPassword")} />
            <Group justify="space-between">
              <Anchor component={Link} to="/settings?tab=security" size="sm">
                Back to Account Settings
              </Anchor>
              <Button type="submit" loading={busy}>
                Change password
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              Forgot your current password? Log out and use “Forgot password” on the sign-in page.
            </Text>
          </Stack>
        </form>
      </Paper>
    </Screen>
  );
}
