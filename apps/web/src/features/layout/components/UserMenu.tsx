import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from "@mantine/core";
import { FRONTEND_RELEASE } from "@groupledger/domain";
import { IconChevronDown, IconExternalLink, IconHelp, IconLogout, IconSettings } from "@tabler/icons-react";
import { Link } from "react-router";
import { QUICKBOOKS_URL, SUPPORT_BASE_URL } from "../../onboarding/supportLinks.ts";

/** SPEC §2 user menu: 'Logged in as' {email}, QuickBooks, Account Settings, Support, Log Out, release line. */
export function UserMenu({ email }: { email: string | undefined }) {
  const initial = (email ?? "?").charAt(0).toUpperCase();
  return (
    <Menu position="bottom-end" width={260} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton p={4} style={{ borderRadius: "var(--mantine-radius-md)" }}>
          <Group gap={8} wrap="nowrap">
            {/* The button is named by what it shows (axe: label-content-name-mismatch): "User menu" and the email. */}
            <VisuallyHidden>User menu</VisuallyHidden>
            <Avatar size={30} radius="xl" color="ledger" aria-hidden>
              {initial}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm" maw={220} truncate="end">
              {email ?? "…"}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          Logged in as
          <Text size="sm" c="dark" fw={600} truncate="end" data-testid="logged-in-as">
            {email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component="a" href={QUICKBOOKS_URL} target="_blank" rel="noopener noreferrer" leftSection={<IconExternalLink size={16} />}>
          Open QuickBooks
        </Menu.Item>
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />}>
          Account Settings
        </Menu.Item>
        <Menu.Item component="a" href={SUPPORT_BASE_URL} target="_blank" rel="noopener noreferrer" leftSection={<IconHelp size={16} />}>
          Support
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item component={Link} to="/logout" leftSection={<IconLogout size={16} />}>
          Log Out
        </Menu.Item>
        <Menu.Divider />
        <Text size="xs" c="dimmed" px="sm" py={6} data-testid="release-version">
          Version {FRONTEND_RELEASE}
        </Text>
      </Menu.Dropdown>
    </Menu>
  );
}
