import { isMonthText } from "../periods/month.ts";
import {
  classificationSchema,
  consolidationInputSchema,
  equityKindSchema,
  type AccountInput,
  type ConsolidationInput,
} from "./input-schema.ts";

/**
 * The fast path of parseConsolidationInput for large groups (docs/engine.md "Performance").
 *
 * Almost all of a large input is three repetitive parts: every entity's `accounts`, its `balances`
 * (1.8 million amounts for 50 subsidiaries × 1,000 accounts × 36 months) and every map's `lines`.
 * Walking them with zod costs about as much as the whole consolidation, so they are checked here
 * with plain loops, against exactly the rules of their zod schemas (input-schema.ts), and copied
 * into the shape zod would return (an account that already has that shape is the caller's object,
 * as an amounts array is). The rest of the input, small, goes through zod as always, with those
 * three parts stubbed out. When any check fails this returns undefined and the caller runs
 * the full zod walk, so every message (its text, its path, its order) is zod's own.
 */
export function parseConsolidationInputFast(json: unknown): ConsolidationInput | undefined {
  if (!isPlainRecord(json)) return undefined;
  const entities = json.entities;
  if (!Array.isArray(entities)) return undefined;
  const maps = json.maps;
  if (maps !== undefined && !Array.isArray(maps)) return undefined;

  const accounts: AccountInput[][] = [];
  const balances: SeriesOut[][] = [];
  const stubEntities: unknown[] = [];
  for (const e of entities as unknown[]) {
    if (!isPlainRecord(e)) return undefined;
    const a = cleanAccounts(e.accounts);
    const b = cleanBalances(e.balances);
    if (!a || !b) return undefined;
    accounts.push(a);
    balances.push(b);
    stubEntities.push({ ...e, accounts: [], balances: [] });
  }
  const lines: Record<string, string>[] = [];
  const stubMaps: unknown[] = [];
  for (const m of (maps ?? []) as unknown[]) {
    if (!isPlainRecord(m)) return undefined;
    const l = cleanLines(m.lines);
    if (!l) return undefined;
    lines.push(l);
    stubMaps.push({ ...m, lines: {} });
  }

  // jitless: zod would otherwise compile a parser for each object schema (new Function) on its first
  // use, which costs more than walking this small remainder of the input once.
  const parsed = consolidationInputSchema.safeParse({ ...json, entities: stubEntities, ...(maps === undefined ? {} : { maps: stubMaps }) }, { jitless: true });
  if (!parsed.success) return undefined;
  const out = parsed.data;
  out.entities.forEach((e, i) => {
    e.accounts = accounts[i]!;
    e.balances = balances[i]!;
  });
  out.maps.forEach((m, i) => {
    m.lines = lines[i]!;
  });
  return out;
}

interface SeriesOut {
  account: string;
  from: string;
  amounts: number[];
}

const CLASSIFICATIONS: ReadonlySet<unknown> = new Set(classificationSchema.options);
const EQUITY_KINDS: ReadonlySet<unknown> = new Set(equityKindSchema.options);

/**
 * A plain object (what JSON.parse makes): properties that zod's object and record schemas read
 * are then exactly its own ones, so copying and spreading them is faithful.
 */
function isPlainRecord(x: unknown): x is Record<string, unknown> {
  if (typeof x !== "object" || x === null) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

const isId = (x: unknown): x is string => typeof x === "string" && x.length > 0;

/**
 * Each item of an array, which must be a plain object, through `clean`; undefined when any is refused.
 * Only for the accounts: the balances have their own loop (cleanBalances), so that neither call site
 * is shared and V8 can inline the callback.
 */
function cleanEach<T>(list: unknown, clean: (item: Record<string, unknown>) => T | undefined): T[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out = new Array<T>(list.length);
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const cleaned = isPlainRecord(item) ? clean(item) : undefined;
    if (cleaned === undefined) return undefined;
    out[i] = cleaned;
  }
  return out;
}

const cleanAccounts = (list: unknown) => cleanEach(list, cleanAccount);

/**
 * balanceSeriesSchema for every series of an entity: account, from (a month), amounts (safe
 * integers, the caller's own array). Its own loop, with no callback, and no regex for a series that starts in the
 * same month as the one before, as nearly all do: it runs for each of a large group's 51,000 series.
 */
function cleanBalances(list: unknown): SeriesOut[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out = new Array<SeriesOut>(list.length);
  let checkedFrom = "";
  for (let i = 0; i < list.length; i++) {
    const s: unknown = list[i];
    if (!isPlainRecord(s)) return undefined;
    const { account, from, amounts } = s;
    if (!isId(account) || typeof from !== "string" || !Array.isArray(amounts)) return undefined;
    if (from !== checkedFrom) {
      if (!isMonthText(from)) return undefined;
      checkedFrom = from;
    }
    // Not copied (the parse contract, parseConsolidationInput): the engine copies them once, into its columns.
    if (!allSafeIntegers(amounts as unknown[])) return undefined;
    out[i] = { account, from, amounts: amounts as number[] };
  }
  return out;
}

/** The keys of accountSchema, in its order: zod's output has them in this order. */
const ACCOUNT_KEYS = ["id", "name", "classification", "equityKind", "monetary"] as const;

/**
 * The account's own keys are some of ACCOUNT_KEYS, in that order: then zod's copy would have the same
 * keys and values in the same order, and the caller's object is the parsed account (not copied: a
 * large group has 51,000; the parse contract, parseConsolidationInput). for…in visits exactly the
 * own keys of a plain object (isPlainRecord) in their order, unless Object.prototype has enumerable
 * keys, which are then refused here and the account copied.
 */
function onlySchemaKeys(a: Record<string, unknown>): boolean {
  let k = 0;
  for (const key in a) {
    while (k < ACCOUNT_KEYS.length && ACCOUNT_KEYS[k] !== key) k++;
    if (k === ACCOUNT_KEYS.length) return false;
    k++;
  }
  return true;
}

/** accountSchema: id, name, classification, equityKind (Equity accounts only, and required there), monetary. */
function cleanAccount(a: Record<string, unknown>): AccountInput | undefined {
  const { id, name, classification } = a;
  if (!isId(id) || typeof name !== "string" || !CLASSIFICATIONS.has(classification)) return undefined;
  const hasEquityKind = "equityKind" in a;
  const equityKind = a.equityKind;
  if (hasEquityKind && equityKind !== undefined && !EQUITY_KINDS.has(equityKind)) return undefined;
  const hasMonetary = "monetary" in a;
  const monetary = a.monetary;
  if (hasMonetary && monetary !== undefined && typeof monetary !== "boolean") return undefined;
  if ((classification === "Equity") !== Boolean(equityKind)) return undefined;
  if (onlySchemaKeys(a)) return a as AccountInput;
  const account = { id, name, classification } as AccountInput;
  if (hasEquityKind) account.equityKind = equityKind as AccountInput["equityKind"];
  if (hasMonetary) account.monetary = monetary as boolean | undefined;
  return account;
}

/** minorUnits for each amount: a number that is a safe integer. A small loop of its own, optimised after a few series. */
function allSafeIntegers(xs: readonly unknown[]): boolean {
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k];
    if (typeof x !== "number" || !Number.isSafeInteger(x)) return false;
  }
  return true;
}

/** A map's `lines`, z.record(z.string(), id): own enumerable string keys to non-empty strings. */
function cleanLines(lines: unknown): Record<string, string> | undefined {
  if (!isPlainRecord(lines) || Object.hasOwn(lines, "__proto__") || Object.getOwnPropertySymbols(lines).length > 0) return undefined;
  // for…in, not Object.values: no array of a thousand values, nor an iterator, made to be thrown
  // away. On a plain object it visits the own enumerable string keys (and any enumerable ones added
  // to Object.prototype, whose refusal only sends the input to zod's walk).
  for (const key in lines) if (!isId((lines as Record<string, unknown>)[key])) return undefined;
  // A copy of the own enumerable properties, as zod's record makes (it skips only __proto__). A
  // spread, not a loop of stores: a thousand stores into a new object make a thousand hidden classes.
  return { ...(lines as Record<string, string>) };
}
