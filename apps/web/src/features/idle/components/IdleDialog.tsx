import { Button, Group, Modal, Text } from "@mantine/core";
import { IDLE_TITLE, IDLE_QUESTION } from "../messages.ts";

/** SPEC §2: 'Idle Timeout', 'Are you still there?', Stay / Logout. */
export function IdleDialog({ opened, onStay, onLogout }: { opened: boolean; onStay: () => void; onLogout: () => void }) {
  return (
    <Modal opened={opened} onClose={onStay} title={IDLE_TITLE}
      styles={{ title: { fontWeight: 700, fontSize: "var(--mantine-font-size-lg)" } }} centered closeOnClickOutside={false} size="sm" zIndex={500}>
      <Text>{IDLE_QUESTION}</Text>
      <Text size="sm" c="dimmed" mt={4}>
        For your security you will be logged out if there is no activity.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onLogout}>
          Logout
        </Button>
        <Button onClick={onStay} data-autofocus>
          Stay
        </Button>
      </Group>
    </Modal>
  );
}
