import { Button, Group, Modal, Text, ThemeIcon } from "@mantine/core";
import { FIRST_COMPANY_MODAL_TITLE } from "@groupledger/domain";
import { IconCircleCheck } from "@tabler/icons-react";

/** SPEC §4 milestone modal of step 1: the first company is connected; next come the subsidiaries. */
export function FirstCompanyModal({ opened, companyName, onContinue }: { opened: boolean; companyName: string | null; onContinue: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onContinue}
      centered
      size="md"
      title={
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color="teal" variant="light" radius="xl" size={32}>
            <IconCircleCheck size={20} aria-hidden />
          </ThemeIcon>
          <Text fw={700} size="lg">
            {FIRST_COMPANY_MODAL_TITLE}
          </Text>
        </Group>
      }
    >
      <Text size="sm">
        {companyName ?? "It"} is your parent company: the one that owns the others and receives the consolidation entries. Its chart
        of accounts and monthly balances sync from QuickBooks in the background.
      </Text>
      <Text size="sm" mt="sm">
        Next, connect each subsidiary the same way. Step 1 is done once the parent and at least one subsidiary are connected.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onContinue} data-autofocus>
          Continue
        </Button>
      </Group>
    </Modal>
  );
}
