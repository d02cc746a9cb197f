import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconPlugConnected } from "@tabler/icons-react";

const COPY = {
  connect: {
    title: "Connect to QuickBooks Online",
    body: "This window is where QuickBooks asks you to sign in and choose the company to connect. Connecting companies is not available in this release yet, so there is nothing to do here.",
  },
  disconnect: {
    title: "Disconnect from QuickBooks Online",
    body: "This window confirms that a company was disconnected from GroupLedger. Disconnecting companies is not available in this release yet.",
  },
  authComplete: {
    title: "Finishing the connection",
    body: "QuickBooks returns here after you authorize a company. Connecting companies is not available in this release yet, so there is nothing to finish.",
  },
} as const;

/**
 * Pages of the QuickBooks pop-up flow (/setup/connect, /disconnect, /qbo/auth/complete), shown
 * without the navigation. They explain themselves until the connection flow arrives.
 */
export function PopupPage({ kind }: { kind: keyof typeof COPY }) {
  const copy = COPY[kind];
  return (
    <Center mih="100vh" p="lg" bg="gray.0">
      <Paper withBorder radius="md" p="xl" maw={480} bg="white">
        <Stack gap="sm" align="flex-start">
          <ThemeIcon size={44} radius="md" variant="light">
            <IconPlugConnected size={24} aria-hidden />
          </ThemeIcon>
          <Title order={1} size="h3">
            {copy.title}
          </Title>
          <Text size="sm" c="dimmed">
            {copy.body}
          </Text>
          <Button variant="default" onClick={() => (window.opener ? window.close() : window.location.assign("/"))}>
            {typeof window !== "undefined" && window.opener ? "Close this window" : "Go to GroupLedger"}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
