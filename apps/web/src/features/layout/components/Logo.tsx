import { Group, Text, UnstyledButton } from "@mantine/core";
import { AppLink } from "../../../app/links.tsx";

/** Three stacked ledgers rolling up into one: the product in a 28-pixel mark. */
function Mark() {
  return (
    <svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true">
      <rect x="1" y="1" width="26" height="26" rx="7" fill="var(--mantine-color-ledger-9)" />
      <rect x="7" y="7" width="6" height="4" rx="1" fill="#fff" opacity="0.65" />
      <rect x="15" y="7" width="6" height="4" rx="1" fill="#fff" opacity="0.65" />
      <path d="M10 11.5v3h8v-3M14 14.5v2.5" stroke="#fff" strokeWidth="1.5" fill="none" opacity="0.9" />
      <rect x="8" y="17" width="12" height="4.5" rx="1" fill="#fff" />
    </svg>
  );
}

/** The logo always leads to '/' (SPEC §2). */
export function Logo() {
  return (
    <UnstyledButton component={AppLink} to="/" aria-label="GroupLedger home">
      <Group gap={8} wrap="nowrap">
        <Mark />
        <Text fw={700} size="lg" c="ledger.9" style={{ letterSpacing: "-0.01em" }}>
          GroupLedger
        </Text>
      </Group>
    </UnstyledButton>
  );
}
