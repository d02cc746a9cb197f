import { SEGMENT_STATEMENTS, type SegmentDimension, type SegmentReport, type SegmentStatementKind } from "@groupledger/contract";

type Statement = NonNullable<SegmentReport["statement"]>;
type Amounts = Statement["netIncome"];
type BalanceSheet = NonNullable<SegmentReport["balanceSheet"]>;
type BalanceAmounts = BalanceSheet["totalAssets"];

/** A money column of the statement: one per segment, then the unallocated, eliminations, (other adjustments,) total. */
export interface SegmentColumnView {
  key: string;
  label: string;
  /** Who holds the segment, for its header's title: "Northwind Holdings Inc. (Wholesale), Northwind UK Ltd (wholesale)". */
  holders: string | null;
  pick: (a: Amounts) => number;
  kind: "segment" | "unallocated" | "eliminations" | "other" | "total";
}

export const DIMENSION_LABELS: Record<SegmentDimension, { one: string; none: string }> = {
  class: { one: "Class", none: "No class" },
  location: { one: "Location", none: "No location" },
};

type Segments = Statement["segments"];
const holdersOf = (seg: Segments[number]): string => seg.members.map((m) => (m.name.trim() === seg.name ? m.entityName : `${m.entityName} ("${m.name}")`)).join(", ");

/** One column per segment, in the statement's order, its header's title naming who holds it. */
function segmentHeads<A extends { segments: readonly number[] }>(segments: Segments) {
  return segments.map((seg, i) => ({ key: `segment:${seg.name}`, label: seg.name, holders: holdersOf(seg), pick: (a: A) => a.segments[i] ?? 0, kind: "segment" as const }));
}

export function segmentColumns(s: Statement, by: SegmentDimension): SegmentColumnView[] {
  const columns: SegmentColumnView[] = segmentHeads(s.segments);
  columns.push({ key: "unallocated", label: DIMENSION_LABELS[by].none, holders: null, pick: (a) => a.unallocated, kind: "unallocated" });
  columns.push({ key: "eliminations", label: "Eliminations", holders: null, pick: (a) => a.eliminations, kind: "eliminations" });
  if (s.hasOtherAdjustments) columns.push({ key: "other", label: "Other adjustments", holders: null, pick: (a) => a.otherAdjustments, kind: "other" });
  columns.push({ key: "total", label: "Consolidated", holders: null, pick: (a) => a.total, kind: "total" });
  return columns;
}

/** A money column of the balance sheet: one per segment, then the unallocated, eliminations, (group,) total. */
export interface BalanceColumnView extends Omit<SegmentColumnView, "pick" | "kind"> {
  pick: (a: BalanceAmounts) => number;
  kind: "segment" | "unallocated" | "eliminations" | "group" | "total";
}

export function balanceColumns(s: BalanceSheet, by: SegmentDimension): BalanceColumnView[] {
  const columns: BalanceColumnView[] = segmentHeads(s.segments);
  columns.push({ key: "unallocated", label: DIMENSION_LABELS[by].none, holders: null, pick: (a) => a.unallocated, kind: "unallocated" });
  columns.push({ key: "eliminations", label: "Eliminations", holders: null, pick: (a) => a.eliminations, kind: "eliminations" });
  if ([...s.assets, ...s.liabilities, ...s.equity].some((r) => r.group !== 0)) columns.push({ key: "group", label: "Group", holders: null, pick: (a) => a.group, kind: "group" });
  columns.push({ key: "total", label: "Consolidated", holders: null, pick: (a) => a.total, kind: "total" });
  return columns;
}

/** The segments held by more than one company: what matching by name joined. */
export function matchedSegments(s: Pick<Statement, "segments">): { name: string; companies: string }[] {
  return s.segments.filter((seg) => seg.members.length > 1).map((seg) => ({ name: seg.name, companies: holdersOf(seg) }));
}

/** The statement the address names (`segmentStatement`): the profit and loss by default. */
export function statementKindOf(params: URLSearchParams): SegmentStatementKind {
  const asked = params.get("segmentStatement");
  return (SEGMENT_STATEMENTS as readonly string[]).includes(asked ?? "") ? (asked as SegmentStatementKind) : "income";
}

type CashFlow = NonNullable<SegmentReport["cashFlow"]>;
type CashAmounts = CashFlow["netCashFlow"];

/** A money column of the cash flow or the changes in equity: one per segment, then the unallocated, eliminations, total. */
export interface CashColumnView extends Omit<SegmentColumnView, "pick" | "kind"> {
  pick: (a: CashAmounts) => number;
  kind: "segment" | "unallocated" | "eliminations" | "total";
}

export function cashColumns(s: Pick<CashFlow, "segments">, by: SegmentDimension): CashColumnView[] {
  const columns: CashColumnView[] = segmentHeads(s.segments);
  columns.push({ key: "unallocated", label: DIMENSION_LABELS[by].none, holders: null, pick: (a) => a.unallocated, kind: "unallocated" });
  columns.push({ key: "eliminations", label: "Eliminations", holders: null, pick: (a) => a.eliminations, kind: "eliminations" });
  columns.push({ key: "total", label: "Consolidated", holders: null, pick: (a) => a.total, kind: "total" });
  return columns;
}

/** The dimension the address names (`segmentBy`), class by default. */
export function dimensionOf(params: URLSearchParams): SegmentDimension {
  return params.get("segmentBy") === "location" ? "location" : "class";
}
