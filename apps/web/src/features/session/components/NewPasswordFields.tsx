import { PasswordInput } from "@mantine/core";
import type { GetInputPropsReturnType } from "@mantine/form";
import { PasswordRules } from "./PasswordRules.tsx";

/**
 * A new password as every form asks for one (`password` and `confirm` are the form's input props):
 * the password, the spec's rules ticked off as it is typed (`email` for the rule against its name
 * part), then the password again. `labels` name the two fields.
 */
export function NewPasswordFields({
  rulesId,
  labels,
  email,
  password,
  confirm,
}: {
  rulesId: string;
  labels: readonly [string, string];
  email: string;
  password: GetInputPropsReturnType;
  confirm: GetInputPropsReturnType;
}) {
  return (
    <>
      <PasswordInput label={labels[0]} autoComplete="new-password" aria-describedby={rulesId} {...password} />
      <PasswordRules id={rulesId} password={String(password.value ?? "")} email={email} />
      <PasswordInput label={labels[1]} autoComplete="new-password" {...confirm} />
    </>
  );
}
