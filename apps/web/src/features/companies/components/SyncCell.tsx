import { Group, Progress, Stack, Text, Tooltip } from "@mantine/core";
import type { CompanyStatus } from "@groupledger/contract";
import { IconAlertCircle } from "@tabler/icons-react";
import { formatDateTime } from "../format.ts";
import { syncChangesLine } from "../syncChanges.ts";

/** "42%": whole percent, rounded down so 100% means the last step is really done. */
export function syncPercent(progress: number | null): number {
  if (progress === null) return 0;
  return Math.min(100, Math.max(0, Math.floor(progress * 100)));
}

/**
 * A company's sync: live progress while it runs, else when it last finished and how. A sync the
 * user watched run keeps its full bar when it completes, so the progress ends at 100% rather than
 * vanishing mid-glance.
 */
export function SyncCell({
  companyName,
  sync,
  watched = false,
}: {
  companyName: string;
  sync: CompanyStatus["sync"] | undefined;
  watched?: boolean;
}) {
  if (!sync) {
    return (
      <Text size="sm" c="dimmed">
        Checking…
      </Text>
    );
  }
  const last = sync.lastSyncedAt ? `Last synced ${formatDateTime(sync.lastSyncedAt)}` : "Not synced yet";
  if (sync.state === "queued" || sync.state === "running") {
    const percent = sync.state === "queued" ? 0 : syncPercent(sync.progress);
    const message = sync.message ?? (sync.state === "queued" ? "Waiting to start" : "Syncing");
    return (
      <Stack gap={4} miw={170} data-testid="sync-progress">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" fw={600}>
            {sync.state === "queued" ? "Queued" : `Syncing ${percent}%`}
          </Text>
        </Group>
        <Progress value={percent} size="sm" animated striped aria-label={`Sync of ${companyName}`} aria-valuetext={`${percent}%`} />
        <Text size="xs" c="dimmed" lineClamp={2} aria-live="polite">
          {message}
        </Text>
      </Stack>
    );
  }
  if (sync.state === "failed") {
    return (
      <Stack gap={2} miw={170}>
        <Group gap={4} wrap="nowrap">
          <IconAlertCircle size={14} color="var(--mantine-color-red-7)" aria-hidden />
          <Text size="xs" fw={600} c="red.7">
            Sync failed
          </Text>
        </Group>
        <Tooltip label={sync.message ?? "No reason was given"} multiline w={320} withArrow disabled={!sync.message}>
          <Text size="xs" c="red.8" lineClamp={2} tabIndex={sync.message ? 0 : -1}>
            {sync.message ?? "No reason was given"}
          </Text>
        </Tooltip>
        <Text size="xs" c="dimmed">
          {last}
        </Text>
      </Stack>
    );
  }
  if (sync.state === "succeeded" && watched) {
    return (
      <Stack gap={4} miw={170} data-testid="sync-complete">
        <Text size="xs" fw={600} c="teal.9">
          Sync complete 100%
        </Text>
        <Progress value={100} size="sm" color="teal" aria-label={`Sync of ${companyName}`} aria-valuetext="100%" />
        <Text size="xs" c="dimmed">
          {last}
        </Text>
        <Changes sync={sync} />
      </Stack>
    );
  }
  return (
    <Stack gap={2} miw={170}>
      <Text size="xs" fw={600} c={sync.state === "succeeded" ? "teal.9" : "dimmed"}>
        {sync.state === "succeeded" ? "Synced" : "Not synced yet"}
      </Text>
      {sync.lastSyncedAt ? (
        <Text size="xs" c="dimmed">
          {last}
        </Text>
      ) : null}
      <Changes sync={sync} />
    </Stack>
  );
}

/** What the last sync found changed and read again, when the server kept it. */
function Changes({ sync }: { sync: CompanyStatus["sync"] }) {
  if (!sync.lastChanges) return null;
  const line = syncChangesLine(sync.lastChanges);
  return (
    <Text size="xs" c="dimmed" lineClamp={2} title={line} data-testid="sync-changes">
      {line}
    </Text>
  );
}
