import { List, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconCircleCheck, IconSquare } from "@tabler/icons-react";

/** The server's list of what still blocks translating this subsidiary, as a checklist to work through. */
export function MissingChecklist({ companyName, missing, unsaved }: { companyName: string; missing: readonly string[]; unsaved: boolean }) {
  return (
    <Paper withBorder radius="md" p="md" bg="gray.0" component="section" aria-label="What blocks translation" h="100%">
      <Stack gap="sm">
        <Title order={3} size="h5">
          What blocks translation
        </Title>
        {missing.length === 0 ? (
          <Text size="sm" c="teal.9" data-testid="cta-ready">
            <IconCircleCheck size={16} aria-hidden style={{ verticalAlign: "text-bottom", marginRight: 6 }} />
            Nothing: {companyName} can be translated.
          </Text>
        ) : (
          <List
            spacing="xs"
            size="sm"
            data-testid="cta-missing"
            icon={
              <ThemeIcon color="orange" variant="transparent" size={18}>
                <IconSquare size={16} aria-hidden />
              </ThemeIcon>
            }
          >
            {missing.map((m) => (
              <List.Item key={m}>{m}</List.Item>
            ))}
          </List>
        )}
        {unsaved ? (
          <Text size="xs" c="dimmed">
            This list reflects the saved settings; save your changes to update it.
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
