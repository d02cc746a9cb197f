import { Button, Group, Modal, Text, ThemeIcon, type ModalProps } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import type { ReactNode } from "react";

/** A SPEC §4 onboarding milestone: a modal with a check, its title, what comes next, and Continue (closing it continues too). */
export function MilestoneModal({
  opened,
  title,
  size,
  onContinue,
  children,
}: {
  opened: boolean;
  title: ReactNode;
  size?: ModalProps["size"];
  onContinue: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onContinue}
      centered
      size={size}
      title={
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color="teal" variant="light" radius="xl" size={32}>
            <IconCircleCheck size={20} aria-hidden />
          </ThemeIcon>
          <Text fw={700} size="lg">
            {title}
          </Text>
        </Group>
      }
    >
      {children}
      <Group justify="flex-end" mt="lg">
        <Button onClick={onContinue} data-autofocus>
          Continue
        </Button>
      </Group>
    </Modal>
  );
}
