import { Skeleton } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { Screen } from "../../screens/components/Screen.tsx";
import { runKeys, runsApi, usePostings, useRun, useRunMutation, useRuns } from "../api.ts";
import { localMonthOf } from "@groupledger/domain";
import { defaultRunRange, isActive, runFormFromSearch, type RunForm as RunFormValue } from "../model.ts";
import { useCompanyStatus } from "../../companies/api.ts";
import { useAccountNumbers } from "../../obal/useAccountNumbers.ts";
import { ChangedEntries } from "./ChangedEntries.tsx";
import { RecentRuns } from "./RecentRuns.tsx";
import { RunForm } from "./RunForm.tsx";
import { RunProgress } from "./RunProgress.tsx";
import { RunsGate, type RunsSetup } from "./RunsGate.tsx";

/** /multipleconsolidation/run "Multi Period / Company" (SPEC §2): post a range of months for several subsidiaries as one background run. */
export function MultiRunPage() {
  return (
    <Screen
      title="Multi Period / Company"
      description="Post a range of months for several subsidiaries in one run. It works in the background, month by month; follow it here, pause and resume it, and see every entry it posted."
      maw={1280}
    >
      <RunsGate>{(setup) => <MultiRun setup={setup} />}</RunsGate>
    </Screen>
  );
}

function MultiRun({ setup }: { setup: RunsSetup }) {
  const { parent, subsidiaries, openingMonth } = setup;
  const client = useQueryClient();
  const today = localMonthOf(new Date());
  const runs = useRuns();
  const postings = usePostings(null);
  // A link may ask for a run (Verify's months not posted): the form opens on it.
  const [params] = useSearchParams();
  const [form, setForm] = useState<RunFormValue | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  // Reopening the screen follows the run still going (or paused), else shows how the latest one ended;
  // the run shown stays shown once it ends.
  const ongoing = runs.data?.find((r) => isActive(r.status) || r.status === "paused") ?? runs.data?.[0] ?? null;
  useEffect(() => {
    if (selected === null && ongoing) setSelected(ongoing.id);
  }, [selected, ongoing]);
  const shownId = selected ?? ongoing?.id ?? null;
  const run = useRun(shownId);
  const start = useRunMutation(runsApi.start);
  const replaceChanged = useRunMutation(runsApi.replaceChanged);
  const status = useCompanyStatus();
  const numbers = useAccountNumbers([{ realmId: parent.realmId, lastSyncedAt: status.data?.[parent.realmId]?.sync.lastSyncedAt ?? null }]).get(parent.realmId)!;
  const pause = useRunMutation(runsApi.pause);
  const resume = useRunMutation(runsApi.resume);

  // When the shown run stops moving, what it posted shows in the subsidiaries' posted periods.
  const wasActive = useRef(false);
  const runStatus = run.data?.status;
  useEffect(() => {
    const active = runStatus !== undefined && isActive(runStatus);
    if (wasActive.current && !active) void client.invalidateQueries({ queryKey: ["runs", "postings"] });
    wasActive.current = active;
  }, [runStatus, client]);

  if (runs.isPending || postings.isPending) return <Skeleton height={200} radius="md" />;

  const allRealms = subsidiaries.map((c) => c.realmId);
  const value = form ?? runFormFromSearch(params, allRealms, openingMonth, today) ?? { realmIds: allRealms, ...defaultRunRange(allRealms, postings.data ?? [], openingMonth, today) };
  const activeRun = runs.data?.find((r) => isActive(r.status));
  const busyReason = activeRun ? "A run is in progress for this account; pause it or wait for it to finish before starting another." : null;

  return (
    <>
      <ChangedEntries
        postings={postings.data ?? []}
        currency={parent.homeCurrency}
        numbers={numbers}
        busyReason={busyReason}
        starting={replaceChanged.isPending}
        error={replaceChanged.error?.message ?? null}
        onReplaceAll={(entries, done) =>
          replaceChanged.mutate(entries, {
            onSuccess: (created) => {
              done(created);
              setSelected(created.id);
              setActionError(null);
              void client.invalidateQueries({ queryKey: ["runs", "postings"] });
            },
          })
        }
      />
      <RunForm
        subsidiaries={subsidiaries}
        openingMonth={openingMonth}
        today={today}
        value={value}
        onChange={setForm}
        busyReason={busyReason}
        starting={start.isPending}
        error={start.error?.message ?? null}
        onStart={() =>
          // In the screen's order, whatever order they were ticked in: the run posts them in this order each month.
          start.mutate({ ...value, realmIds: allRealms.filter((r) => value.realmIds.includes(r)) }, {
            onSuccess: (created) => {
              setSelected(created.id);
              setActionError(null);
            },
          })
        }
      />
      {shownId ? (
        <RunProgress
          run={run.data}
          loading={run.isPending}
          error={run.error}
          busy={pause.isPending ? "pause" : resume.isPending ? "resume" : null}
          actionError={actionError}
          onPause={() => pause.mutate(shownId, { onSuccess: () => setActionError(null), onError: (e) => setActionError(e.message) })}
          onResume={() => resume.mutate(shownId, { onSuccess: () => setActionError(null), onError: (e) => setActionError(e.message) })}
        />
      ) : null}
      <RecentRuns
        runs={runs.data ?? []}
        selected={shownId}
        onOpen={(id) => {
          setSelected(id);
          setActionError(null);
          void client.invalidateQueries({ queryKey: runKeys.run(id) });
        }}
      />
    </>
  );
}
