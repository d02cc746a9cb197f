import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { IconSend } from "@tabler/icons-react";
import { ProblemList } from "../../obal/components/TrialBalanceView.tsx";
import type { ProblemLike } from "../../obal/missingRates.ts";
import { AdminGate } from "../../team/permissions.tsx";

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
