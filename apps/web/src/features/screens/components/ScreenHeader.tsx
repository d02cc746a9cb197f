import { Stack, Text, Title } from "@mantine/core";

export function ScreenHeader({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap={4}>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed" maw={760}>
        {description}
      </Text>
    </Stack>
  );
}
