import {
  getConsolidationPostings,
  getMultiRun,
  getMultiRuns,
  postConsolidationPost,
  postConsolidationPreview,
  postConsolidationRepost,
  postMultiRun,
  postMultiRunPause,
  postMultiRunResume,
  postReplaceChanged,
  type MultiRunRequest,
  type PostingSummary,
  type PostOutcome,
  type RunDetail,
  type RunRequest,
  type RunSummary,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";
import { isActive } from "./model.ts";

/** Everything under ["runs"]: a post or a run refreshes previews, posted periods and runs at once. */
export const runKeys = {
  all: ["runs"] as const,
  preview: (r: RunRequest) => ["runs", "preview", r.realmId, r.period.kind, r.period.year, r.period.month] as const,
  postings: (realmId: string | null) => ["runs", "postings", realmId ?? "all"] as const,
  list: ["runs", "multi"] as const,
  run: (runId: string) => ["runs", "multi", runId] as const,
};


export const runsApi = {
  preview: (body: RunRequest, signal?: AbortSignal) => call(postConsolidationPreview, { body }, { signal }),
  post: (body: RunRequest) => call(postConsolidationPost, { body }),
  postings: (realmId: string | null, signal?: AbortSignal) =>
    call(getConsolidationPostings, { query: realmId ? { realmId } : {} }, { signal }).then((r) => r.postings),
  repost: (postingId: string) => call(postConsolidationRepost, { params: { postingId }, body: { approve: true } }),
  start: (body: MultiRunRequest) => call(postMultiRun, { body }),
  /** "Replace all changed": exactly the entries reviewed, each with the differences' detectedAt the user saw. */
  replaceChanged: (entries: readonly PostingSummary[]) =>
    call(postReplaceChanged, { body: { approve: true, postings: entries.map((p) => ({ id: p.id, detectedAt: p.stale?.detectedAt ?? "" })) } }),
  list: (signal?: AbortSignal) => call(getMultiRuns, {}, { signal }).then((r) => r.runs),
  get: (runId: string, signal?: AbortSignal) => call(getMultiRun, { params: { runId } }, { signal }),
  pause: (runId: string) => call(postMultiRunPause, { params: { runId } }),
  resume: (runId: string) => call(postMultiRunResume, { params: { runId } }),
};

/** The preview of the period the user asked for; always fetched fresh, as the books and rates may have moved. */
export function usePreview(request: RunRequest | null) {
  return useQuery({
    queryKey: request ? runKeys.preview(request) : ["runs", "preview", "none"],
    queryFn: ({ signal }) => runsApi.preview(request!, signal),
    enabled: request !== null,
    staleTime: 0,
  });
}

/** The posted periods of one subsidiary, or of all of them (null). */
export function usePostings(realmId: string | null) {
  return useQuery({
    queryKey: runKeys.postings(realmId),
    queryFn: ({ signal }) => runsApi.postings(realmId, signal),
  });
}

/** Posting and re-posting change previews and posted periods: both are refetched. */
export function usePostMutation<V>(fn: (vars: V) => Promise<PostOutcome>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => client.invalidateQueries({ queryKey: runKeys.all }),
  });
}

export const POLL_MS = 1000;

/** The account's runs; followed while one of them is still moving. */
export function useRuns() {
  return useQuery({
    queryKey: runKeys.list,
    queryFn: ({ signal }) => runsApi.list(signal),
    refetchInterval: (q) => (q.state.data?.some((r) => isActive(r.status)) ? POLL_MS * 3 : false),
  });
}

/** One run with its items, polled every second while it runs (its progress bar and table follow it). */
export function useRun(runId: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: runId ? runKeys.run(runId) : ["runs", "multi", "none"],
    queryFn: async ({ signal }) => {
      const run = await runsApi.get(runId!, signal);
      // The list shows the same run's status: keep it in step without a second poll.
      client.setQueryData<RunSummary[]>(runKeys.list, (list) => list?.map((r) => (r.id === run.id ? { ...r, ...summaryOf(run) } : r)));
      return run;
    },
    enabled: runId !== null,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) ? POLL_MS : false),
  });
}

function summaryOf(run: RunDetail): RunSummary {
  const { items: _items, ...summary } = run;
  return summary;
}

/** Start, pause and resume answer with the run: it replaces the cached one and the list is refetched. */
export function useRunMutation<V>(fn: (vars: V) => Promise<RunDetail>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (run) => {
      client.setQueryData(runKeys.run(run.id), run);
      await client.invalidateQueries({ queryKey: runKeys.list, exact: true });
    },
  });
}
