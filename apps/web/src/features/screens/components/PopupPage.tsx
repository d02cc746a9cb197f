import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconPlugConnectedX } from "@tabler/icons-react";

/**
 * /disconnect (SPEC §2, no session check): where QuickBooks sends someone who disconnected
 * GroupLedger from inside QuickBooks. The company's row shows it as disconnected once GroupLedger
 * learns of it, and Reconnect there restores it.
 */
export function PopupPage() {
  return (
    <Center mih="100vh" p="lg" bg="gray.0">
      <Paper withBorder radius="md" p="xl" maw={480} bg="white">
        <Stack gap="sm" align="flex-start">
          <ThemeIcon size={44} radius="md" variant="light" color="gray">
            <IconPlugConnectedX size={24} aria-hidden />
          </ThemeIcon>
          <Title order={1} size="h3">
            Disconnected from QuickBooks Online
          </Title>
          <Text size="sm" c="dimmed">
            GroupLedger no longer has access to this QuickBooks company. Its synced data stays in GroupLedger, where the company is listed
            as disconnected. To connect it again, use Reconnect on the Connected Companies screen.
          </Text>
          <Button variant="default" onClick={() => (window.opener ? window.close() : window.location.assign("/setup/companies"))}>
            {typeof window !== "undefined" && window.opener ? "Close this window" : "Go to Connected Companies"}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
