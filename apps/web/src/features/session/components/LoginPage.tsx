import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ErrorCodes, tokenRequestSchema, type TokenRequest } from "@groupledger/contract";
import { useState, type ReactNode } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { messageOf, validateWith } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { sessionApi } from "../api.ts";
import { saveToken } from "../tokenStore.ts";
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

export function LoginPage() {
  const location = useLocation();
  const [params] = useSearchParams();
  const [error, setError] = useState<ApiError | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const notice = (location.state as LoginNotice | null)?.notice ?? (params.get("autoLogout") === "true" ? "autoLogout" : undefined);
  const form = useForm<TokenRequest>({
    initialValues: { email: params.get("email") ?? "", password: "" },
    validate: validateWith(tokenRequestSchema),
    // The server's refusal was about the values sent then: an edit makes it stale.
    onValuesChange: () => setError(null),
  });

  const submit = form.onSubmit(
    async (values) => {
      const body = tokenRequestSchema.parse(values);
      setSubmitting(true);
      setError(null);
      try {
        const { token } = await sessionApi.login(body);
        // The public-route guard now sends the user on: to the deep link that brought them here, or /home.
        saveToken(token);
      } catch (err) {
        setError(err instanceof ApiError ? err : new ApiError(0, "unknown", messageOf(err)));
        setSubmitting(false);
      }
    },
    // A new attempt that stops at the local checks is not the one the server refused.
    () => setError(null),
  );

  return (
    <AuthCardLayout>
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
                  <Anchor component={Link} to={`/signupFinish?email=${encodeURIComponent(form.values.email.trim())}`}>
                    Enter your code
                  </Anchor>
                </>
              ) : null}
            </Alert>
          ) : null}
          <TextInput label="Email" type="email" autoComplete="email" required withAsterisk={false} {...form.getInputProps("email")} />
          <PasswordInput label="Password" autoComplete="current-password" required withAsterisk={false} {...form.getInputProps("password")} />
          <Group justify="flex-end" mt={-8}>
            <Anchor component={Link} to="/resetPassword" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" loading={submitting} fullWidth>
            Log in
          </Button>
        </Stack>
      </form>
    </AuthCardLayout>
  );
}

function AuthCardLayout({ children }: { children: ReactNode }) {
  return (
    <AuthCard
      title="Log in to GroupLedger"
      subtitle="Pick up your consolidation where you left off."
      footer={
        <>
          New to GroupLedger?{" "}
          <Anchor component={Link} to="/signup">
            Start a free trial
          </Anchor>
        </>
      }
    >
      {children}
    </AuthCard>
  );
}
