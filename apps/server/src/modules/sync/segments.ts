/**
 * Segments (issue 23): what each QuickBooks class and location (QuickBooks' Department) holds of
 * a company's profit and loss, month by month, and of its balance sheet at each month's end.
 *
 * QuickBooks' ProfitAndLoss summarized by Classes or Departments has one column per class for the
 * whole range asked, not per month; summarized by Month it has no class. So a sync asks, per chunk
 * of months (36), the ProfitAndLoss by Classes and by Departments (beside the chunk's own balance
 * sheet and P&L: which classes and locations have lines in it), then, for each of those, the
 * ProfitAndLoss filtered by it (`class=` / `department=`) and summarized by Month: 2 calls plus one
 * per class or location in use per chunk, whatever the number of months. Lines with no class (or no location)
 * need no call: they are the account's activity less its segments' (segments/service.ts).
 *
 * The balance sheet likewise: the chunk's BalanceSheet by Classes and by Departments (as at the
 * chunk's end) says which segments hold balances; each segment with P&L lines in the chunk or a
 * balance at its end is read with the BalanceSheet filtered by it and summarized by Month (its
 * closing balance at each month's end, kind "closing"): 2 more calls plus one per such segment
 * per chunk. A segment whose balances all return to zero inside a chunk with no P&L line of its
 * own is not read for that chunk: its earlier months' balances are then in No class (they still
 * add up to the company's line).
 *
 * The parent's classes GroupLedger posts under (own-books.ts: opening balances and runs under
 * each subsidiary's name, eliminations, group adjustments) are not segments and are not read.
 * A class is read by its own id; QuickBooks' report for a class that has sub-classes is taken as
 * the class's own lines (what the emulator answers; no recording shows a sub-class), so
 * sub-classes are segments of their own, named by their full name ("Retail:Online").
 */
import { and, eq, sql } from "drizzle-orm";
import type { NamedListItem, Report } from "@groupledger/qbo";
import type { Database } from "../../db/client.ts";
import { insertColumns } from "../../db/bulk-insert.ts";
import { segmentBalances, segmentSyncs } from "../../db/schema.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { monthlyAmounts } from "./balances.ts";
import { inChunk } from "./months.ts";

export type SegmentDimension = "class" | "location";

export interface SyncedSegment {
  readonly dimension: SegmentDimension;
  readonly id: string;
  readonly name: string;
}

/** Every class and location of the company, less the classes GroupLedger posts under (the parent's). */
export function segmentsOf(classes: readonly NamedListItem[], departments: readonly NamedListItem[], postedClassIds: readonly string[]): SyncedSegment[] {
  const posted = new Set(postedClassIds);
  const named = (dimension: SegmentDimension, list: readonly NamedListItem[]) =>
    list.filter((k) => !posted.has(k.id) || dimension === "location").map((k) => ({ dimension, id: k.id, name: (k.fullyQualifiedName || k.name).trim() }));
  return [...named("class", classes), ...named("location", departments)];
}

/**
 * The segments of `dimension` with profit-and-loss lines in a chunk: the columns of the chunk's
 * ProfitAndLoss summarized by Classes (Departments), which has a column only for the values with
 * lines (ColKey the id, as the recorded by-customer report has; the title, the name, matched too).
 * Only these are read month by month: a company's unused or retired classes cost no call.
 */
export function segmentsInUse(report: Report | null, segments: readonly SyncedSegment[], dimension: SegmentDimension): SyncedSegment[] {
  if (report === null) return [];
  const keys = new Set(report.columns.filter((c) => c.money && c.key !== "total" && c.key !== "NotSpecified").flatMap((c) => [c.key ?? "", c.title.trim()]));
  return segments.filter((s) => s.dimension === dimension && (keys.has(s.id) || keys.has(s.name)));
}

/** The chunk's ProfitAndLoss request narrowed to one segment. */
export function segmentParams<P extends Record<string, string>>(params: P, segment: SyncedSegment): P & { class?: string; department?: string } {
  return segment.dimension === "class" ? { ...params, class: segment.id } : { ...params, department: segment.id };
}

export interface SegmentAmount {
  /** "activity": the month's P&L movement; "closing": the balance-sheet balance at the month's end. */
  readonly kind: "activity" | "closing";
  readonly dimension: SegmentDimension;
  readonly segmentId: string;
  readonly segmentName: string;
  readonly qboAccountId: string;
  /** "YYYY-MM" */
  readonly month: string;
  /** Debit positive. */
  readonly amountMinor: number;
}

/**
 * A segment's monthly P&L activity (from its filtered ProfitAndLoss) or month-end balances (from
 * its filtered BalanceSheet) per account, zero months left out.
 */
export function segmentAmounts(report: Report, segment: SyncedSegment, classificationOf: (qboAccountId: string) => string | undefined): SegmentAmount[] {
  if (report.name !== "ProfitAndLoss" && report.name !== "BalanceSheet") throw new Error(`a segment's amounts are read from a ProfitAndLoss or a BalanceSheet, not ${report.name}`);
  return monthlyAmounts(report, classificationOf)
    .amounts.filter((a) => a.amountMinor !== 0)
    .map((a) => ({ kind: a.kind, dimension: segment.dimension, segmentId: segment.id, segmentName: segment.name, qboAccountId: a.qboAccountId, month: a.month, amountMinor: a.amountMinor }));
}

/** Replaces the chunk's months of the company's segment balances in one transaction (as its monthly balances). */
export async function writeSegmentBalances(database: Database, realmId: string, chunk: { from: string; to: string }, amounts: readonly SegmentAmount[]): Promise<void> {
  await database.db.transaction(async (tx) => {
    await tx.delete(segmentBalances).where(and(eq(segmentBalances.realmId, realmId), inChunk(segmentBalances.month, chunk)));
    const rows = amounts.map((a) => ({ realmId, kind: a.kind, dimension: a.dimension, segmentId: a.segmentId, segmentName: a.segmentName, qboAccountId: a.qboAccountId, month: `${a.month}-01`, amountMinor: a.amountMinor }));
    await insertColumns(tx, segmentBalances, ["realmId", "kind", "dimension", "segmentId", "segmentName", "qboAccountId", "month", "amountMinor"], rows);
  });
}

/**
 * Gives the company's earlier months the names its classes and locations have now: a class renamed
 * in QuickBooks is one segment, and an incremental sync reads only the months that changed. One
 * statement (the segments as arrays, as insertColumns sends rows).
 */
export async function renameSegments(database: Database, realmId: string, segments: readonly SyncedSegment[]): Promise<void> {
  if (segments.length === 0) return;
  const dimensions = segments.map((s) => s.dimension);
  const ids = segments.map((s) => s.id);
  const names = segments.map((s) => s.name);
  await database.db.execute(sql`
    update ${segmentBalances} set segment_name = v.name
    from unnest(${sql.param(dimensions)}::text[], ${sql.param(ids)}::text[], ${sql.param(names)}::text[]) as v(dimension, id, name)
    where ${segmentBalances.realmId} = ${realmId} and ${segmentBalances.dimension} = v.dimension and ${segmentBalances.segmentId} = v.id and ${segmentBalances.segmentName} <> v.name`);
}

type Client = ReturnType<QboProvider["client"]>;
type ChunkParams = { start_date: string; end_date: string; accounting_method: "Accrual"; summarize_column_by: "Month" };

type SegmentColumns = readonly [Report | null, Report | null, Report | null, Report | null];

/**
 * The chunk's P&L by Classes and by Departments, and its balance sheet (at the chunk's end) by
 * Classes and by Departments (null for a dimension the company has none of): which segments have
 * lines.
 */
export function segmentColumnsRequests(client: Client, params: ChunkParams, segments: readonly SyncedSegment[]): [Promise<Report | null>, Promise<Report | null>, Promise<Report | null>, Promise<Report | null>] {
  const has = (dimension: SegmentDimension) => segments.some((s) => s.dimension === dimension);
  const by = (report: "ProfitAndLoss" | "BalanceSheet", dimension: SegmentDimension) =>
    has(dimension) ? client.report(report, { ...params, summarize_column_by: dimension === "class" ? "Classes" : "Departments" }) : Promise.resolve(null);
  return [by("ProfitAndLoss", "class"), by("ProfitAndLoss", "location"), by("BalanceSheet", "class"), by("BalanceSheet", "location")];
}

/**
 * Each segment in use in the chunk read month by month: its P&L when it has P&L lines in the chunk,
 * its balance sheet when it has those or a balance at the chunk's end.
 */
export async function readSegmentChunk(
  client: Client,
  params: ChunkParams,
  segments: readonly SyncedSegment[],
  [plByClass, plByLocation, bsByClass, bsByLocation]: SegmentColumns,
  classificationOf: (qboAccountId: string) => string | undefined,
): Promise<SegmentAmount[]> {
  const withActivity = [...segmentsInUse(plByClass, segments, "class"), ...segmentsInUse(plByLocation, segments, "location")];
  const withBalances = [...segmentsInUse(bsByClass, segments, "class"), ...segmentsInUse(bsByLocation, segments, "location")];
  const withEither = segments.filter((s) => withActivity.includes(s) || withBalances.includes(s));
  const reads = [
    ...withActivity.map((s) => [s, client.report("ProfitAndLoss", segmentParams(params, s))] as const),
    ...withEither.map((s) => [s, client.report("BalanceSheet", segmentParams(params, s))] as const),
  ];
  const reports = await Promise.all(reads.map(([, r]) => r));
  return reports.flatMap((r, k) => segmentAmounts(r, reads[k]![0], classificationOf));
}

/** The first month of the company's segments read so far (null: none yet, a company synced before segments existed). */
export async function segmentsReadFrom(database: Database, realmId: string): Promise<string | null> {
  const [row] = await database.db.select({ from: segmentSyncs.fromMonth }).from(segmentSyncs).where(eq(segmentSyncs.realmId, realmId)).limit(1);
  return row ? row.from.slice(0, 7) : null;
}

/** Records that the company's segments are read from `from` ("YYYY-MM"). */
export async function markSegmentsRead(database: Database, realmId: string, from: string): Promise<void> {
  await database.db
    .insert(segmentSyncs)
    .values({ realmId, fromMonth: `${from}-01` })
    .onConflictDoUpdate({ target: segmentSyncs.realmId, set: { fromMonth: sql`least(${segmentSyncs.fromMonth}, excluded.from_month)`, syncedAt: new Date() } });
}
