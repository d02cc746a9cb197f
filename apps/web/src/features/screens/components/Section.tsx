import { Group, Paper, Stack, Text, Title, type MantineSpacing } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * A card of a screen: a titled section named `label` (for assistive technology and tests), with
 * an optional line or two under its title and something on its right (a badge, a button).
 */
export function Section({
  label,
  title = label,
  description,
  descriptionMaw,
  aside,
  gap = "sm",
  testId,
  children,
}: {
  label: string;
  title?: ReactNode;
  description?: ReactNode;
  descriptionMaw?: number;
  aside?: ReactNode;
  gap?: MantineSpacing;
  testId?: string;
  children?: ReactNode;
}) {
  const heading = (
    <Title order={2} size="h4">
      {title}
    </Title>
  );
  const titled =
    description === undefined ? (
      heading
    ) : (
      <Stack gap={2}>
        {heading}
        <Text size="sm" c="dimmed" maw={descriptionMaw}>
          {description}
        </Text>
      </Stack>
    );
  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label={label} data-testid={testId}>
      <Stack gap={gap}>
        {aside === undefined ? (
          titled
        ) : (
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            {titled}
            {aside}
          </Group>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
