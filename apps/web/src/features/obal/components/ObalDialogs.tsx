import { Alert, Anchor, Button, Checkbox, Group, List, Modal, Stack, Text, ThemeIcon } from "@mantine/core";
import { FIRST_OBAL_POSTED_MODAL_TITLE } from "@groupledger/domain";
import { IconAlertTriangle, IconCircleCheck, IconExternalLink } from "@tabler/icons-react";
import { useState } from "react";
import type { JournalEntries } from "../api.ts";

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
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button color="red" onClick={onReset} loading={busy}>
            Reset opening balances
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Before posting: the parent's QuickBooks already holds an opening entry for this subsidiary and month. */
export function DuplicateDialog({
  companyName,
  entries,
  busy,
  onCancel,
  onPost,
}: {
  companyName: string | null;
  entries: JournalEntries["entries"];
  busy: boolean;
  onCancel: () => void;
  onPost: (dontShowAgain: boolean) => void;
}) {
  const [dontShow, setDontShow] = useState(false);
  return (
    <Modal opened={companyName !== null} onClose={onCancel} centered size="lg" title={<Text fw={700}>This entry may already be in QuickBooks</Text>}>
      <Stack gap="sm">
        <Text size="sm">
          The parent company already has {entries.length === 1 ? "a journal entry" : `${entries.length} journal entries`} for {companyName}&apos;s
          opening balance at this month. Posting again adds another one, and the opening balance would be counted twice.
        </Text>
        <List size="sm" spacing={4}>
          {entries.map((e) => (
            <List.Item key={e.id}>
              Entry {e.docNumber ?? e.id} dated {e.txnDate}{" "}
              <Anchor href={e.url} target="_blank" rel="noopener noreferrer" size="sm">
                Open in QuickBooks <IconExternalLink size={12} style={{ verticalAlign: "-1px" }} aria-label="(opens in a new tab)" />
              </Anchor>
            </List.Item>
          ))}
        </List>
        <Checkbox label="Don't show this again" checked={dontShow} onChange={(e) => setDontShow(e.currentTarget.checked)} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel} disabled={busy} data-autofocus>
            Cancel
          </Button>
          <Button color="red" onClick={() => onPost(dontShow)} loading={busy}>
            Post anyway
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** SPEC §4 milestone modal of step 3. */
export function FirstPostedModal({ opened, onContinue }: { opened: boolean; onContinue: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onContinue}
      centered
      title={
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color="teal" variant="light" radius="xl" size={32}>
            <IconCircleCheck size={20} aria-hidden />
          </ThemeIcon>
          <Text fw={700} size="lg">
            {FIRST_OBAL_POSTED_MODAL_TITLE}
          </Text>
        </Group>
      }
    >
      <Text size="sm">
        Its translated opening trial balance is now a journal entry in the parent&apos;s QuickBooks, tagged with the subsidiary&apos;s class.
        Post the other eligible subsidiaries the same way to finish this step.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onContinue} data-autofocus>
          Continue
        </Button>
      </Group>
    </Modal>
  );
}
