import type { CompanyAccount, CompanyMap } from "@groupledger/contract";
import { chartMappingProblem, type ChartAccount, formatAmount, inChartOrder } from "@groupledger/domain";
import type { Suggestions } from "./api.ts";
import { chartAccountLabel as accountLabel } from "@groupledger/domain";

/** A suggested parent account; `confident` ones are what "Accept all suggestions" takes, the others carry a `caution`. */
export type RowSuggestion = Suggestions[string][number];

/** One subsidiary account as the grid shows it, with its map, its problem and its best suggestion. */
export interface MappingRow {
  account: CompanyAccount;
  /** How many of its parent accounts (QuickBooks sub-accounts) are above it in the grid: its indent. */
  depth: number;
  /** The parent account Id it maps to, or null. */
  parentId: string | null;
  /** Why its current map cannot be used (GET /map `invalid`), or null. */
  invalidReason: string | null;
  suggestion: RowSuggestion | null;
}

/**
 * What "Accept all suggestions" does with the unmapped rows shown: maps those whose suggestion is
 * confident and leaves the others for review, each with its reason beside it.
 */
export function acceptAllSplit(rows: readonly MappingRow[]): { accept: MappingRow[]; review: MappingRow[] } {
  const open = rows.filter((r) => r.parentId === null && r.suggestion !== null);
  return { accept: open.filter((r) => r.suggestion?.confident === true), review: open.filter((r) => r.suggestion?.confident !== true) };
}

/** A synced account as the domain's chart rules read it (the one conversion: mapping, CTA, the e2e set-up). */
export function chartAccount(a: Pick<CompanyAccount, "Id" | "name" | "fullyQualifiedName" | "acctNum" | "classification" | "accountType" | "accountSubType" | "active">): ChartAccount {
  return {
    id: a.Id,
    name: a.name,
    acctNum: a.acctNum,
    classification: a.classification,
    accountType: a.accountType,
    accountSubType: a.accountSubType,
    active: a.active,
    fullyQualifiedName: a.fullyQualifiedName,
  };
}

/**
 * The grid's rows in chart order, each sub-account under its parent account (one level deeper).
 * Every account, sub-accounts included, has its own row and its own map: a parent's row maps the
 * parent's own amount only.
 */
export function buildRows(accounts: readonly CompanyAccount[], map: CompanyMap | undefined, suggestions: Suggestions | undefined): MappingRow[] {
  const invalid = new Map((map?.invalid ?? []).map((i) => [i.accountId, i.reason]));
  return inChartOrder(accounts).map(({ account, depth }) => {
    const parentId = map?.map[account.Id] ?? null;
    const top = parentId === null ? suggestions?.[account.Id]?.[0] : undefined;
    return { account, depth, parentId, invalidReason: invalid.get(account.Id) ?? null, suggestion: top ?? null };
  });
}

export type ClassificationFilter = "all" | string;

export interface RowFilters {
  unmappedOnly: boolean;
  classification: ClassificationFilter;
  accountType: string;
  search: string;
}

export const NO_FILTERS: RowFilters = { unmappedOnly: false, classification: "all", accountType: "all", search: "" };

/** The grid's filters: unmapped only, by classification and type, and a search over number, name and type. */
export function filterRows(rows: readonly MappingRow[], f: RowFilters): MappingRow[] {
  const needle = f.search.trim().toLowerCase();
  return rows.filter(({ account: a, parentId }) => {
    if (f.unmappedOnly && parentId !== null) return false;
    if (f.classification !== "all" && a.classification !== f.classification) return false;
    if (f.accountType !== "all" && a.accountType !== f.accountType) return false;
    if (!needle) return true;
    return `${a.acctNum ?? ""} ${a.name} ${a.fullyQualifiedName} ${a.accountType} ${a.accountSubType ?? ""}`.toLowerCase().includes(needle);
  });
}

export interface ParentOption {
  value: string;
  label: string;
  /** Why this parent account may not be chosen for the row's account; null when it may. */
  problem: string | null;
}

/** Number · full name, or the full name alone without numbers (one rule for every screen: the domain's). */
export { accountLabel };

/**
 * The parent accounts the picker offers for one subsidiary account. Only accounts of the same
 * classification are listed at all (an asset never lands on an expense, so listing the others
 * would only bury the right one); among them an inactive account or one of another equity nature
 * stays visible but disabled, with the reason from chartMappingProblem, so the user learns why the
 * account they expected cannot be used.
 */
export function parentOptions(sub: CompanyAccount, parents: readonly CompanyAccount[]): ParentOption[] {
  const s = chartAccount(sub);
  return parents
    .filter((p) => p.classification === sub.classification)
    .map((p) => ({ value: p.Id, label: accountLabel(p), problem: chartMappingProblem(s, chartAccount(p)) }))
    .sort((a, b) => Number(a.problem !== null) - Number(b.problem !== null) || a.label.localeCompare(b.label, "en", { numeric: true }));
}

/** A balance in minor units as money of its currency (credits in parentheses); "—" before any sync. */
export function formatBalance(amountMinor: number | null, currency: string, locale?: string): string {
  return amountMinor === null ? "—" : formatAmount(amountMinor, currency, { locale });
}

/** Field errors of a 400 invalid_mapping answer (details.fields, path "map.<subId>") keyed by subsidiary account Id. */
export function rowErrors(fieldErrors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fieldErrors)) if (path.startsWith("map.")) out[path.slice(4)] = message;
  return out;
}

/** SPEC §4 progress: mapped / to map over accounts that ever had a balance. */
export function progressOf(map: Pick<CompanyMap, "mapped" | "toMap"> | undefined): number {
  if (!map || map.toMap === 0) return map ? 100 : 0;
  return Math.min(100, Math.round((map.mapped / map.toMap) * 100));
}
