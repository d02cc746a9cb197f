import { Alert, Anchor, Badge, Button, Group, Loader, Paper, Stack, Text } from "@mantine/core";
import type { Company, ObalTrialBalance } from "@groupledger/contract";
import { IconChevronDown, IconChevronRight } from "@tabler/icons-react";
import type { ProblemLike } from "../missingRates.ts";
import type { ObalAction, ObalStatus } from "../model.ts";
import { AdminGate, useAdminOnly } from "../../team/permissions.tsx";
import { ProblemList, TrialBalanceView, type AccountNumbers } from "./TrialBalanceView.tsx";
import { NewTab } from "../../entries/components/QuickBooksLink.tsx";

const STATUS: Record<ObalStatus, { label: string; color: string }> = {
  notEligible: { label: "Not eligible", color: "gray" },
  unreviewed: { label: "Unreviewed", color: "yellow" },
  reviewed: { label: "Reviewed", color: "blue" },
  confirmed: { label: "Confirmed", color: "violet" },
  posted: { label: "Posted", color: "teal" },
};

const ACTION_LABELS: Record<ObalAction, string> = {
  review: "Mark as reviewed",
  unreview: "Unreview",
  confirm: "Confirm",
  unconfirm: "Unconfirm",
  post: "Post to QuickBooks",
  markDeleted: "Mark as deleted in QuickBooks",
};

/** What the last action on this subsidiary has to say: a refusal with its reason, or the problems that block posting. */
export interface PanelFeedback {
  title: string;
  text: string;
  problems: ProblemLike[];
}

interface Props {
  company: Company;
  status: ObalStatus | null;
  tb: { data: ObalTrialBalance | undefined; isPending: boolean; error: Error | null; refetch: () => void };
  actions: ObalAction[];
  busyAction: ObalAction | null;
  entryUrl: string | null;
  /** "Entry OB202512-384031 dated 2025-12-31": the posted entry as QuickBooks numbers it, once looked up. */
  entryLabel?: string | null | undefined;
  /** Account numbers for the trial balance, once the charts have loaded. */
  numbers?: AccountNumbers | undefined;
  expanded: boolean;
  feedback: PanelFeedback | null;
  onToggle: () => void;
  onAction: (action: ObalAction) => void;
  onDismissFeedback: () => void;
}

/** One subsidiary: its status, the transitions its status allows, and its trial balance. */
export function SubsidiaryPanel({ company, status, tb, actions, busyAction, entryUrl, entryLabel, numbers, expanded, feedback, onToggle, onAction, onDismissFeedback }: Props) {
  const data = tb.data;
  const badge = status ? STATUS[status] : null;
  // Posting writes into the parent's QuickBooks file: admins only (the server refuses members too).
  const adminOnly = useAdminOnly("post to QuickBooks or mark a posted entry deleted");
  return (
    <Paper withBorder radius="md" p="md" bg="white" component="section" aria-label={company.companyName} data-testid={`obal-${company.realmId}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="md">
          <Group gap="sm" wrap="nowrap">
            {data?.view ? (
              <Button
                variant="subtle"
                size="compact-md"
                onClick={onToggle}
                aria-expanded={expanded}
                leftSection={expanded ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
              >
                {company.companyName}
              </Button>
            ) : (
              // Nothing to open (not eligible, or not translatable at all): the name, not a dead button.
              <Text fw={650} size="md">
                {company.companyName}
              </Text>
            )}
            <Text size="sm" c="dimmed">
              {company.homeCurrency}
            </Text>
            {badge ? (
              <Badge color={badge.color} variant="light" data-testid="obal-status">
                {badge.label}
              </Badge>
            ) : (
              <Loader size="xs" aria-label="Loading its trial balance" />
            )}
            {status === "posted" && entryUrl ? (
              <Group gap={6} wrap="nowrap">
                {entryLabel ? (
                  <Text size="sm" c="dimmed" data-testid="posted-entry">
                    {entryLabel}
                  </Text>
                ) : null}
                <Anchor href={entryUrl} target="_blank" rel="noopener noreferrer" size="sm">
                  Open in QuickBooks <NewTab />
                </Anchor>
              </Group>
            ) : null}
          </Group>
          <Group gap="xs" wrap="nowrap">
            {actions.map((a) => (
              <AdminGate key={a} reason={a === "post" || a === "markDeleted" ? adminOnly : null}>
                <Button
                  size="xs"
                  // Marking an entry deleted corrects a rare mistake made in QuickBooks: offered, not pressed on anyone.
                  variant={a === "post" || a === "review" || a === "confirm" ? "filled" : a === "markDeleted" ? "subtle" : "default"}
                  color={a === "markDeleted" ? "gray" : undefined}
                  loading={busyAction === a}
                  disabled={busyAction !== null && busyAction !== a}
                  onClick={() => onAction(a)}
                >
                  {ACTION_LABELS[a]}
                </Button>
              </AdminGate>
            ))}
          </Group>
        </Group>

        {data && !data.eligible ? (
          <Text size="sm" c="dimmed" data-testid="not-eligible-reason">
            {data.reason}
          </Text>
        ) : null}
        {tb.error ? (
          <Alert color="red" role="alert" title="Its trial balance could not be loaded">
            {tb.error.message}{" "}
            <Anchor component="button" size="sm" onClick={tb.refetch}>
              Try again
            </Anchor>
          </Alert>
        ) : null}
        {feedback ? (
          <Alert color="red" role="alert" title={feedback.title} withCloseButton closeButtonLabel="Dismiss message" onClose={onDismissFeedback}>
            {feedback.text}
          </Alert>
        ) : null}
        {feedback && feedback.problems.length > 0 ? (
          <ProblemList problems={feedback.problems} title="Posting is blocked until these are fixed" />
        ) : data && data.eligible && !data.ok && status !== "posted" ? (
          <ProblemList problems={data.problems} title="Fix these before reviewing or posting" />
        ) : null}
        {expanded && data?.view ? <TrialBalanceView view={data.view} numbers={numbers} /> : null}
      </Stack>
    </Paper>
  );
}
