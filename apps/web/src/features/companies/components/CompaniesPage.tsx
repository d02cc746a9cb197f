import { Alert, Anchor, Button, Group, List, Loader, Menu, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import type { Company } from "@groupledger/contract";
import { IconBuildingSkyscraper, IconChevronDown, IconCircleCheck, IconCrown, IconPlugConnected } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useAccount } from "../../account/api.ts";
import { onboardingView } from "../../onboarding/flow.ts";
import { ONBOARDING_SUPPORT_LINKS } from "../../onboarding/supportLinks.ts";
import { useContinueOnboarding } from "../../onboarding/useContinueOnboarding.ts";
import { ScreenHeader } from "../../screens/components/ScreenHeader.tsx";
import { companyKeys, syncActive, useCompanies, useCompanyAction, useCompanyStatus, useQboCalls, type CompanyAction, type StatusMap } from "../api.ts";
import { CallBudgetAlert, GroupCallsLine } from "./CallBudget.tsx";
import { useConnectPopup, type ConnectOutcome } from "../connectPopup.ts";
import { companiesNextStep, type NextStep } from "../rules.ts";
import { CompanyDialogs, type Dialog } from "./CompanyDialogs.tsx";
import { CompanyTable, orderCompanies, type RowCommand } from "./CompanyTable.tsx";
import { AdminGate, useAdminOnly } from "../../team/permissions.tsx";
import { NewTab } from "../../entries/components/QuickBooksLink.tsx";
import { LoadFailure } from "../../screens/components/Failure.tsx";

/** What the screen last has to tell the user, shown above the table until dismissed or replaced. */
type Feedback =
  | ConnectOutcome
  | { kind: "done"; text: string }
  | { kind: "actionFailed"; text: string };

const BLOCKED_TEXT =
  "Your browser blocked the QuickBooks window. Allow pop-ups for this site (look for the blocked pop-up icon in the address bar), then click Connect again.";

function FeedbackAlert({ feedback, onClose }: { feedback: Feedback; onClose: () => void }) {
  const common = { withCloseButton: true, closeButtonLabel: "Dismiss message", onClose, radius: "md" } as const;
  switch (feedback.kind) {
    case "connected":
      return (
        <Alert {...common} color="teal" title={`${feedback.companyName} is connected`} role="status" icon={<IconCircleCheck size={18} />}>
          Its chart of accounts and monthly balances are syncing from QuickBooks now. You can keep working while they arrive.
        </Alert>
      );
    case "failed":
      return (
        <Alert {...common} color="red" title="The company was not connected" role="alert">
          {feedback.error}
        </Alert>
      );
    case "blocked":
      return (
        <Alert {...common} color="yellow" title="The QuickBooks window could not open" role="alert">
          {BLOCKED_TEXT}
        </Alert>
      );
    case "done":
      return (
        <Alert {...common} color="teal" role="status" icon={<IconCircleCheck size={18} />}>
          {feedback.text}
        </Alert>
      );
    case "actionFailed":
      return (
        <Alert {...common} color="red" role="alert">
          {feedback.text}
        </Alert>
      );
  }
}

function NoCompanies({ onConnect, connecting, adminOnly }: { onConnect: () => void; connecting: boolean; adminOnly: string | null }) {
  return (
    <Paper withBorder radius="md" p="xl" bg="white" data-testid="empty-state">
      <Group align="flex-start" wrap="nowrap" gap="lg">
        <ThemeIcon size={48} radius="md" variant="light">
          <IconBuildingSkyscraper size={26} aria-hidden />
        </ThemeIcon>
        <Stack gap="sm" style={{ flex: 1 }}>
          <Title order={2} size="h4">
            No companies connected yet
          </Title>
          <Text size="sm" c="dimmed" maw={640}>
            A consolidation needs a parent company and at least one subsidiary, each a QuickBooks Online company you can sign in to.
          </Text>
          <List type="ordered" size="sm" spacing={6}>
            <List.Item>Connect your parent company: the one that owns the others and receives the consolidation entries.</List.Item>
            <List.Item>Connect each subsidiary. Its currency and country are read from QuickBooks.</List.Item>
            <List.Item>Check that the parent is marked as the parent; you can change it later.</List.Item>
          </List>
          <Group gap="md" mt="xs">
            <AdminGate reason={adminOnly}>
              <Button leftSection={<IconPlugConnected size={18} aria-hidden />} onClick={onConnect} disabled={connecting}>
                Connect company
              </Button>
            </AdminGate>
            <Anchor href={ONBOARDING_SUPPORT_LINKS[1]} target="_blank" rel="noopener noreferrer" size="sm">
              How connecting works <NewTab />
            </Anchor>
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

interface NextStepProps {
  next: NextStep;
  companies: Company[];
  connecting: boolean;
  continuing: boolean;
  onConnect: () => void;
  onSetParent: (company: Company) => void;
  onContinue: () => void;
  /** Why connecting and choosing the parent are off for this user (members), or null. */
  adminOnly: string | null;
}

/** The one obvious next thing to do, with its primary button (SPEC §4 onboarding step 1). */
function NextStepCard({ next, companies, connecting, continuing, onConnect, onSetParent, onContinue, adminOnly }: NextStepProps) {
  if (next === "connectFirst" || next === "complete") return null;
  const active = companies.filter((c) => c.archivedAt === null);
  const parent = active.find((c) => c.parent);
  const subs = active.filter((c) => !c.parent).length;
  const connectButton = (variant: "filled" | "default") => (
    <AdminGate reason={adminOnly}>
      <Button variant={variant} leftSection={<IconPlugConnected size={18} aria-hidden />} onClick={onConnect} disabled={connecting}>
        Connect a subsidiary
      </Button>
    </AdminGate>
  );
  const content = {
    setParent: {
      title: "Set a parent",
      text: "None of your connected companies is marked as the parent. Choose the one that owns the others: subsidiaries are consolidated into it.",
      actions: adminOnly ? (
        <AdminGate reason={adminOnly}>
          <Button leftSection={<IconCrown size={18} aria-hidden />}>Set a parent</Button>
        </AdminGate>
      ) : (
        <Menu position="bottom-end" shadow="md" withinPortal>
          <Menu.Target>
            <Button leftSection={<IconCrown size={18} aria-hidden />} rightSection={<IconChevronDown size={16} aria-hidden />}>
              Set a parent
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Which company is the parent?</Menu.Label>
            {orderCompanies(active).map((c) => (
              <Menu.Item key={c.realmId} onClick={() => onSetParent(c)}>
                {c.companyName}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      ),
    },
    connectSubsidiary: {
      title: "Connect a subsidiary",
      text: `${parent?.companyName ?? "Your parent"} is the parent company. Connect each subsidiary it consolidates; its country and currency come from QuickBooks.`,
      actions: connectButton("filled"),
    },
    continueToCoa: {
      title: "Step 1 is complete",
      text: `Your parent and ${subs} ${subs === 1 ? "subsidiary are" : "subsidiaries are"} connected; you can connect more at any time. Next, map each subsidiary's chart of accounts onto the parent's.`,
      actions: (
        <>
          {connectButton("default")}
          <Button onClick={onContinue} loading={continuing}>
            Continue to COA Mapping
          </Button>
        </>
      ),
    },
  }[next];
  return (
    <Paper withBorder radius="md" p="md" bg="white" component="section" aria-label="Next step" data-testid="next-step">
      <Group justify="space-between" wrap="nowrap" gap="lg">
        <Stack gap={2}>
          <Text fw={650}>{content.title}</Text>
          <Text size="sm" c="dimmed" maw={620}>
            {content.text}
          </Text>
        </Stack>
        <Group gap="sm" wrap="nowrap">
          {content.actions}
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * Companies whose sync ran while this screen was open, or that the user connected or synced here
 * (a quick sync may end before the next poll): their bars end at 100% instead of vanishing.
 */
function useWatchedSyncs(status: StatusMap | undefined, onFinished: () => void) {
  const [watched, setWatched] = useState<ReadonlySet<string>>(() => new Set());
  const watch = useCallback((realmId: string) => setWatched((prev) => (prev.has(realmId) ? prev : new Set([...prev, realmId]))), []);
  const running = useRef(new Set<string>());
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  }, [onFinished]);
  useEffect(() => {
    if (!status) return;
    const now = new Set(Object.keys(status).filter((realmId) => syncActive(status[realmId])));
    const ended = [...running.current].some((realmId) => !now.has(realmId));
    running.current = now;
    if (now.size > 0) {
      setWatched((prev) => ([...now].every((r) => prev.has(r)) ? prev : new Set([...prev, ...now])));
    }
    // A finished sync may have learnt the earliest transaction date: the company list changes too.
    if (ended) finished.current();
  }, [status]);
  return { watched, watch };
}

const ACTION_TEXT: Record<CompanyAction["kind"], { done: (name: string) => string; failed: (name: string) => string }> = {
  setParent: { done: (n) => `${n} is now the parent company.`, failed: (n) => `${n} could not be set as the parent` },
  remove: { done: (n) => `${n} was removed from GroupLedger.`, failed: (n) => `${n} could not be removed` },
  disconnect: { done: (n) => `${n} is disconnected. Reconnect it at any time.`, failed: (n) => `${n} could not be disconnected` },
  archive: { done: (n) => `${n} is archived.`, failed: (n) => `${n} could not be archived` },
  sync: { done: (n) => `A sync of ${n} has started.`, failed: (n) => `A sync of ${n} could not start` },
};

/** /setup/companies: the group's connected companies (SPEC §2 'Connected Companies', §4 Companies). */
export function CompaniesPage() {
  const client = useQueryClient();
  const companies = useCompanies();
  const status = useCompanyStatus();
  const calls = useQboCalls();
  const account = useAccount();
  const action = useCompanyAction();
  const continueOnboarding = useContinueOnboarding();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());

  // A finished sync may have learnt the earliest transaction date, and made calls to QuickBooks.
  const refetchList = useCallback(() => {
    void client.invalidateQueries({ queryKey: companyKeys.list, exact: true });
    void client.invalidateQueries({ queryKey: companyKeys.calls });
  }, [client]);
  const { watched, watch } = useWatchedSyncs(status.data, refetchList);
  const onOutcome = useCallback(
    (outcome: ConnectOutcome) => {
      // A connect starts a sync on the server; a failure may still have changed nothing, but a refetch is cheap.
      if (outcome.kind === "connected") watch(outcome.realmId);
      if (outcome.kind !== "blocked") void client.invalidateQueries({ queryKey: companyKeys.all });
      setFeedback(outcome);
    },
    [client, watch],
  );
  const popup = useConnectPopup(onOutcome);
  const adminOnly = useAdminOnly("connect, disconnect or change companies");

  const view = onboardingView(account.data);
  const list = companies.data ?? [];
  const next = companiesNextStep(list, view.active ? view.step : null);
  const busyRealm = action.isPending ? action.variables.realmId : null;

  const run = (a: CompanyAction, company: Company) =>
    action.mutate(a, {
      onSuccess: (result) => {
        setDialog(null);
        if (a.kind === "sync") watch(a.realmId);
        const already = a.kind === "sync" && (result as { alreadyRunning?: boolean } | undefined)?.alreadyRunning;
        const text =
          a.kind === "archive" && a.date === null
            ? `${company.companyName} is back in the group.`
            : already
              ? `A sync of ${company.companyName} is already running.`
              : ACTION_TEXT[a.kind].done(company.companyName);
        setFeedback({ kind: "done", text });
      },
      onError: (error) => {
        setDialog(null);
        setFeedback({ kind: "actionFailed", text: `${ACTION_TEXT[a.kind].failed(company.companyName)}: ${error.message}` });
      },
    });

  const onCommand = (command: RowCommand, company: Company) => {
    switch (command) {
      case "reconnect":
        popup.open();
        return;
      case "disconnect":
      case "remove":
      case "archive":
        setDialog({ kind: command, company });
        return;
      case "unarchive":
        run({ kind: "archive", realmId: company.realmId, date: null }, company);
        return;
      case "setParent":
      case "sync":
        run({ kind: command, realmId: company.realmId }, company);
    }
  };

  const toggle = (realmId: string) =>
    setExpanded((prev) => {
      const out = new Set(prev);
      if (out.has(realmId)) out.delete(realmId);
      else out.add(realmId);
      return out;
    });

  const hasCompanies = list.length > 0;
  return (
    <Stack gap="lg" maw={1180}>
      <Group justify="space-between" align="flex-end" wrap="nowrap" gap="lg">
        <ScreenHeader
          title="Connected Companies"
          description="The QuickBooks Online companies in your group: one parent and its subsidiaries."
        />
        {hasCompanies && next === "complete" ? (
          <AdminGate reason={adminOnly}>
            <Button variant="default" leftSection={<IconPlugConnected size={18} aria-hidden />} onClick={popup.open} disabled={popup.connecting}>
              Connect a subsidiary
            </Button>
          </AdminGate>
        ) : null}
      </Group>

      {popup.connecting ? (
        <Alert color="ledger" radius="md" role="status" icon={<Loader size={16} aria-hidden />}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">Finish in the QuickBooks window: choose the company and click Connect.</Text>
            <Button size="compact-sm" variant="light" onClick={popup.open}>
              Show the QuickBooks window
            </Button>
          </Group>
        </Alert>
      ) : null}
      {feedback ? <FeedbackAlert feedback={feedback} onClose={() => setFeedback(null)} /> : null}
      {hasCompanies && calls.data ? <CallBudgetAlert group={calls.data.group} /> : null}

      {companies.isPending ? (
        <Skeleton height={160} radius="md" />
      ) : hasCompanies ? (
        <>
          <NextStepCard
            next={next}
            companies={list}
            connecting={popup.connecting}
            continuing={continueOnboarding.busy}
            onConnect={popup.open}
            onSetParent={(c) => run({ kind: "setParent", realmId: c.realmId }, c)}
            onContinue={() => continueOnboarding.go(2, "/setup/coa")}
            adminOnly={adminOnly}
          />
          <CompanyTable
            companies={list}
            status={status.data}
            expanded={expanded}
            watched={watched}
            busyRealm={busyRealm}
            onToggle={toggle}
            onCommand={onCommand}
            adminOnly={adminOnly}
            calls={calls.data?.companies}
          />
          {calls.data ? <GroupCallsLine group={calls.data.group} /> : null}
        </>
      ) : companies.isError ? (
        <LoadFailure title="Your companies could not be loaded." message={companies.error.message} onRetry={() => void companies.refetch()} />
      ) : (
        <NoCompanies onConnect={popup.open} connecting={popup.connecting} adminOnly={adminOnly} />
      )}

      <CompanyDialogs
        dialog={dialog}
        busy={action.isPending}
        onCancel={() => setDialog(null)}
        onDisconnect={(c) => run({ kind: "disconnect", realmId: c.realmId }, c)}
        onRemove={(c) => run({ kind: "remove", realmId: c.realmId }, c)}
        onArchive={(c, date) => run({ kind: "archive", realmId: c.realmId, date }, c)}
      />
    </Stack>
  );
}
