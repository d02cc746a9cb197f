import { Button, Group, List, Modal, Text } from "@mantine/core";
import { FRONTEND_RELEASE } from "@groupledger/domain";

/** What changed in this release, shown once per user (SPEC §4 Release notes). */
export function ReleaseNotesModal({ opened, busy, onAcknowledge, onClose }: { opened: boolean; busy: boolean; onAcknowledge: () => void; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={700} size="lg">What's new in GroupLedger</Text>} centered size="md">
      <Text size="sm" c="dimmed" mb="sm">
        Release {FRONTEND_RELEASE}
      </Text>
      <List spacing="xs" size="sm">
        <List.Item>A guided onboarding that walks you from connecting companies to loading opening balances.</List.Item>
        <List.Item>The side navigation now tells you what is still needed before a screen opens.</List.Item>
        <List.Item>For your security, you are asked whether you are still there after a period without activity.</List.Item>
      </List>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onAcknowledge} loading={busy} data-autofocus>
          Got it
        </Button>
      </Group>
    </Modal>
  );
}
