import { Group, Text } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";

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
