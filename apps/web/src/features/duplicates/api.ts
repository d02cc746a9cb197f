import { getDontShowDuplicateJEModalFlag, getJournalEntries, postDontShowDuplicateJEModalFlag, type journalEntriesResponseSchema } from "@groupledger/contract";
import type { z } from "zod";
import { call } from "../../lib/http.ts";

export type JournalEntries = z.infer<typeof journalEntriesResponseSchema>;
export type FoundEntry = JournalEntries["entries"][number];

/** Which entry the duplicate check and its "don't show again" preference are about (SPEC §3: flag and JE). */
export type DuplicateKind = "obal" | "consolidation";

/** The period whose entry is looked for: its kind and its last calendar month, as the server names a period. */
export interface DuplicateQuery {
  year: number;
  month: number;
  period?: "month" | "quarter" | "year";
}

/** SPEC §7 GET /api/getJournalEntries and the duplicate-warning preference, shared by every screen that posts an entry. */
export const duplicatesApi = {
  find: (kind: DuplicateKind, realmId: string, q: DuplicateQuery) =>
    call(getJournalEntries, { params: { realmId }, query: { month: q.month, year: q.year, flag: kind, period: q.period } }),
  dontShow: (kind: DuplicateKind) => call(getDontShowDuplicateJEModalFlag, { query: { JE: kind } }).then((r) => r.isDontShowDuplicateJEModalChecked),
  setDontShow: (kind: DuplicateKind, checked: boolean) => call(postDontShowDuplicateJEModalFlag, { body: { JE: kind, checked } }),
};

/**
 * The check before a post: the entries already in the parent's QuickBooks under this entry's
 * number, or an empty list when there are none or the user asked not to be warned again. A failed
 * check throws: without it a duplicate could go unnoticed, so the caller must not post blind.
 */
export async function entriesToWarnAbout(kind: DuplicateKind, realmId: string, q: DuplicateQuery): Promise<FoundEntry[]> {
  const [found, dontShow] = await Promise.all([duplicatesApi.find(kind, realmId, q), duplicatesApi.dontShow(kind)]);
  return found.entriesFound && !dontShow ? found.entries : [];
}

/** Saving the preference is a convenience: failing to save it must not stop the post the user asked for. */
export function rememberDontShow(kind: DuplicateKind): void {
  void duplicatesApi.setDontShow(kind, true).catch(() => undefined);
}
