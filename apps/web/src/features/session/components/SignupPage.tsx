import { Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { signupRequestSchema } from "@groupledger/contract";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { sessionApi } from "../api.ts";
import { AuthCard } from "./AuthCard.tsx";
import { validateNewPassword } from "./validateNewPassword.ts";
import { AuthFooter } from "./AuthFooter.tsx";
import { FormAlerts } from "./FormAlerts.tsx";
import { NewPasswordFields } from "./NewPasswordFields.tsx";

interface SignupValues {
  email: string;
  password: string;
  confirmPassword: string;
}

export interface SignupFinishState {
  message?: string;
}

export function SignupPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<SignupValues>({
    initialValues: { email: "", password: "", confirmPassword: "" },
    validate: (values) => validateNewPassword(signupRequestSchema, { email: values.email, password: values.password }, values.confirmPassword),
  });

  const submit = form.onSubmit(async (values) => {
    const body = signupRequestSchema.parse({ email: values.email, password: values.password });
    setSubmitting(true);
    setError(null);
    try {
      const res = await sessionApi.signup(body);
      const state: SignupFinishState = { message: res.message };
      void navigate(`/signupFinish?email=${encodeURIComponent(res.email)}`, { state });
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors());
      setError(messageOf(err));
      setSubmitting(false);
    }
  });

  return (
    <AuthCard
      title="Start your free trial"
      subtitle="30 days, every feature, no card needed. You'll connect your QuickBooks Online companies after signing up."
      footer={<AuthFooter question="Already have an account?" to="/login" link="Log in" />}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormAlerts error={error} errorTitle="Could not sign up" />
          <TextInput label="Work email" type="email" autoComplete="email" {...form.getInputProps("email")} />
          <NewPasswordFields rulesId="signup-password-rules" labels={["Password", "Confirm password"]} email={form.values.email} password={form.getInputProps("password")} confirm={form.getInputProps("confirmPassword")} />
          <Button type="submit" loading={submitting} fullWidth>
            Create account
          </Button>
          <Text size="xs" c="dimmed" ta="center">
            By creating an account you agree to the{" "}
            <Anchor component={Link} to="/terms" size="xs">
              Terms
            </Anchor>{" "}
            and the{" "}
            <Anchor component={Link} to="/privacy" size="xs">
              Privacy Policy
            </Anchor>
            .
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}

