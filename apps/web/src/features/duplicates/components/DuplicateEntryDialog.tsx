import { Anchor, Button, Checkbox, List, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import type { FoundEntry } from "../api.ts";
import { NewTab } from "../../entries/components/QuickBooksLink.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

/**
 * Before posting: the parent's QuickBooks already holds an entry under this one's number. Says
 * what would be counted twice, lists what is there with links, and offers "Don't show this again".
 * Mount it with a key per pending post so the checkbox starts cleared each time.
 */
export function DuplicateEntryDialog({
  opened,
  what,
  entries,
  busy,
  onCancel,
  onPost,
}: {
  opened: boolean;
  /** The entry in words, completing "…for {what}", e.g. "Northwind UK Ltd's opening balance at this month". */
  what: string;
  entries: readonly FoundEntry[];
  busy: boolean;
  onCancel: () => void;
  onPost: (dontShowAgain: boolean) => void;
}) {
  const [dontShow, setDontShow] = useState(false);
  return (
    <Modal opened={opened} onClose={onCancel} centered size="lg" title={<Text fw={700}>This entry may already be in QuickBooks</Text>}>
      <Stack gap="sm">
        <Text size="sm">
          The parent company already has {entries.length === 1 ? "a journal entry" : `${entries.length} journal entries`} for {what}. Posting again
          adds another one, and the amounts would be counted twice.
        </Text>
        <List size="sm" spacing={4}>
          {entries.map((e) => (
            <List.Item key={e.id}>
              Entry {e.docNumber ?? e.id} dated {e.txnDate}{" "}
              <Anchor href={e.url} target="_blank" rel="noopener noreferrer" size="sm">
                Open in QuickBooks <NewTab />
              </Anchor>
            </List.Item>
          ))}
        </List>
        <Checkbox label="Don't show this again" checked={dontShow} onChange={(e) => setDontShow(e.currentTarget.checked)} />
        <DialogActions onCancel={onCancel} busy={busy} autoFocus mt="sm">
          <Button color="red" onClick={() => onPost(dontShow)} loading={busy}>
            Post anyway
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}
