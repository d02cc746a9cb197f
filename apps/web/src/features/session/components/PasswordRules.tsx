import { List, Text, ThemeIcon, VisuallyHidden } from "@mantine/core";
import { passwordRules } from "@groupledger/domain";
import { IconCheck, IconPoint } from "@tabler/icons-react";

/**
 * The creation rules (SPEC §5), ticked off live as the password is typed. "Not blank" is implied by
 * the others (and said by the field's own error on submit); the length cap only shows once it is
 * broken: nobody needs to read about 1,024 characters up front.
 */
export function PasswordRules({ password, email, id }: { password: string; email: string; id?: string }) {
  const rules = passwordRules(password, email).filter((r) => r.rule !== "notBlank" && (r.rule !== "maxLength" || !r.ok));
  return (
    <List
      id={id}
      size="sm"
      spacing={4}
      center
      aria-label="Password requirements"
      data-testid="password-rules"
    >
      {rules.map((r) => (
        <List.Item
          key={r.rule}
          data-ok={r.ok}
          icon={
            <ThemeIcon size={18} radius="xl" color={r.ok ? "teal" : "gray"} variant={r.ok ? "filled" : "light"}>
              {r.ok ? <IconCheck size={12} stroke={3} aria-hidden /> : <IconPoint size={12} aria-hidden />}
            </ThemeIcon>
          }
        >
          <Text size="sm" c={r.ok ? "teal.9" : "dimmed"}>
            {r.message}
            <VisuallyHidden>{r.ok ? " (met)" : " (not met yet)"}</VisuallyHidden>
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
