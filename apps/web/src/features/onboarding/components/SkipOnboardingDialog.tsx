import { Button, List, Modal, Stack, Text } from "@mantine/core";
import type { HeldScreen } from "../../navigation/navItems.ts";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

interface Props {
  opened: boolean;
  busy: boolean;
  /** The screens the guide holds back now (navigation/navItems.ts screensHeldByOnboarding). */
  unlocks: HeldScreen[];
  /** Within a Modal.Stack: the id that puts it above the welcome overlay. */
  stackId?: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Screens that would still need the same things, together: one line instead of six identical ones. */
function groupByNeeds(screens: HeldScreen[]): { labels: string[]; needs: string[] }[] {
  const groups = new Map<string, { labels: string[]; needs: string[] }>();
  for (const s of screens) {
    const key = s.stillNeeds.join("|");
    const group = groups.get(key) ?? { labels: [], needs: s.stillNeeds };
    group.labels.push(s.label);
    groups.set(key, group);
  }
  return [...groups.values()];
}

export const SKIP_DIALOG_TITLE = "Skip the guided setup?";

/**
 * 'Skip This Step' ends the whole onboarding (SPEC §4: it disables onboarding), not one step: this
 * asks first and says what changes (the guide goes, screens unlock) and what does not (nothing
 * connected or mapped is lost). Cancel keeps onboarding as it is.
 */
export function SkipOnboardingDialog({ opened, busy, unlocks, stackId, onCancel, onConfirm }: Props) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      {...(stackId ? { stackId } : {})}
      centered
      size="lg"
      title={
        <Text fw={700} size="lg">
          {SKIP_DIALOG_TITLE}
        </Text>
      }
    >
      <Stack gap="sm">
        <Text size="sm">
          Skipping ends the whole guided setup, not only this step: the step indicator and its milestone messages go away for your group
          and do not come back.
        </Text>
        {unlocks.length > 0 ? (
          <div>
            <Text size="sm">These screens stop waiting for the guide:</Text>
            <List size="sm" spacing={6} mt={6} aria-label="Screens that unlock">
              {groupByNeeds(unlocks).map(({ labels, needs }) => (
                <List.Item key={labels.join()}>
                  <Text size="sm" fw={600}>
                    {labels.join(", ")}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {needs.length === 0 ? "Open right away." : `Then still locked: ${needs.join(". ")}.`}
                  </Text>
                </List.Item>
              ))}
            </List>
          </div>
        ) : null}
        <Text size="sm">
          Nothing you have connected or mapped is lost: your companies, account maps and opening balances stay as they are, and you can
          keep setting them up under SETUP & CONFIGURE.
        </Text>
      </Stack>
      <DialogActions onCancel={onCancel} busy={busy} autoFocus mt="lg">
        <Button onClick={onConfirm} loading={busy}>
          Skip guided setup
        </Button>
      </DialogActions>
    </Modal>
  );
}
