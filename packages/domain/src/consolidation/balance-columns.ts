import { formatMonth, isMonthText, parseMonth } from "../periods/month.ts";
import type { InputIssue } from "./errors.ts";

/**
 * The columnar form of an entity's balances (docs/engine.md "Balances as columns"): for callers in
 * the same process (the server's engine threads), instead of `balances`, every series of the entity
 * in one typed array. A large group's 51,000 series of 36 numbers are then one array per entity, not
 * 51,000 objects and arrays to build, check and copy. Not JSON (a Float64Array): the JSON contract,
 * its zod schema and JSON Schema know only `balances`.
 *
 * Row r is account `accounts[r]`; its amount in month `from` + k is `amounts[r × months + k]`, local
 * minor units, debit positive, as a `balances` series with the same account, from and amounts.
 * Rows need not cover every account (an account without a row has no balances) nor every month.
 *
 * The engine reads `amounts` where it is and never writes it; no result refers to it, so changing it
 * after consolidating never changes a result, but changing it between the parse and `consolidate`
 * does (as with the `balances` amounts, parseConsolidationInput).
 */
export interface BalanceColumns {
  /** Month of column 0, YYYY-MM. */
  readonly from: string;
  /** Columns per row: the months from `from`. */
  readonly months: number;
  /** The account of each row; each account at most once. */
  readonly accounts: readonly string[];
  /** accounts.length × months safe integers, account-major. */
  readonly amounts: Float64Array;
}

const AMOUNT_MESSAGE = "must be a whole number of minor units (cents) within ±2^53";
/** Bad amounts named one by one, per entity; the rest are counted in one more issue. */
const AMOUNTS_NAMED = 10;

/**
 * Takes every entity's `balanceColumns` out of `json` for the parse: the input without them (each
 * such entity copied, with `balances: []` when it gave none, so the JSON parse sees an entity with
 * no series) and, by entity, the checked columns. Does not change `json`. Returns undefined when no
 * entity gives columns (nearly every JSON input: nothing is copied).
 */
export function takeBalanceColumns(json: unknown): { json: unknown; columns: (BalanceColumns | undefined)[]; issues: InputIssue[] } | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const entities = (json as { entities?: unknown }).entities;
  if (!Array.isArray(entities) || !entities.some((e) => typeof e === "object" && e !== null && (e as { balanceColumns?: unknown }).balanceColumns !== undefined)) return undefined;
  const issues: InputIssue[] = [];
  const columns: (BalanceColumns | undefined)[] = [];
  const stripped = entities.map((e: unknown, i) => {
    const given = typeof e === "object" && e !== null ? (e as { balanceColumns?: unknown }).balanceColumns : undefined;
    if (given === undefined) {
      columns.push(undefined);
      return e;
    }
    const { balanceColumns: _columns, ...rest } = e as Record<string, unknown>;
    const path = ["entities", i, "balanceColumns"];
    if (rest.balances !== undefined && !(Array.isArray(rest.balances) && rest.balances.length === 0)) {
      issues.push({ path: ["entities", i, "balances"], message: "give an entity's balances either as balances or as balanceColumns, not both" });
    }
    columns.push(checkBalanceColumns(given, path, issues));
    return { ...rest, balances: [] };
  });
  return { json: { ...(json as object), entities: stripped }, columns, issues };
}

/** The shape and every amount of one entity's columns; issues (with their paths) when refused. */
function checkBalanceColumns(x: unknown, path: readonly (string | number)[], issues: InputIssue[]): BalanceColumns | undefined {
  if (typeof x !== "object" || x === null || Array.isArray(x)) {
    issues.push({ path, message: "must be an object: { from, months, accounts, amounts }" });
    return undefined;
  }
  const { from, months, accounts, amounts } = x as Record<string, unknown>;
  const before = issues.length;
  if (typeof from !== "string" || !isMonthText(from)) issues.push({ path: [...path, "from"], message: "must be a month written YYYY-MM, e.g. 2024-01" });
  if (typeof months !== "number" || !Number.isSafeInteger(months) || months < 0) issues.push({ path: [...path, "months"], message: "must be a whole number of months, 0 or more" });
  if (!Array.isArray(accounts)) issues.push({ path: [...path, "accounts"], message: "must be an array of account ids" });
  else {
    for (let r = 0; r < accounts.length; r++) {
      const a: unknown = accounts[r];
      if (typeof a !== "string" || a.length === 0) issues.push({ path: [...path, "accounts", r], message: "must be a non-empty account id" });
    }
  }
  if (!(amounts instanceof Float64Array)) {
    issues.push({ path: [...path, "amounts"], message: "must be a Float64Array of accounts.length × months amounts, account-major" });
    return undefined;
  }
  if (issues.length > before) return undefined;
  const rows = (accounts as string[]).length;
  const n = months as number;
  if (amounts.length !== rows * n) {
    issues.push({ path: [...path, "amounts"], message: `holds ${amounts.length} amounts; ${rows} accounts × ${n} months need ${rows * n}` });
    return undefined;
  }
  const bad = firstNotSafeInteger(amounts, 0);
  if (bad < 0) return { from: from as string, months: n, accounts: accounts as string[], amounts };
  let named = 0;
  let more = 0;
  for (let k = bad; k >= 0; k = firstNotSafeInteger(amounts, k + 1)) {
    if (named < AMOUNTS_NAMED) {
      const account = (accounts as string[])[Math.floor(k / n)]!;
      issues.push({ path: [...path, "amounts", k], message: `${AMOUNT_MESSAGE} (account "${account}", ${formatMonth(parseMonth(from as string) + (k % n))}: ${amounts[k]})` });
      named++;
    } else more++;
  }
  if (more > 0) issues.push({ path: [...path, "amounts"], message: `and ${more} more amounts that are not whole numbers of minor units within ±2^53` });
  return undefined;
}

/**
 * The index of the first amount from `k` on that is not a safe integer (NaN, ±Infinity, a fraction,
 * beyond ±2^53 − 1), or −1. The one pass over every amount of the columns: a small loop of its
 * own, optimised after the first entity. NaN fails every comparison, ±Infinity the bounds.
 */
function firstNotSafeInteger(amounts: Float64Array, k: number): number {
  for (; k < amounts.length; k++) {
    const x = amounts[k]!;
    if (!(x <= Number.MAX_SAFE_INTEGER && x >= -Number.MAX_SAFE_INTEGER && Math.trunc(x) === x)) return k;
  }
  return -1;
}

/**
 * An entity's balance series whichever form they came in: `balances`, or one series per row of its
 * `balanceColumns` (copied). For the few readers of single series (statements); the engine reads
 * the columns as they are (prepare.ts).
 */
export function balanceSeriesOf(e: { readonly balances: readonly { account: string; from: string; amounts: number[] }[]; readonly balanceColumns?: BalanceColumns }): { account: string; from: string; amounts: number[] }[] {
  const c = e.balanceColumns;
  if (!c) return e.balances as { account: string; from: string; amounts: number[] }[];
  return c.accounts.map((account, r) => ({ account, from: c.from, amounts: Array.from(c.amounts.subarray(r * c.months, (r + 1) * c.months)) }));
}
