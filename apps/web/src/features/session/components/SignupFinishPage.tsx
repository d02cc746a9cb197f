import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { codeSchema } from "@groupledger/contract";
import { emailSchema } from "@groupledger/domain";
import { useState, type FormEvent } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { messageOf } from "../../../lib/forms.ts";
import { sessionApi } from "../api.ts";
import { AuthCard } from "./AuthCard.tsx";
import type { LoginNotice } from "./LoginForm.tsx";
import type { SignupFinishState } from "./SignupPage.tsx";
import { AuthFooter } from "./AuthFooter.tsx";
import { FormAlerts } from "./FormAlerts.tsx";
import { CodeInput } from "./CodeInput.tsx";

/** /signupFinish: enter the mailed validation code (SPEC §4, §8), or ask for a new one. */
export function SignupFinishPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>((location.state as SignupFinishState | null)?.message ?? null);
  const [busy, setBusy] = useState<"verify" | "resend" | null>(null);

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    const parsedCode = codeSchema.safeParse(code);
    if (!parsedCode.success) {
      setCodeError(parsedCode.error.issues[0]?.message ?? null);
      return;
    }
    // The email only makes wrong codes count against that user's code; the code alone identifies it.
    const parsedEmail = emailSchema.safeParse(email);
    setBusy("verify");
    setError(null);
    try {
      const res = await sessionApi.validateCode(parsedCode.data, parsedEmail.success ? parsedEmail.data : undefined);
      const state: LoginNotice = { notice: "verified" };
      void navigate(`/login?email=${encodeURIComponent(res.email)}`, { state, replace: true });
    } catch (err) {
      // SPEC §8: the server's message is the error, and the email is cleared.
      setError(messageOf(err));
      setInfo(null);
      setEmail("");
      setBusy(null);
    }
  };

  const resend = async () => {
    const parsedEmail = emailSchema.safeParse(email);
    if (!parsedEmail.success) {
      setEmailError(parsedEmail.error.issues[0]?.message ?? null);
      return;
    }
    setBusy("resend");
    setError(null);
    try {
      const res = await sessionApi.resendCode(parsedEmail.data);
      setInfo(res.message);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <AuthCard
      title="Check your email"
      subtitle="We sent you an 8-character code. Enter it to verify your email and finish signing up."
      footer={<AuthFooter question="Already verified?" to="/login" link="Log in" />}
    >
      <form onSubmit={verify} noValidate>
        <Stack gap="md">
          <FormAlerts info={info} error={error} errorTitle="Could not verify" />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            error={emailError}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              setEmailError(null);
            }}
          />
          <CodeInput
            label="Verification code"
            value={code}
            error={codeError}
            onChange={(e) => {
              // SPEC §5: changing the code clears the error message.
              setCode(e.currentTarget.value);
              setError(null);
              setCodeError(null);
            }}
          />
          <Button type="submit" loading={busy === "verify"} disabled={busy === "resend"} fullWidth>
            Verify email
          </Button>
          <Group justify="center" gap={6}>
            <Text size="sm" c="dimmed">
              No code?
            </Text>
            <Button variant="subtle" size="compact-sm" onClick={() => void resend()} loading={busy === "resend"} disabled={busy === "verify"}>
              Send a new code
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
