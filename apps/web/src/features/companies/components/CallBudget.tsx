import { Alert, Anchor, Stack, Text } from "@mantine/core";
import { QBO_READ_WARNING_SHARE, type CallCounts, type QboCalls } from "@groupledger/contract";
import { IconAlertTriangle } from "@tabler/icons-react";
import { Link } from "react-router";

const count = (n: number) => n.toLocaleString("en-US");
const calls = (c: CallCounts) => c.reads + c.writes;
const breakdown = (c: CallCounts) => `${count(c.reads)} ${c.reads === 1 ? "read" : "reads"}, ${count(c.writes)} ${c.writes === 1 ? "write" : "writes"}`;

/** A company's requests to QuickBooks today and this month (UTC), reads and writes in the title. */
export function CallsCell({ calls: c }: { calls: QboCalls["companies"][string] | undefined }) {
  if (!c) {
    return (
      <Text size="sm" c="dimmed" title="Not counted yet">
        —
      </Text>
    );
  }
  return (
    <Stack gap={0} data-testid="qbo-calls">
      <Text size="sm" title={`Today (UTC): ${breakdown(c.today)}`}>
        {count(calls(c.today))} today
      </Text>
      <Text size="xs" c="dimmed" title={`This month (UTC): ${breakdown(c.month)}`}>
        {count(calls(c.month))} this month
      </Text>
    </Stack>
  );
}

/** Below the table: the group's month so far and where it is heading, against Intuit's allowance. */
export function GroupCallsLine({ group }: { group: QboCalls["group"] }) {
  return (
    <Text size="xs" c="dimmed" data-testid="group-calls">
      QuickBooks calls this month: {breakdown(group.month)}. At this pace about {count(group.projectedReads)} reads by the month&apos;s end, of the{" "}
      {count(group.allowance)} a month Intuit allows on its free tier (writes are not metered).
    </Text>
  );
}

/**
 * The warning before the group's reads pass Intuit's monthly allowance (issue 21): shown when the
 * month's reads, at the pace so far, pass 80 % of it (`readOutlook` in the contract), saying what
 * the user can do about it.
 */
export function CallBudgetAlert({ group }: { group: QboCalls["group"] }) {
  if (!group.warn) return null;
  const percent = Math.round((group.projectedReads / group.allowance) * 100);
  return (
    <Alert color="yellow" radius="md" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title="QuickBooks reads are heading past Intuit's monthly allowance">
      <Text size="sm">
        At this month&apos;s pace your group will read QuickBooks about {count(group.projectedReads)} times, {percent}% of the {count(group.allowance)} reads
        Intuit allows a month on its free tier (we warn past {Math.round(QBO_READ_WARNING_SHARE * 100)}%). Beyond it Intuit stops the reads until next month
        and shows GroupLedger as offline in QuickBooks.
      </Text>
      <Text size="sm" mt={6}>
        To read less, turn off the nightly sync in{" "}
        <Anchor component={Link} to="/settings?tab=team" size="sm">
          Account Settings → Team
        </Anchor>{" "}
        and use Sync now on the companies that change, or remove companies you no longer consolidate.
      </Text>
    </Alert>
  );
}
