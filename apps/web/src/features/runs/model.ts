import { MAX_RUN_ITEMS, replacementOrder, type PostingSummary, type RunDetail, type RunPeriod, type RunPreview, type RunSummary } from "@groupledger/contract";
import { fiscalYearRange, fiscalQuarterRange, fiscalYearOf, formatAmount, formatMonth, isMonthText, monthCount, monthParts, parseMonth, resolvePostingPeriod, shiftMonth } from "@groupledger/domain";
import { monthTextLabel } from "../obal/model.ts";

/** "Mar 2026". */
export function shortMonth(month: string): string {
  const { year, month: m } = monthParts(month);
  return new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(year, m - 1, 1)));
}

/** "March 2026" (obal's month label: text that is not a month is shown as it came). */
export const longMonth = (month: string): string => monthTextLabel(month);

export type PeriodKind = RunPeriod["kind"];
export const PERIOD_KINDS: readonly { value: PeriodKind; label: string }[] = [
  { value: "month", label: "Month" },
  { value: "quarter", label: "Quarter" },
  { value: "year", label: "Year" },
];

/** One period the user can pick: named, as the server does, by its kind and last calendar month. */
export interface PeriodChoice {
  kind: PeriodKind;
  /** The last month, "YYYY-MM": the Select's value and the month the entry is dated. */
  to: string;
  from: string;
  /** "2026-03", "FY2026 Q1", "FY2026": the server's label. */
  label: string;
  /** Its months are not all over yet (it ends in or after the current month). */
  inProgress: boolean;
}

/**
 * The periods of a kind that can be consolidated, oldest first: they start after the opening month
 * (the opening balances hold everything up to it, and the server refuses the rest) and end no
 * later than the period that contains `today` (so the month being closed can be picked). Quarters
 * and years are the parent's fiscal ones.
 */
export function periodChoices(kind: PeriodKind, openingMonth: string, fiscalYearStartMonth: number, today: string): PeriodChoice[] {
  const first = parseMonth(openingMonth) + 1;
  const current = parseMonth(today);
  const ends: number[] = [];
  if (kind === "month") {
    for (let m = first; m <= current; m++) ends.push(m);
  } else {
    for (let fy = fiscalYearOf(first, fiscalYearStartMonth); fy <= fiscalYearOf(current, fiscalYearStartMonth); fy++) {
      if (kind === "year") ends.push(fiscalYearRange(fy, fiscalYearStartMonth).to);
      else for (let q = 1; q <= 4; q++) ends.push(fiscalQuarterRange(fy, q, fiscalYearStartMonth).to);
    }
  }
  const out: PeriodChoice[] = [];
  for (const end of ends) {
    const { year, month } = monthParts(formatMonth(end));
    const p = resolvePostingPeriod(kind, year, month, fiscalYearStartMonth);
    if (parseMonth(p.from) < first || parseMonth(p.from) > current) continue;
    out.push({ kind, to: p.to, from: p.from, label: p.label, inProgress: parseMonth(p.to) >= current });
  }
  return out;
}

/** What a choice reads as in the picker: "FY2026 Q1 · Jan 2026 – Mar 2026", "(in progress)" when it has not ended. */
export function choiceLabel(c: PeriodChoice): string {
  const span = c.kind === "month" ? longMonth(c.to) : `${c.label} · ${shortMonth(c.from)} – ${shortMonth(c.to)}`;
  return c.inProgress ? `${span} (in progress)` : span;
}

/** The month up to which a subsidiary's entries are posted: the latest month of any live posting, or null. */
export function lastPostedMonth(postings: readonly PostingSummary[]): string | null {
  let last: string | null = null;
  for (const p of postings) if (p.status === "posted" && (last === null || p.period.to > last)) last = p.period.to;
  return last;
}

/**
 * The period offered first: the first one that starts after everything posted so far (or after
 * the opening month), as an accountant closes month after month; the latest one when all are done.
 */
export function defaultChoice(choices: readonly PeriodChoice[], lastPosted: string | null): PeriodChoice | null {
  if (choices.length === 0) return null;
  const after = lastPosted ?? "";
  return choices.find((c) => c.from > after) ?? choices[choices.length - 1]!;
}

export const requestPeriod = (c: Pick<PeriodChoice, "kind" | "to">): RunPeriod => ({ kind: c.kind, ...monthParts(c.to) });

/**
 * Why Post is not offered for this preview, in words; null when it may be posted. `postings` are
 * the subsidiary's posted periods: a quarter or year overlapping a posted month would post that
 * month twice, which the server refuses; the screen says so before anyone clicks.
 */
export function postBlockReason(preview: RunPreview, postings: readonly PostingSummary[] = []): string | null {
  if (preview.posted) return `Already posted: ${preview.posted.docNumber} on ${preview.posted.postedAt.slice(0, 10)}${preview.posted.postedBy ? ` by ${preview.posted.postedBy}` : ""}.`;
  const { from, to } = preview.period;
  const overlap = postings.filter((p) => p.status === "posted" && p.period.from <= to && p.period.to >= from && !(p.period.from === from && p.period.to === to));
  if (overlap.length > 0) {
    return `${overlap.map((p) => p.period.label).sort().join(", ")} ${overlap.length === 1 ? "is" : "are"} already posted inside ${preview.period.label}; post the remaining months on their own.`;
  }
  if (!preview.ok || !preview.entry) return "Fix the problems listed above, then preview again.";
  if (preview.entry.lines.length === 0) return `${preview.companyName} has no activity in ${preview.period.label}: there is nothing to post.`;
  if (preview.entry.totalDebit !== preview.entry.totalCredit) return "The entry does not balance; it cannot be posted.";
  if (!ctaAddsUp(preview)) return "The CTA explanation does not add up to the CTA line; contact support before posting.";
  return null;
}

type CtaMonth = NonNullable<RunPreview["cta"]>["months"][number];
export const CTA_PARTS = ["openingNetAssets", "netIncome", "dividends", "equityMovements", "rounding"] as const;
export type CtaPart = (typeof CTA_PARTS)[number];

/** Each part of the CTA change: a short column name, and how it is worked out, in the order the parts add up. */
export const CTA_PART_LABELS: Record<CtaPart, { short: string; formula: string }> = {
  openingNetAssets: { short: "Opening net assets", formula: "opening net assets × (closing rate − previous closing rate)" },
  netIncome: { short: "Net income", formula: "net income × (closing rate − average rate)" },
  dividends: { short: "Dividends", formula: "dividends × (closing rate − rate when declared)" },
  equityMovements: { short: "Equity movements", formula: "other equity movements × (closing rate − historical rate)" },
  rounding: { short: "Rounding", formula: "the rounding of each translated line to the cent" },
};

/** The parts of a month (or of the total) add up to its change: the explanation is only shown as proof when they do. */
export const partsAddUp = (m: Pick<CtaMonth, CtaPart | "change">): boolean => CTA_PARTS.reduce((s, k) => s + m[k], 0) === m.change;

/** The CTA line of the entry, credit positive (the explanation's sign); 0 when the entry has none. */
export function ctaLineAmount(preview: RunPreview): number {
  if (!preview.cta || !preview.entry) return 0;
  const line = preview.entry.lines.find((l) => l.account === preview.cta!.account);
  return line ? line.credit - line.debit : 0;
}

/**
 * The explanation proves the CTA line only when every month's parts add up to its change, the
 * months to the total, and the total to the line in the entry.
 */
export function ctaAddsUp(preview: RunPreview): boolean {
  const cta = preview.cta;
  if (!cta) return true;
  const months = cta.months.reduce((s, m) => s + m.change, 0);
  return cta.months.every(partsAddUp) && partsAddUp(cta.total) && months === cta.total.change && cta.total.change === cta.change && cta.change === ctaLineAmount(preview);
}

// --- Multi Period / Company ---------------------------------------------------------------

export type RunStatus = RunSummary["status"];
export type ItemStatus = RunDetail["items"][number]["status"];

/** The run is still moving: the screen follows it. */
export const isActive = (status: RunStatus): boolean => status === "queued" || status === "running" || status === "pausing";

export const RUN_STATUS: Record<RunStatus, { label: string; color: string }> = {
  queued: { label: "Queued", color: "gray" },
  running: { label: "Running", color: "blue" },
  pausing: { label: "Pausing", color: "yellow" },
  paused: { label: "Paused", color: "yellow" },
  succeeded: { label: "Finished", color: "teal" },
  finished_with_failures: { label: "Finished with failures", color: "orange" },
  failed: { label: "Stopped", color: "red" },
};

export const ITEM_STATUS: Record<ItemStatus, { label: string; color: string }> = {
  pending: { label: "Waiting", color: "gray" },
  posted: { label: "Posted", color: "teal" },
  skipped: { label: "Skipped", color: "yellow" },
  failed: { label: "Failed", color: "red" },
};

export const canPause = (status: RunStatus): boolean => status === "queued" || status === "running";
/** The server resumes a paused run, and a stopped one (the items it could not reach are tried again). */
export const canResume = (status: RunStatus): boolean => status === "paused" || status === "failed";

export const doneCount = (counts: RunSummary["counts"]): number => counts.total - counts.pending;

/** The run's items month by month, in the order they are posted. */
export function itemsByMonth(items: RunDetail["items"]): { month: string; items: RunDetail["items"] }[] {
  const groups = new Map<string, RunDetail["items"]>();
  for (const item of [...items].sort((a, b) => a.seq - b.seq)) {
    const list = groups.get(item.month) ?? [];
    list.push(item);
    groups.set(item.month, list);
  }
  return [...groups].map(([month, list]) => ({ month, items: list }));
}

/** An item skipped because the same entry was already posted (the server's words), rather than held back by a failure. */
export const skippedAsDuplicate = (item: Pick<RunDetail["items"][number], "status" | "message">): boolean =>
  item.status === "skipped" && /^Already posted\b/.test(item.message ?? "");

/** The result of a finished run in one sentence. */
export function summaryText(run: RunDetail): string {
  const duplicates = run.items.filter(skippedAsDuplicate).length;
  const heldBack = run.counts.skipped - duplicates;
  const parts = [`${run.counts.posted} ${run.kind === "replace" ? "replaced" : "posted"}`];
  if (duplicates > 0) parts.push(`${duplicates} skipped as already posted`);
  if (heldBack > 0) parts.push(`${heldBack} not posted after an earlier failure`);
  parts.push(`${run.counts.failed} failed`);
  return `${parts.join(", ")}.`;
}

export interface RunForm {
  realmIds: string[];
  from: string;
  to: string;
}

/** What is wrong with a run request before it is sent, in the server's terms; null when it can start. */
export function runFormProblem(form: RunForm, openingMonth: string): string | null {
  if (form.realmIds.length === 0) return "Choose at least one subsidiary.";
  if (form.to < form.from) return `The run ends (${form.to}) before it starts (${form.from}).`;
  if (form.from <= openingMonth) return `Start after the opening month ${openingMonth}: the opening balances already hold it.`;
  const count = monthCount(form.from, form.to) * form.realmIds.length;
  if (count > MAX_RUN_ITEMS) return `${count} entries is more than one run posts (${MAX_RUN_ITEMS}); choose fewer months or companies.`;
  return null;
}

/** How many entries a run posts: months × subsidiaries. */
export const runSize = (form: RunForm): number => (form.to < form.from ? 0 : monthCount(form.from, form.to) * form.realmIds.length);

/**
 * The run a link asks for (?realmIds=a,b&from=YYYY-MM&to=YYYY-MM, as Verify's "months not posted"
 * sends): the group's subsidiaries it names and its months, or null when it asks for nothing this
 * screen can offer (no known subsidiary, months outside the opening month to today).
 */
export function runFormFromSearch(params: URLSearchParams, realmIds: readonly string[], openingMonth: string, today: string): RunForm | null {
  const asked = (params.get("realmIds") ?? "").split(",").filter((r) => realmIds.includes(r));
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  if (asked.length === 0 || !isMonthText(from) || !isMonthText(to)) return null;
  if (from <= openingMonth || to < from || to > today) return null;
  return { realmIds: realmIds.filter((r) => asked.includes(r)), from, to };
}

/**
 * A credit-positive amount (the CTA explanation's sign) as an accountant reads it: "$1,234.56 Cr"
 * raises the CTA (a credit on its line), "$1,234.56 Dr" lowers it.
 */
export function creditText(creditPositive: number, currency: string): string {
  if (creditPositive === 0) return formatAmount(0, currency);
  return `${formatAmount(Math.abs(creditPositive), currency)} ${creditPositive > 0 ? "Cr" : "Dr"}`;
}

/**
 * The months a new run offers: from the first month some chosen subsidiary has not posted yet
 * (after the opening month when none has), to the last month that has ended; never ending before
 * it starts. Months already posted are skipped by the run as duplicates, so starting early is safe.
 */
export function defaultRunRange(realmIds: readonly string[], postings: readonly PostingSummary[], openingMonth: string, today: string): { from: string; to: string } {
  const next = realmIds.map((r) => shiftMonth(lastPostedMonth(postings.filter((p) => p.realmId === r)) ?? openingMonth, 1));
  const earliest = next.length > 0 ? next.reduce((a, b) => (a < b ? a : b)) : shiftMonth(openingMonth, 1);
  const from = earliest > today ? today : earliest;
  const lastEnded = shiftMonth(today, -1);
  return { from, to: lastEnded < from ? from : lastEnded };
}

/** The posted entries whose books changed since, in the order "Replace all changed" replaces them (the server's order). */
export function changedEntries(postings: readonly PostingSummary[]): PostingSummary[] {
  const changed = postings.filter((p) => p.status === "posted" && p.stale !== null);
  const names = new Map(changed.map((p) => [p.realmId, p.companyName]));
  return replacementOrder(
    changed.map((p) => ({ posting: p, realmId: p.realmId, periodFrom: p.period.from, periodTo: p.period.to })),
    (realmId) => names.get(realmId) ?? realmId,
  ).map((e) => e.posting);
}
