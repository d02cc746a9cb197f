import { Button, Group, Text } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import { AdminGate } from "../../team/permissions.tsx";

/** The quiet confirmation under a form that saved (read out by screen readers as a status). */
export function Saved({ children }: { children: string | null }) {
  if (!children) return null;
  return (
    <Group gap={6} role="status" wrap="nowrap">
      <IconCircleCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden />
      <Text size="sm" c="teal.8">
        {children}
      </Text>
    </Group>
  );
}

/**
 * A settings form's foot: its Save button, enabled once something changed (and disabled with the
 * reason when only an admin may save: `adminOnly`), and the confirmation once it saved.
 */
export function SaveRow({ label, pending, dirty, saved, adminOnly = null }: { label: string; pending: boolean; dirty: boolean; saved: string | null; adminOnly?: string | null }) {
  return (
    <>
      <Group mt="xs">
        <AdminGate reason={adminOnly}>
          <Button type="submit" variant="default" loading={pending} disabled={!dirty}>
            {label}
          </Button>
        </AdminGate>
      </Group>
      <Saved>{saved}</Saved>
    </>
  );
}
