import { Alert, Button, Skeleton, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { invitationTokenSchema, NAME_MAX_LENGTH, NAME_MESSAGE, PERMISSION_LABELS, type PermissionLevel } from "@groupledger/contract";
import { CONFIRMATION_MESSAGE, confirmationMatches, passwordProblems } from "@groupledger/domain";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { AuthCard } from "../../session/components/AuthCard.tsx";
import { saveToken } from "../../session/tokenStore.ts";
import { teamApi } from "../api.ts";
import { NewPasswordFields } from "../../session/components/NewPasswordFields.tsx";
import { AuthFooter } from "../../session/components/AuthFooter.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

/** The link's token travels in the fragment (#token=…) so it never reaches a server log. */
export function invitationTokenFrom(hash: string, search: string): string | null {
  const fromHash = new URLSearchParams(hash.replace(/^#/, "")).get("token");
  const token = fromHash ?? new URLSearchParams(search).get("token");
  return token && invitationTokenSchema.safeParse(token).success ? token.trim() : null;
}

interface Values {
  name: string;
  password: string;
  confirmPassword: string;
}

export function acceptErrors(values: Values, email: string): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = values.name.trim();
  if (name === "" || name.length > NAME_MAX_LENGTH) errors["name"] = NAME_MESSAGE;
  const problems = passwordProblems(values.password, email);
  if (problems[0]) errors["password"] = problems[0];
  if (!confirmationMatches(values.confirmPassword, values.password)) errors["confirmPassword"] = CONFIRMATION_MESSAGE;
  return errors;
}

function AcceptForm({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm<Values>({ initialValues: { name: "", password: "", confirmPassword: "" }, validate: (v) => acceptErrors(v, email) });
  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setError(null);
    try {
      const res = await teamApi.accept({ token, name: values.name.trim(), password: values.password, confirmPassword: values.confirmPassword });
      client.clear();
      saveToken(res.token);
      void navigate("/setup/companies", { replace: true });
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      if (Object.keys(fields).length > 0 && !("token" in fields)) form.setErrors(fields);
      else setError(messageOf(err));
      setBusy(false);
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Accept the invitation">
      <Stack gap="md">
        <Failure message={error} />
        <TextInput label="Email" value={email} readOnly description="You will sign in with this address." />
        <TextInput label="Your name" autoComplete="name" {...form.getInputProps("name")} />
        <NewPasswordFields rulesId="invite-password-rules" labels={["Choose a password", "Confirm password"]} email={email} password={form.getInputProps("password")} confirm={form.getInputProps("confirmPassword")} />
        <Button type="submit" loading={busy} fullWidth>
          Join and sign in
        </Button>
      </Stack>
    </form>
  );
}

/** /invitation#token=…: a colleague's invitation, accepted by choosing a name and password. No session needed. */
export function InvitationPage() {
  const location = useLocation();
  const token = invitationTokenFrom(location.hash, location.search);
  const preview = useQuery({ queryKey: ["invitation", token], queryFn: () => teamApi.lookup(token!), enabled: token !== null, retry: false });
  const footer = <AuthFooter question="Already have a login?" to="/login" link="Log in" />;
  if (token === null || preview.isError) {
    return (
      <AuthCard title="This invitation cannot be used" footer={footer}>
        <Alert color="orange" role="alert">
          {token === null
            ? "The link is not complete. Open the invitation link from the email again (copy the whole address if it was split over two lines)."
            : messageOf(preview.error)}
        </Alert>
      </AuthCard>
    );
  }
  if (preview.isPending) {
    return (
      <AuthCard title="Join your team">
        <Skeleton height={220} />
      </AuthCard>
    );
  }
  const p = preview.data;
  const role = PERMISSION_LABELS[p.permissionLevel as PermissionLevel] ?? "Member";
  return (
    <AuthCard
      title={`Join ${p.accountName}`}
      subtitle={
        <Text span size="sm">
          {p.invitedBy ? `${p.invitedBy} invited you` : "You were invited"} to GroupLedger as {role === "Admin" ? "an admin" : "a member"}. Choose your name and
          password to join.
        </Text>
      }
      footer={footer}
    >
      <AcceptForm token={token} email={p.email} />
    </AuthCard>
  );
}
