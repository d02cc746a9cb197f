import { Button, Group, Skeleton, Stack, Tabs, Text } from "@mantine/core";
import type { PostingSummary, PostOutcome, RunRequest } from "@groupledger/contract";
import { localMonthOf } from "@groupledger/domain";
import { IconChecklist } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { ApiError } from "../../../lib/http.ts";
import { useCompanyStatus } from "../../companies/api.ts";
import { useAccountNumbers } from "../../obal/useAccountNumbers.ts";
import { entriesToWarnAbout, rememberDontShow, type FoundEntry } from "../../duplicates/api.ts";
import { DuplicateEntryDialog } from "../../duplicates/components/DuplicateEntryDialog.tsx";
import { problemsOf } from "../../obal/model.ts";
import { ConsolidatedReports } from "../../reports/components/ConsolidatedReports.tsx";
import { ScreenHeader } from "../../screens/components/ScreenHeader.tsx";
import { runsApi, usePostings, usePostMutation, usePreview } from "../api.ts";
import { defaultChoice, lastPostedMonth, periodChoices, postBlockReason, requestPeriod, type PeriodKind } from "../model.ts";
import { EntryPreview } from "./EntryPreview.tsx";
import { PeriodForm } from "./PeriodForm.tsx";
import { PostedPeriods } from "./PostedPeriods.tsx";
import { RunsGate, type RunsSetup } from "./RunsGate.tsx";
import { useAdminOnly } from "../../team/permissions.tsx";
import { PostButton, PostedNotice, PostFailure } from "../../entries/components/PostControls.tsx";
import {} from "../../entries/components/QuickBooksLink.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

/** /consolidation/run "Single Period / Company" (SPEC §2): preview one subsidiary-period as its entry, post it, keep posted periods current. */
export function SingleRunPage() {
  // The group's reports sit beside the posting of its periods; ?tab=reports keeps the choice in the address.
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "reports" ? "reports" : "post";
  const choose = (value: string | null) =>
    setParams(
      (p) => {
        if (value === "reports") p.set("tab", "reports");
        else p.delete("tab");
        return p;
      },
      { replace: true },
    );
  return (
    <Stack gap="lg" maw={1280}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <ScreenHeader
          title="Single Period / Company"
          description="Preview one subsidiary's month, quarter or year as the journal entry that brings it into the parent's books, see how its CTA is made up, and post it to QuickBooks; and read the group's consolidated reports."
        />
        <Button component={Link} to="/consolidation/verify" variant="default" leftSection={<IconChecklist size={16} aria-hidden />} style={{ flex: "none" }}>
          Verify what is posted
        </Button>
      </Group>
      <Tabs value={tab} onChange={choose} keepMounted={false}>
        <Tabs.List aria-label="Single period views">
          <Tabs.Tab value="post">Post a period</Tabs.Tab>
          <Tabs.Tab value="reports">Consolidated reports</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="post" pt="md">
          <RunsGate>{(setup) => <SingleRun setup={setup} />}</RunsGate>
        </Tabs.Panel>
        <Tabs.Panel value="reports" pt="md">
          <ConsolidatedReports />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

interface Failure {
  title: string;
  message: string;
  problems: { code: string; message: string }[];
}

const failureOf = (title: string, e: unknown): Failure => ({
  title,
  message: e instanceof Error ? e.message : String(e),
  problems: e instanceof ApiError ? problemsOf(e.details) : [],
});

function SingleRun({ setup }: { setup: RunsSetup }) {
  const adminOnly = useAdminOnly("post to QuickBooks");
  const { parent, subsidiaries, openingMonth } = setup;
  const [realmId, setRealmId] = useState(subsidiaries[0]!.realmId);
  const [kind, setKind] = useState<PeriodKind>("month");
  const [pickedTo, setPickedTo] = useState<string | null>(null);
  const [requested, setRequested] = useState<RunRequest | null>(null);
  const [pendingDuplicate, setPendingDuplicate] = useState<{ request: RunRequest; entries: FoundEntry[] } | null>(null);
  const [checking, setChecking] = useState(false);
  const [outcome, setOutcome] = useState<PostOutcome | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [confirmReplace, setConfirmReplace] = useState<PostingSummary | null>(null);
  const [replaceError, setReplaceError] = useState<string | null>(null);
  const [replaced, setReplaced] = useState<PostOutcome | null>(null);

  const company = subsidiaries.find((c) => c.realmId === realmId) ?? subsidiaries[0]!;
  const postings = usePostings(company.realmId);
  const status = useCompanyStatus();
  const numbers = useAccountNumbers([{ realmId: parent.realmId, lastSyncedAt: status.data?.[parent.realmId]?.sync.lastSyncedAt ?? null }]).get(parent.realmId)!;
  const choices = periodChoices(kind, openingMonth, parent.fiscalYearStartMonth, localMonthOf(new Date()));
  const chosen = choices.find((c) => c.to === pickedTo) ?? (postings.data ? defaultChoice(choices, lastPostedMonth(postings.data)) : null);
  const preview = usePreview(requested);
  const post = usePostMutation(runsApi.post);
  const repost = usePostMutation(runsApi.repost);

  // Any change of what is asked clears the answer to the previous question.
  const resetResult = () => {
    setRequested(null);
    setOutcome(null);
    setFailure(null);
  };

  const requestNow = (): RunRequest | null => (chosen ? { realmId: company.realmId, period: requestPeriod(chosen) } : null);
  const onPreview = () => {
    const request = requestNow();
    if (!request) return;
    setOutcome(null);
    setFailure(null);
    // The period stays chosen: a post moves the default on, and the form must keep showing what is previewed.
    if (chosen) setPickedTo(chosen.to);
    const same = requested && JSON.stringify(requested) === JSON.stringify(request);
    if (same) void preview.refetch();
    else setRequested(request);
  };

  const doPost = (request: RunRequest) =>
    post.mutate(request, {
      onSuccess: (result) => {
        setPendingDuplicate(null);
        setOutcome(result);
      },
      // A 3200 also raises the error bar's re-authorization message (lib/http.ts); nothing was posted either way.
      onError: (e) => {
        setPendingDuplicate(null);
        setFailure(failureOf("It was not posted", e));
      },
    });

  const startPost = async () => {
    if (!requested) return;
    setFailure(null);
    setOutcome(null);
    setChecking(true);
    let entries: FoundEntry[];
    try {
      entries = await entriesToWarnAbout("consolidation", requested.realmId, { ...requested.period, period: requested.period.kind });
    } catch (e) {
      // Without the check a duplicate could go unnoticed: do not post blind.
      setFailure(failureOf("QuickBooks could not be checked for an existing entry, so nothing was posted", e));
      return;
    } finally {
      setChecking(false);
    }
    if (entries.length > 0) setPendingDuplicate({ request: requested, entries });
    else doPost(requested);
  };

  // What the last post or replacement said: beside the Post button when a preview shows, else on its own.
  const notices = (
    <>
      {outcome ? <OutcomeNotice outcome={outcome} onClose={() => setOutcome(null)} /> : null}
      {failure ? <PostFailure title={failure.title} message={failure.message} problems={failure.problems} onClose={() => setFailure(null)} /> : null}
    </>
  );
  const data = preview.data;
  const blocked = data ? postBlockReason(data, postings.data?.filter((p) => p.realmId === data.realmId)) : null;
  const showPreview = requested !== null && data !== undefined && data.realmId === requested.realmId;

  return (
    <>
      <PeriodForm
        parent={parent}
        subsidiaries={subsidiaries}
        openingMonth={openingMonth}
        realmId={company.realmId}
        kind={kind}
        choices={choices}
        chosen={chosen}
        loadingDefault={postings.isPending}
        busy={preview.isFetching}
        onRealm={(r) => {
          setRealmId(r);
          setPickedTo(null);
          resetResult();
        }}
        onKind={(k) => {
          setKind(k);
          setPickedTo(null);
          resetResult();
        }}
        onPeriod={(to) => {
          setPickedTo(to);
          resetResult();
        }}
        onPreview={onPreview}
      />

      {preview.error ? (
        <Failure title="The preview could not be made" message={preview.error.message} />
      ) : requested && preview.isPending ? (
        <Skeleton height={240} radius="md" />
      ) : showPreview ? (
        <EntryPreview
          preview={data}
          numbers={numbers}
          actions={
            <Stack gap="xs">
              <PostButton adminOnly={adminOnly} blocked={blocked} busy={preview.isFetching} loading={checking || post.isPending} onPost={() => void startPost()} />
              {notices}
            </Stack>
          }
        />
      ) : !requested ? (
        <Text size="sm" c="dimmed">
          Choose a subsidiary and a period, then Preview to see the entry before anything is posted.
        </Text>
      ) : null}

      {showPreview ? null : notices}

      <PostedPeriods
        companyName={company.companyName}
        currency={parent.homeCurrency}
        numbers={numbers}
        postings={postings.data}
        loading={postings.isPending}
        error={postings.error}
        confirming={confirmReplace}
        replacing={repost.isPending ? (repost.variables ?? null) : null}
        replaceError={replaceError}
        notice={replaced ? <OutcomeNotice outcome={replaced} replaced onClose={() => setReplaced(null)} /> : null}
        onAskReplace={(p) => {
          setReplaceError(null);
          setReplaced(null);
          setConfirmReplace(p);
        }}
        onCancelReplace={() => setConfirmReplace(null)}
        onReplace={(p) =>
          repost.mutate(p.id, {
            onSuccess: (result) => {
              setConfirmReplace(null);
              setReplaced(result);
            },
            onError: (e) => setReplaceError(e.message),
          })
        }
      />

      <DuplicateEntryDialog
        key={pendingDuplicate ? JSON.stringify(pendingDuplicate.request) : "none"}
        opened={pendingDuplicate !== null}
        what={`${company.companyName}'s consolidation of ${data?.period.label ?? "this period"}`}
        entries={pendingDuplicate?.entries ?? []}
        busy={post.isPending}
        onCancel={() => setPendingDuplicate(null)}
        onPost={(dontShowAgain) => {
          if (!pendingDuplicate) return;
          if (dontShowAgain) rememberDontShow("consolidation");
          doPost(pendingDuplicate.request);
        }}
      />
    </>
  );
}

/** After a post: the new entry with its QuickBooks link, or the one that was already there (nothing new posted). */
function OutcomeNotice({ outcome, replaced = false, onClose }: { outcome: PostOutcome; replaced?: boolean; onClose: () => void }) {
  const p = outcome.posting;
  const posted = outcome.outcome === "posted";
  return (
    <PostedNotice
      posted={posted}
      title={!posted ? "Already posted" : replaced ? "Replaced" : "Posted"}
      text={
        !posted
          ? `${p.companyName} ${p.period.label} was already posted as entry ${p.docNumber}; nothing new was posted.`
          : replaced
            ? `The old entry is deleted from the parent's QuickBooks, and ${p.companyName} ${p.period.label} is posted again from the books as they are now, as entry ${p.docNumber}.`
            : `${p.companyName} ${p.period.label} is posted to the parent's QuickBooks as entry ${p.docNumber}.`
      }
      entry={p}
      onClose={onClose}
    />
  );
}
