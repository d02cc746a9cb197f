import { Anchor, Box, Button, Container, Group, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { AppLink } from "../../../app/links.tsx";
import { Logo } from "../../layout/components/Logo.tsx";

/**
 * Header and footer of the public pages (landing, pricing, legal, sign-in forms). No router here:
 * the login shell draws it too (src/app/shell.tsx); links go through `AppLink`.
 */
export function PublicChrome({ children }: { children: ReactNode }) {
  return (
    <Box mih="100vh" style={{ display: "flex", flexDirection: "column", background: "var(--mantine-color-gray-0)" }}>
      <Box component="header" bg="white" style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}>
        <Container size="lg" h={64}>
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Logo />
            <Group gap="xs" component="nav" aria-label="Main" wrap="nowrap">
              <Button component={AppLink} to="/pricing" variant="subtle" color="dark">
                Pricing
              </Button>
              <Button component={AppLink} to="/login" variant="subtle" color="dark">
                Log in
              </Button>
              <Button component={AppLink} to="/signup">
                Start free trial
              </Button>
            </Group>
          </Group>
        </Container>
      </Box>
      <Box component="main" style={{ flex: 1 }}>
        {children}
      </Box>
      <Box component="footer" bg="white" py="lg" style={{ borderTop: "1px solid var(--mantine-color-gray-3)" }}>
        <Container size="lg">
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              © {new Date().getFullYear()} GroupLedger. Consolidation for QuickBooks Online groups.
            </Text>
            <Group gap="lg" component="nav" aria-label="Legal">
              <Anchor component={AppLink} to="/pricing" size="sm" c="dimmed">
                Pricing
              </Anchor>
              <Anchor component={AppLink} to="/privacy" size="sm" c="dimmed">
                Privacy
              </Anchor>
              <Anchor component={AppLink} to="/terms" size="sm" c="dimmed">
                Terms
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
