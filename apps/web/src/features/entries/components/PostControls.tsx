import { Alert, Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { IconSend } from "@tabler/icons-react";
import { ProblemList } from "../../obal/components/TrialBalanceView.tsx";
import type { ProblemLike } from "../../obal/missingRates.ts";
import { AdminGate } from "../../team/permissions.tsx";
import { NewTab } from "./QuickBooksLink.tsx";

/** Post to QuickBooks (an admin's), off with the reason beside it while the entry cannot be posted. */
export function PostButton({
  adminOnly,
  blocked,
  busy = false,
  loading,
  onPost,
}: {
  /** Why this user may not post (a member), or null. */
  adminOnly: string | null;
  /** Why it cannot be posted now, or null. */
  blocked: string | null;
  /** Off without a reason to show (the entry is being reloaded). */
  busy?: boolean;
  loading: boolean;
  onPost: () => void;
}) {
  return (
    <Group gap="md" align="center">
      <AdminGate reason={adminOnly}>
        <Button leftSection={<IconSend size={16} aria-hidden />} disabled={blocked !== null || busy} loading={loading} onClick={onPost}>
          Post to QuickBooks
        </Button>
      </AdminGate>
      {blocked ? (
        <Text size="sm" c="dimmed" data-testid="post-blocked">
          {blocked}
        </Text>
      ) : null}
    </Group>
  );
}

/** A refused post: what the server said, and the problems that block posting, each with where it is fixed. */
export function PostFailure({ title, message, problems, onClose }: { title: string; message: string; problems: readonly ProblemLike[]; onClose: () => void }) {
  return (
    <Stack gap="xs">
      <Alert color="red" role="alert" title={title} withCloseButton closeButtonLabel="Dismiss message" onClose={onClose}>
        {message}
      </Alert>
      <ProblemList problems={problems} title="Posting is blocked until these are fixed" />
    </Stack>
  );
}

/**
 * After a post: what was posted (teal; `title` "Posted", "Replaced") or that it was there already
 * (blue, "Already posted"), in `text`, with the entry's QuickBooks link when it has one.
 */
export function PostedNotice({
  posted,
  title,
  text,
  entry,
  onClose,
}: {
  posted: boolean;
  title: string;
  text: string;
  entry: { journalEntryUrl: string | null; docNumber: string };
  onClose: () => void;
}) {
  return (
    <Alert color={posted ? "teal" : "blue"} role="status" title={title} withCloseButton closeButtonLabel="Dismiss message" onClose={onClose} data-testid="post-outcome">
      <Stack gap={4}>
        <Text size="sm">{text}</Text>
        {entry.journalEntryUrl ? (
          <Anchor href={entry.journalEntryUrl} target="_blank" rel="noopener noreferrer" size="sm" fw={600}>
            Open entry {entry.docNumber} in QuickBooks <NewTab />
          </Anchor>
        ) : null}
      </Stack>
    </Alert>
  );
}
