import { Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { IconKey, IconLogout } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { messageOf } from "../../../lib/forms.ts";
import { settingsApi } from "../api.ts";
import { Saved } from "./Saved.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

/** Account Settings → Security: the password and every open session. */
export function SecuritySection() {
  const navigate = useNavigate();
  const notice = (useLocation().state as { notice?: string } | null)?.notice ?? null;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const logoutEverywhere = async () => {
    setBusy(true);
    setError(null);
    try {
      await settingsApi.logoutEverywhere();
      // This tab's token ended with all the others: finish like any logout.
      void navigate("/logout", { replace: true });
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <Paper withBorder radius="md" p="lg" bg="white">
      <Stack gap="lg">
        <Title order={3} size="h4">
          Security
        </Title>
        <Saved>{notice}</Saved>
        <Group justify="space-between" wrap="nowrap" gap="lg">
          <Stack gap={2}>
            <Text fw={600}>Password</Text>
            <Text size="sm" c="dimmed">
              Changing it signs you out everywhere else; this browser stays signed in.
            </Text>
          </Stack>
          <Button component={Link} to="/changePassword" variant="default" leftSection={<IconKey size={16} aria-hidden />}>
            Change password
          </Button>
        </Group>
        <Group justify="space-between" wrap="nowrap" gap="lg">
          <Stack gap={2}>
            <Text fw={600}>Sessions</Text>
            <Text size="sm" c="dimmed">
              Signed in on a shared or lost computer? End every session of your user, this one included.
            </Text>
          </Stack>
          <Button variant="light" color="red" leftSection={<IconLogout size={16} aria-hidden />} onClick={logoutEverywhere} loading={busy}>
            Log out everywhere
          </Button>
        </Group>
        <Failure message={error} />
      </Stack>
    </Paper>
  );
}
