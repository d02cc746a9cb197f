import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import type { PostingSummary, PostOutcome } from "@groupledger/contract";
import { useState } from "react";
import { ReplaceDialog } from "../../runs/components/PostedPeriods.tsx";
import { AdminGate } from "../../team/permissions.tsx";

/**
 * A posted group entry (eliminations, group adjustments) whose inputs changed since it was posted:
 * what changed, and replacing it after the user reviewed the differences and approved. Nothing is
 * drawn while the posted entry is unchanged.
 */
export function ChangedEntry({
  posted,
  title,
  text,
  lead,
  currency,
  numbers,
  adminOnly,
  testId,
  replace,
  onReplaced,
}: {
  posted: PostingSummary | null;
  title: string;
  /** What no longer matches, and what replacing does. */
  text: string;
  /** The dialog's first words. */
  lead: string;
  currency: string;
  numbers: ReadonlyMap<string, string>;
  adminOnly: string | null;
  testId: string;
  replace: { isPending: boolean; mutate: (postingId: string, callbacks: { onSuccess: (r: PostOutcome) => void; onError: (e: Error) => void }) => void };
  onReplaced: (outcome: PostOutcome) => void;
}) {
  const [confirming, setConfirming] = useState<PostingSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      {posted?.stale ? (
        <Alert color="orange" title={title} data-testid={testId}>
          <Stack gap="xs">
            <Text size="sm">{text}</Text>
            <Group>
              <AdminGate reason={adminOnly}>
                <Button color="orange" variant="light" onClick={() => setConfirming(posted)}>
                  Review and replace
                </Button>
              </AdminGate>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      <ReplaceDialog
        lead={lead}
        posting={confirming}
        currency={currency}
        numbers={numbers}
        busy={replace.isPending}
        error={error}
        onCancel={() => {
          setConfirming(null);
          setError(null);
        }}
        onReplace={() => {
          if (!confirming) return;
          replace.mutate(confirming.id, {
            onSuccess: (result) => {
              setConfirming(null);
              onReplaced(result);
            },
            onError: (e) => setError(e.message),
          });
        }}
      />
    </>
  );
}
