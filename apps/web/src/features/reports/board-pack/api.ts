import {
  getBoardPackJob,
  getBoardPackPdf,
  getBoardPackSchedule,
  postBoardPack,
  postBoardPackConfirm,
  postBoardPackConfirmLookup,
  postBoardPackDecline,
  postBoardPackRecipientResend,
  postBoardPackSend,
  postBoardPackUnsubscribe,
  postBoardPackUnsubscribeLookup,
  putBoardPackSchedule,
  type BoardPackJob,
  type BoardPackRequest,
  type BoardPackScheduleUpdate,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { saveBlob } from "../../../lib/download.ts";
import { call } from "../../../lib/http.ts";
import { fileNameFrom } from "../model.ts";

/** How often a generation's progress is asked for while it runs. */
export const BOARD_PACK_POLL_MS = 600;

const finished = (job: BoardPackJob | undefined) => job !== undefined && (job.state === "succeeded" || job.state === "failed" || job.state === "cancelled");

/**
 * The pack of the chosen period: starting it (the server answers the kept pack when nothing changed,
 * or the generation already under way), then its job until it ends, with its progress.
 */
export function useBoardPack(q: BoardPackRequest | null) {
  const started = useQuery({
    queryKey: ["reports", "board-pack", q?.from, q?.to, q?.compare],
    queryFn: () => call(postBoardPack, { body: { from: q!.from, to: q!.to, compare: q!.compare } }),
    enabled: q !== null,
    staleTime: Infinity,
  });
  const jobId = started.data?.jobId;
  const job = useQuery({
    queryKey: ["reports", "board-pack-job", jobId],
    queryFn: ({ signal }) => call(getBoardPackJob, { params: { jobId: jobId! } }, { signal }),
    enabled: jobId !== undefined && !finished(started.data),
    initialData: started.data,
    refetchInterval: (query) => (finished(query.state.data) ? false : BOARD_PACK_POLL_MS),
  });
  return { started, job: finished(started.data) ? started.data : job.data, error: started.error ?? job.error };
}

/** The kept PDF, saved under the server's name. */
export async function downloadBoardPack(packId: string): Promise<string> {
  const { blob, disposition } = await call(getBoardPackPdf, { params: { packId } });
  const name = fileNameFrom(disposition, "board-pack.pdf");
  saveBlob(blob, name);
  return name;
}

const scheduleKey = ["reports", "board-pack-schedule"] as const;

export function useBoardPackSchedule() {
  return useQuery({ queryKey: scheduleKey, queryFn: ({ signal }) => call(getBoardPackSchedule, {}, { signal }) });
}

export function useSaveBoardPackSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BoardPackScheduleUpdate) => call(putBoardPackSchedule, { body }),
    onSuccess: (data) => client.setQueryData(scheduleKey, data),
  });
}

export function useSendBoardPack() {
  return useMutation({ mutationFn: (month: string) => call(postBoardPackSend, { body: { month } }) });
}

/** "Resend confirmation": a new link to a recipient awaiting confirmation; answers the schedule. */
export function useResendConfirmation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => call(postBoardPackRecipientResend, { body: { email } }),
    onSuccess: (data) => client.setQueryData(scheduleKey, data),
  });
}

/** The recipient's side (no session): the confirmation link's page and the unsubscribe link's page. */
export const boardPackLinkApi = {
  lookup: (token: string) => call(postBoardPackConfirmLookup, { body: { token } }),
  confirm: (token: string) => call(postBoardPackConfirm, { body: { token } }),
  decline: (token: string) => call(postBoardPackDecline, { body: { token } }),
  subscription: (token: string) => call(postBoardPackUnsubscribeLookup, { body: { token } }),
  unsubscribe: (token: string) => call(postBoardPackUnsubscribe, { body: { token } }),
};
