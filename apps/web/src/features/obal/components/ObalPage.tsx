import { Alert, Button, Group, Paper, Skeleton, Text } from "@mantine/core";
import type { Company, ObalState, ObalTransition, ObalTrialBalance } from "@groupledger/contract";
import { obalConfigured } from "@groupledger/contract";
import { FINISH_ONBOARDING_PATCH } from "@groupledger/domain";
import { IconCircleCheck } from "@tabler/icons-react";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { ApiError } from "../../../lib/http.ts";
import { useAccount, usePatchAccount } from "../../account/api.ts";
import { useCompanies, useCompanyStatus } from "../../companies/api.ts";
import { Screen } from "../../screens/components/Screen.tsx";
import { DuplicateEntryDialog } from "../../duplicates/components/DuplicateEntryDialog.tsx";
import { entriesToWarnAbout, rememberDontShow, type FoundEntry } from "../../duplicates/api.ts";
import { OBAL_JE, obalApi, obalKeys, useObal, useObalMutation } from "../api.ts";
import { groupMissingRates } from "../missingRates.ts";
import { allowedActions, obalStatus, problemsOf, subsidiariesOf, type ObalAction } from "../model.ts";
import { useAccountNumbers } from "../useAccountNumbers.ts";
import { useObalStep } from "../useObalStep.ts";
import { FirstPostedModal, ResetDialog } from "./ObalDialogs.tsx";
import { MissingRatesCard } from "./MissingRatesCard.tsx";
import { LockedPeriod, LockForm } from "./PeriodCard.tsx";
import { SubsidiaryPanel, type PanelFeedback } from "./SubsidiaryPanel.tsx";
import { Failure, LoadFailure } from "../../screens/components/Failure.tsx";
import { Notice } from "../../screens/components/Notice.tsx";

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const FAILED_TITLES: Record<ObalAction, string> = {
  review: "It was not marked as reviewed",
  unreview: "It was not unreviewed",
  confirm: "It was not confirmed",
  unconfirm: "It was not unconfirmed",
  post: "It was not posted",
  markDeleted: "It was not marked as deleted",
};

/** Posting goes through the duplicate check first (SPEC §3 Journal entry query). */
interface PendingPost {
  company: Company;
  entries: FoundEntry[];
}

/** /setup/obal: lock the opening month, then review, confirm and post each subsidiary's translated trial balance (SPEC §2, §4). */
export function ObalPage() {
  const account = useAccount();
  const companies = useCompanies();
  const obal = useObal();
  const patchAccount = usePatchAccount();
  const queryClient = useQueryClient();
  const state = obal.data;
  const list = companies.data ?? [];
  const parent = list.find((c) => c.parent && c.archivedAt === null) ?? null;
  const subs = subsidiariesOf(list);
  const locked = state ? obalConfigured(state) && state.naturalYear !== null && state.naturalMonth !== null : false;

  const tbs = useQueries({
    queries: subs.map((c) => ({
      queryKey: obalKeys.trialBalance(c.realmId, state?.naturalYear ?? null, state?.naturalMonth ?? null),
      queryFn: ({ signal }: { signal: AbortSignal }) => obalApi.trialBalance(c.realmId, signal),
      enabled: locked,
    })),
  });
  const tbOf = (realmId: string): ObalTrialBalance | undefined => tbs[subs.findIndex((c) => c.realmId === realmId)]?.data;

  // The state keeps one link (the latest post); every other posted subsidiary's entry is looked up in QuickBooks.
  const posted = state ? subs.filter((c) => state.posted[c.realmId]) : [];
  const entryLookups = useQueries({
    queries: posted.map((c) => ({
      queryKey: [...obalKeys.all, "entries", c.realmId, state?.naturalYear ?? null, state?.naturalMonth ?? null],
      queryFn: () => obalApi.journalEntries(c.realmId, state?.naturalYear ?? 0, state?.naturalMonth ?? 0),
      enabled: locked,
      staleTime: 60_000,
    })),
  });
  const [lastPosted, setLastPosted] = useState<string | null>(null);
  const entryUrl = (realmId: string): string | null => {
    if (realmId === lastPosted && state?.trialBalanceJournalEntryUrl) return state.trialBalanceJournalEntryUrl;
    const found = entryLookups[posted.findIndex((c) => c.realmId === realmId)]?.data?.entries[0]?.url;
    return found ?? null;
  };
  /** The linked entry's number and date, when QuickBooks has answered for that very entry. */
  const entryLabel = (realmId: string): string | null => {
    const url = entryUrl(realmId);
    const e = entryLookups[posted.findIndex((c) => c.realmId === realmId)]?.data?.entries.find((x) => x.url === url);
    return e ? `Entry ${e.docNumber ?? e.id} dated ${e.txnDate}` : null;
  };

  // Account numbers label the trial balances: the parent's always, a subsidiary's once it is opened.
  const status = useCompanyStatus();
  const syncedAt = (realmId: string) => status.data?.[realmId]?.sync.lastSyncedAt ?? null;

  const lock = useObalMutation(obalApi.lock, { periodChanges: true });
  const reset = useObalMutation(() => obalApi.reset(), { periodChanges: true });
  const transition = useObalMutation(({ action, realmId }: { action: ObalTransition; realmId: string }) => obalApi.transition(action, realmId));
  const post = useObalMutation((realmId: string) => obalApi.post(realmId));
  const markDeleted = useObalMutation((realmId: string) => obalApi.markDeleted(realmId));

  const [resetOpen, setResetOpen] = useState(false);
  const [expanded, setExpanded] = useState<ReadonlySet<string> | null>(null);
  const [feedback, setFeedback] = useState<Record<string, PanelFeedback>>({});
  const [busy, setBusy] = useState<{ realmId: string; action: ObalAction } | null>(null);
  const [pendingPost, setPendingPost] = useState<PendingPost | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const step = useObalStep(
    account.data,
    state && subs.every((_, i) => tbs[i]?.data !== undefined)
      ? subs.map((c) => ({ eligible: tbOf(c.realmId)?.eligible ?? false, posted: state.posted[c.realmId] === true }))
      : undefined,
  );

  const fail = (realmId: string, action: ObalAction, e: unknown) => {
    const problems = e instanceof ApiError ? problemsOf(e.details) : [];
    setFeedback((f) => ({ ...f, [realmId]: { title: FAILED_TITLES[action], text: messageOf(e), problems } }));
  };
  const clearFeedback = (realmId: string) =>
    setFeedback((f) => {
      const { [realmId]: _gone, ...rest } = f;
      return rest;
    });

  const doPost = (company: Company) => {
    setBusy({ realmId: company.realmId, action: "post" });
    post.mutate(company.realmId, {
      onSuccess: () => {
        setLastPosted(company.realmId);
        setPendingPost(null);
        setNotice(`${company.companyName}'s opening balance is posted to the parent's QuickBooks.`);
      },
      // A 3200 also raises the error bar's re-authorization message (lib/http.ts); the state is unchanged either way.
      onError: (e) => {
        setPendingPost(null);
        fail(company.realmId, "post", e);
      },
      onSettled: () => setBusy(null),
    });
  };

  const startPost = async (company: Company) => {
    if (!state || state.naturalYear === null || state.naturalMonth === null) return;
    setBusy({ realmId: company.realmId, action: "post" });
    try {
      const entries = await entriesToWarnAbout(OBAL_JE, company.realmId, { year: state.naturalYear, month: state.naturalMonth });
      if (entries.length > 0) {
        // Posted meanwhile from another tab or by a colleague: the entry found is that post, not a duplicate to warn of.
        const fresh = await obalApi.get();
        setBusy(null);
        if (fresh.posted[company.realmId]) {
          queryClient.setQueryData(obalKeys.state, fresh);
          setNotice(`${company.companyName}'s opening balance was already posted, from another tab or by a colleague; nothing was posted twice.`);
          return;
        }
        setPendingPost({ company, entries });
        return;
      }
    } catch (e) {
      // Without the check a duplicate could go unnoticed: do not post blind.
      setBusy(null);
      fail(company.realmId, "post", e);
      return;
    }
    doPost(company);
  };

  const onAction = (company: Company, action: ObalAction) => {
    clearFeedback(company.realmId);
    setNotice(null);
    if (action === "post") {
      void startPost(company);
      return;
    }
    setBusy({ realmId: company.realmId, action });
    const options = { onError: (e: Error) => fail(company.realmId, action, e), onSettled: () => setBusy(null) };
    if (action === "markDeleted") markDeleted.mutate(company.realmId, options);
    else transition.mutate({ action, realmId: company.realmId }, options);
  };

  const statuses = subs.map((c, i) => (state && tbs[i]?.data ? obalStatus(state, c.realmId, tbs[i].data.eligible) : null));
  // Until the user opens or closes one, the first subsidiary with work left shows its trial balance.
  const firstOpen = subs.find((_, i) => statuses[i] !== null && statuses[i] !== "posted" && statuses[i] !== "notEligible")?.realmId ?? null;
  const isExpanded = (realmId: string) => (expanded ? expanded.has(realmId) : realmId === firstOpen);
  const toggle = (realmId: string) => {
    const current = new Set(subs.filter((c) => isExpanded(c.realmId)).map((c) => c.realmId));
    if (current.has(realmId)) current.delete(realmId);
    else current.add(realmId);
    setExpanded(current);
  };
  const charts = useAccountNumbers(
    locked && parent ? [parent, ...subs.filter((c) => isExpanded(c.realmId))].map((c) => ({ realmId: c.realmId, lastSyncedAt: syncedAt(c.realmId) })) : [],
  );
  const numbers = new Map(
    subs.map((c) => [c.realmId, { sub: charts.get(c.realmId) ?? new Map<string, string>(), parent: (parent && charts.get(parent.realmId)) || new Map<string, string>() }]),
  );

  // The rates the open subsidiaries lack, one line per currency above the panels (FOREX Management
  // stays locked in the menu until onboarding ends, and a year of months is 26 problems each).
  const missingRates = groupMissingRates(
    subs.flatMap((c, i) => {
      const data = tbs[i]?.data;
      return state && data?.eligible && !data.ok && !state.posted[c.realmId] ? [{ companyName: c.companyName, problems: data.problems }] : [];
    }),
  );

  const loading = account.isPending || companies.isPending || obal.isPending;
  const loadError = companies.error ?? obal.error;

  return (
    <Screen
      title="Opening Balance Sheet"
      description="Lock the month whose balances open the consolidation, then review, confirm and post each subsidiary's translated trial balance into the parent's QuickBooks."
      maw={1280}
    >
      {loading ? (
        <Skeleton height={160} radius="md" />
      ) : loadError ? (
        <LoadFailure title="The opening balances could not be loaded." message={loadError.message} />
      ) : !parent || subs.length === 0 ? (
        <Alert color="yellow" radius="md" title="A parent and a subsidiary are needed">
          Opening balances are posted from each subsidiary into the parent company.{" "}
          <Link to="/setup/companies">Connect them on Connected Companies</Link>.
        </Alert>
      ) : state ? (
        <>
          {step.offerFinish ? (
            <Paper withBorder radius="md" p="md" bg="white" component="section" aria-label="Next step">
              <Group justify="space-between" wrap="nowrap">
                <Group gap="sm" wrap="nowrap">
                  <IconCircleCheck size={22} color="var(--mantine-color-teal-7)" aria-hidden />
                  <Text size="sm">Every eligible subsidiary is posted. Step 3 is complete: you are ready to consolidate.</Text>
                </Group>
                <Button
                  onClick={() =>
                    patchAccount.mutate(FINISH_ONBOARDING_PATCH, {
                      // The guide's panel disappears and the consolidation menu opens: say so, or it looks like nothing happened.
                      onSuccess: () => setNotice("Onboarding is finished: the consolidation screens are now open in the menu."),
                    })
                  }
                  loading={patchAccount.isPending}
                >
                  Finish Onboarding
                </Button>
              </Group>
            </Paper>
          ) : null}
          {locked ? (
            <LockedPeriod state={state} onReset={() => setResetOpen(true)} />
          ) : (
            <LockForm parent={parent} busy={lock.isPending} error={lock.error ? lock.error.message : null} onLock={(r) => lock.mutate(r)} />
          )}
          <Notice message={notice} onDismiss={() => setNotice(null)} />
          {locked ? <MissingRatesCard groups={missingRates} onFetched={setNotice} /> : null}
          <Failure title="The opening balances were not reset" message={reset.error?.message} />
          {locked
            ? subs.map((c, i) => {
                const q = tbs[i];
                const status = statuses[i] ?? null;
                const data = q?.data;
                return (
                  <SubsidiaryPanel
                    key={c.realmId}
                    company={c}
                    status={status}
                    tb={{ data, isPending: q?.isPending ?? true, error: q?.error ?? null, refetch: () => void q?.refetch() }}
                    actions={status && data ? allowedActions(status, data.ok) : []}
                    busyAction={busy?.realmId === c.realmId ? busy.action : null}
                    entryUrl={entryUrl(c.realmId)}
                    entryLabel={entryLabel(c.realmId)}
                    numbers={numbers.get(c.realmId)}
                    expanded={isExpanded(c.realmId)}
                    feedback={feedback[c.realmId] ?? null}
                    onToggle={() => toggle(c.realmId)}
                    onAction={(a) => onAction(c, a)}
                    onDismissFeedback={() => clearFeedback(c.realmId)}
                  />
                );
              })
            : (
              <Text size="sm" c="dimmed">
                {subs.length} {subs.length === 1 ? "subsidiary" : "subsidiaries"} ({subs.map((c) => c.companyName).join(", ")}) will be listed
                here with their trial balances once the period is locked.
              </Text>
            )}
          <ResetDialog
            opened={resetOpen}
            postedNames={postedNames(state, list)}
            busy={reset.isPending}
            onCancel={() => setResetOpen(false)}
            onReset={() =>
              reset.mutate(undefined, {
                onSettled: () => setResetOpen(false),
                onSuccess: () => {
                  setFeedback({});
                  setExpanded(null);
                  setNotice(null);
                },
              })
            }
          />
          <DuplicateEntryDialog
            key={pendingPost?.company.realmId ?? "none"}
            opened={pendingPost !== null}
            what={`${pendingPost?.company.companyName ?? ""}'s opening balance at this month`}
            entries={pendingPost?.entries ?? []}
            busy={busy?.action === "post"}
            onCancel={() => setPendingPost(null)}
            onPost={(dontShowAgain) => {
              if (!pendingPost) return;
              if (dontShowAgain) rememberDontShow(OBAL_JE);
              doPost(pendingPost.company);
            }}
          />
          <FirstPostedModal opened={step.firstPostedModal} onContinue={step.closeModal} />
        </>
      ) : null}
    </Screen>
  );
}

/** Names of the companies whose entries are in QuickBooks: a reset leaves those entries there. */
function postedNames(state: ObalState, companies: readonly Company[]): string[] {
  return Object.keys(state.posted)
    .filter((r) => state.posted[r])
    .map((r) => companies.find((c) => c.realmId === r)?.companyName ?? r);
}
