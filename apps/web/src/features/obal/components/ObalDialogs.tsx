import { Alert, Button, Modal, Stack, Text } from "@mantine/core";
import { FIRST_OBAL_POSTED_MODAL_TITLE } from "@groupledger/domain";
import { IconAlertTriangle } from "@tabler/icons-react";
import { MilestoneModal } from "../../onboarding/components/MilestoneModal.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

/** Reset clears the period and every mark; entries already posted are not touched in QuickBooks, and the user must know. */
export function ResetDialog({
  opened,
  postedNames,
  busy,
  onCancel,
  onReset,
}: {
  opened: boolean;
  postedNames: string[];
  busy: boolean;
  onCancel: () => void;
  onReset: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} centered title={<Text fw={700}>Reset the opening balances?</Text>}>
      <Stack gap="sm">
        <Text size="sm">This unlocks the opening period and clears every subsidiary&apos;s review, confirmation and posting marks.</Text>
        {postedNames.length > 0 ? (
          <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} title="Posted entries stay in QuickBooks" data-testid="reset-posted-warning">
            <Text size="sm">
              Opening entries were already posted for {postedNames.join(", ")}. Resetting here does not delete them from the parent&apos;s
              QuickBooks: delete them there yourself, or they will be counted twice when you post again.
            </Text>
          </Alert>
        ) : null}
        <DialogActions onCancel={onCancel} busy={busy} mt="sm">
          <Button color="red" onClick={onReset} loading={busy}>
            Reset opening balances
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}

/** SPEC §4 milestone modal of step 3. */
export function FirstPostedModal({ opened, onContinue }: { opened: boolean; onContinue: () => void }) {
  return (
    <MilestoneModal opened={opened} title={FIRST_OBAL_POSTED_MODAL_TITLE} onContinue={onContinue}>
      <Text size="sm">
        Its translated opening trial balance is now a journal entry in the parent&apos;s QuickBooks, tagged with the subsidiary&apos;s class.
        Post the other eligible subsidiaries the same way to finish this step.
      </Text>
    </MilestoneModal>
  );
}
