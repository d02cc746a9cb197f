import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ErrorCodes, type TokenRequest } from "@groupledger/contract";
import { useState } from "react";
import { AppLink } from "../../../app/links.tsx";
import { AuthCard } from "./AuthCard.tsx";

/** Notices other screens hand to the login page through router state. */
export interface LoginNotice {
  notice?: "verified" | "passwordReset" | "autoLogout" | "loggedOut";
}

const NOTICES: Record<NonNullable<LoginNotice["notice"]>, string> = {
  verified: "Your email is verified. Log in to start setting up your group.",
  passwordReset: "Your password has been changed. Log in with your new password.",
  autoLogout: "You were logged out because you were inactive for a while. Log in to continue.",
  loggedOut: "You have logged out.",
};

/** What the route or the login shell read from the address (and router state) for the form. */
export interface LoginFormProps {
  notice: LoginNotice["notice"] | undefined;
  initialEmail: string;
}

/** The notice to show: one handed over in router state, or the idle logout's `?autoLogout=true`. */
export function loginNotice(state: unknown, params: URLSearchParams): LoginNotice["notice"] | undefined {
  return (state as LoginNotice | null)?.notice ?? (params.get("autoLogout") === "true" ? "autoLogout" : undefined);
}

/**
 * The login form, with no router of its own: drawn by the /login route inside the app and by the
 * login shell on a first visit (src/app/shell.tsx). The checks and the call are loaded on submit.
 */
export function LoginForm({ notice, initialEmail }: LoginFormProps) {
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<TokenRequest>({
    initialValues: { email: initialEmail, password: "" },
    // The server's refusal was about the values sent then: an edit makes it stale.
    onValuesChange: () => setError(null),
  });

  const submit = form.onSubmit(async (values) => {
    // A new attempt, even one that stops at the local checks, is not the one the server refused.
    setError(null);
    setSubmitting(true);
    try {
      const { logIn } = await import("../logIn.ts");
      const outcome = await logIn(values);
      if (outcome.kind === "invalid") form.setErrors(outcome.fields);
      if (outcome.kind === "refused") setError(outcome);
      // Signed in: the token is saved, and the page that drew this form moves on; stay busy until then.
      if (outcome.kind !== "signedIn") setSubmitting(false);
    } catch {
      // The submit code could not be loaded (offline, or a deploy replaced it).
      setError({ code: "unknown", message: "The page could not reach the server. Check your connection and try again." });
      setSubmitting(false);
    }
  });

  return (
    <AuthCard
      title="Log in to GroupLedger"
      subtitle="Pick up your consolidation where you left off."
      footer={
        <>
          New to GroupLedger?{" "}
          <Anchor component={AppLink} to="/signup">
            Start a free trial
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {notice && !error ? (
            <Alert color={notice === "autoLogout" ? "yellow" : "teal"} variant="light" role="status">
              {NOTICES[notice]}
            </Alert>
          ) : null}
          {error ? (
            <Alert color="red" variant="light" role="alert" title="Could not log in">
              {error.message}
              {error.code === ErrorCodes.emailNotVerified ? (
                <>
                  {" "}
                  <Anchor component={AppLink} to={`/signupFinish?email=${encodeURIComponent(form.values.email.trim())}`}>
                    Enter your code
                  </Anchor>
                </>
              ) : null}
            </Alert>
          ) : null}
          <TextInput label="Email" type="email" autoComplete="email" required withAsterisk={false} {...form.getInputProps("email")} />
          <PasswordInput label="Password" autoComplete="current-password" required withAsterisk={false} {...form.getInputProps("password")} />
          <Group justify="flex-end" mt={-8}>
            <Anchor component={AppLink} to="/resetPassword" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" loading={submitting} fullWidth>
            Log in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
