/**
 * Runs a parsed query against one company's ledger and builds Intuit's QueryResponse body.
 * Like QBO: inactive list entities (accounts, classes, departments, customers, vendors, budgets) are left
 * out unless the query mentions `Active`; pages
 * default to 100 rows and a MAXRESULTS above 1000 is refused (4001); an empty page is `{"QueryResponse":{}}`.
 */
import type { Json } from "../entities.ts";
import {
  renderAccount,
  renderBudget,
  renderClass,
  renderCompanyCurrency,
  renderCompanyInfo,
  renderCustomer,
  renderDepartment,
  renderExchangeRate,
  renderPreferences,
  renderTransaction,
  renderVendor,
} from "../entities.ts";
import type { CompanyLedger, TransactionKind } from "../ledger.ts";
import { kindOf } from "../ledger.ts";
import { invalidQuery, maxResultsTooLarge } from "../qboFault.ts";
import type { Condition, Literal, Query } from "./parser.ts";

export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;

/** The live transactions of one kind, rendered (transactions share one id sequence, so Id order is creation order). */
function liveOf(ledger: CompanyLedger, kind: TransactionKind): Json[] {
  return ledger.entries.filter((e) => e.deletedTime === undefined && kindOf(e) === kind).map((e) => renderTransaction(ledger, e));
}

const SUPPORTED: Record<string, (ledger: CompanyLedger) => Json[]> = {
  Account: (l) => l.accounts.map((a) => renderAccount(l, a)),
  Class: (l) => l.classes.map(renderClass),
  Department: (l) => l.departments.map(renderDepartment),
  Customer: (l) => l.partiesOf("Customer").map((c) => renderCustomer(l, c)),
  Vendor: (l) => l.partiesOf("Vendor").map((v) => renderVendor(l, v)),
  JournalEntry: (l) => liveOf(l, "JournalEntry"),
  Bill: (l) => liveOf(l, "Bill"),
  BillPayment: (l) => liveOf(l, "BillPayment"),
  CompanyInfo: (l) => [renderCompanyInfo(l)],
  Preferences: (l) => [renderPreferences(l)],
  ExchangeRate: (l) => l.exchangeRates.map((r) => renderExchangeRate(r, true)),
  CompanyCurrency: (l) => l.currencies.map(renderCompanyCurrency),
  Budget: (l) => l.budgets.map((b) => renderBudget(l, b)),
};

/**
 * ExchangeRate rows as Intuit's query example answers them: `where sourcecurrencycode in ('EUR',
 * 'INR') and asofdate='2015-07-07'` gives each currency's rate in force on that date (INR's of
 * 2015-05-15 among them), so `AsOfDate = 'd'` selects, per currency, the latest rate on or before
 * d rather than rows dated d. Without it, each currency's latest rate (the GET's "today" when no
 * rate is dated later). Returns the rows and the conditions left to apply.
 */
function exchangeRatesAsOf(ledger: CompanyLedger, where: readonly Condition[]): { rows: Json[]; where: Condition[] } {
  const isAsOf = (c: Condition) => c.field.toLowerCase() === "asofdate" && c.kind === "compare" && c.op === "=";
  const asOf = where.find(isAsOf);
  const date = asOf?.kind === "compare" ? String(asOf.value) : "9999-12-31";
  const sources = [...new Set(ledger.exchangeRates.map((r) => r.source))];
  const rows = sources.flatMap((s) => {
    const r = ledger.exchangeRateAsOf(s, date);
    return r === undefined ? [] : [renderExchangeRate(r, true)];
  });
  return { rows, where: where.filter((c) => !isAsOf(c)) };
}

/** Entities QBO knows that this emulator keeps none of: queries on them are valid and empty. */
const EMPTY = [
  "Attachable", "CreditMemo", "Deposit", "Employee", "Estimate",
  "Invoice", "Item", "Payment", "PaymentMethod", "Purchase", "PurchaseOrder", "RefundReceipt", "SalesReceipt",
  "TaxAgency", "TaxCode", "TaxRate", "Term", "TimeActivity", "Transfer", "VendorCredit",
];

export function canonicalEntity(name: string): string | undefined {
  const lower = name.toLowerCase();
  return [...Object.keys(SUPPORTED), ...EMPTY].find((e) => e.toLowerCase() === lower);
}

export function entitiesOf(ledger: CompanyLedger, entity: string): Json[] {
  return SUPPORTED[entity]?.(ledger) ?? [];
}

function lookup(obj: Json, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    const rec = cur as Json;
    const key = Object.keys(rec).find((k) => k.toLowerCase() === part.toLowerCase());
    if (key === undefined) return undefined;
    cur = rec[key];
  }
  // A reference ({value, name}) compares by its id, as in `AccountRef = '35'`.
  if (cur !== null && typeof cur === "object" && "value" in (cur as Json)) return (cur as Json)["value"];
  return cur;
}

const NUMERIC = /^-?\d+(?:\.\d+)?$/;
const DATELIKE = /^\d{4}-\d{2}-\d{2}(?:T|$)/;

/** -1, 0, 1, or undefined when the two cannot be ordered. */
function compare(actual: unknown, literal: Literal): number | undefined {
  if (typeof actual === "boolean") {
    const l = typeof literal === "string" ? literal.toLowerCase() === "true" : literal === true;
    return actual === l ? 0 : actual ? 1 : -1;
  }
  if (typeof actual === "number" || (typeof actual === "string" && NUMERIC.test(actual) && (typeof literal === "number" || NUMERIC.test(String(literal))))) {
    const a = Number(actual);
    const b = Number(literal);
    return a === b ? 0 : a < b ? -1 : 1;
  }
  if (typeof actual === "string") {
    const l = String(literal);
    if (DATELIKE.test(actual) && DATELIKE.test(l) && (actual.includes("T") || l.includes("T"))) {
      const a = Date.parse(actual);
      const b = Date.parse(l);
      if (Number.isFinite(a) && Number.isFinite(b)) return a === b ? 0 : a < b ? -1 : 1;
    }
    const a = actual.toLowerCase();
    const b = l.toLowerCase();
    return a === b ? 0 : a < b ? -1 : 1;
  }
  return undefined;
}

function matches(entity: Json, c: Condition): boolean {
  const actual = lookup(entity, c.field);
  if (actual === undefined) return false;
  switch (c.kind) {
    case "compare": {
      const r = compare(actual, c.value);
      if (r === undefined) return false;
      switch (c.op) {
        case "=":
          return r === 0;
        case "!=":
          return r !== 0;
        case "<":
          return r < 0;
        case ">":
          return r > 0;
        case "<=":
          return r <= 0;
        case ">=":
          return r >= 0;
      }
      return false;
    }
    case "in":
      return c.values.some((v) => compare(actual, v) === 0);
    case "like": {
      const escaped = c.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%/g, ".*").replace(/_/g, ".");
      return new RegExp(`^${escaped}$`, "is").test(String(actual));
    }
  }
}

function knownFields(entities: readonly Json[]): Set<string> | undefined {
  const first = entities[0];
  if (first === undefined) return undefined;
  const known = new Set<string>();
  for (const e of entities) {
    for (const [k, v] of Object.entries(e)) {
      known.add(k.toLowerCase());
      if (v !== null && typeof v === "object" && !Array.isArray(v)) {
        for (const sub of Object.keys(v as Json)) known.add(`${k}.${sub}`.toLowerCase());
      }
    }
  }
  return known;
}

function checkField(known: Set<string> | undefined, field: string): void {
  if (known !== undefined && !known.has(field.toLowerCase())) {
    throw invalidQuery(`QueryValidationError: property '${field}' is not queryable`);
  }
}

/**
 * Without ORDERBY, QuickBooks lists names by name: vendors by DisplayName
 * (minimul-qbo_api/all__vendors_by_5__*, get__inactive_vendors__0: "PG&E" before "Pam Seitz", so
 * character by character, upper case first), customers by FullyQualifiedName
 * (all__customers__1: a job follows its parent). Other entities keep the order of their Ids.
 */
const DEFAULT_ORDER: Record<string, string> = { Customer: "FullyQualifiedName", Vendor: "DisplayName" };

function byNameThenId(a: Json, b: Json, field: string): number {
  const x = String(a[field] ?? "");
  const y = String(b[field] ?? "");
  if (x !== y) return x < y ? -1 : 1;
  return Number(a["Id"]) - Number(b["Id"]);
}

function order(a: Json, b: Json, query: Query, entity: string): number {
  const byName = DEFAULT_ORDER[entity];
  if (query.orderBy.length === 0 && byName !== undefined) return byNameThenId(a, b, byName);
  const keys = query.orderBy.length > 0 ? query.orderBy : [{ field: "Id", descending: false }];
  for (const k of keys) {
    const x = lookup(a, k.field);
    const y = lookup(b, k.field);
    let r = 0;
    if (x === undefined || y === undefined) r = x === y ? 0 : x === undefined ? -1 : 1;
    else r = compare(x, y as Literal) ?? 0;
    if (r !== 0) return k.descending ? -r : r;
  }
  return 0;
}

/** The `QueryResponse` object (without the envelope's `time`). */
export function executeQuery(ledger: CompanyLedger, query: Query): Json {
  const entity = canonicalEntity(query.entity);
  if (entity === undefined) throw invalidQuery(`QueryValidationError: invalid context declaration: ${query.entity}`);
  if (query.maxResults !== undefined && query.maxResults > MAX_PAGE) throw maxResultsTooLarge(query.maxResults);
  const all = entitiesOf(ledger, entity);
  const known = knownFields(all);
  for (const c of query.where) checkField(known, c.field);
  const asOf = entity === "ExchangeRate" ? exchangeRatesAsOf(ledger, query.where) : undefined;
  const candidates = asOf?.rows ?? all;
  const where = asOf?.where ?? query.where;
  for (const o of query.orderBy) checkField(known, o.field);
  if (query.select.kind === "fields") for (const f of query.select.fields) checkField(known, f);

  const mentionsActive = query.where.some((c) => c.field.toLowerCase() === "active");
  const rows = candidates
    .filter((e) => mentionsActive || e["Active"] === undefined || e["Active"] === true)
    .filter((e) => where.every((c) => matches(e, c)))
    .sort((a, b) => order(a, b, query, entity));

  if (query.select.kind === "count") return { totalCount: rows.length };

  const start = Math.max(1, query.startPosition ?? 1);
  if (query.maxResults !== undefined && query.maxResults < 1) {
    throw invalidQuery("QueryValidationError: MAXRESULTS must be a positive number");
  }
  const size = query.maxResults ?? DEFAULT_PAGE;
  let page = rows.slice(start - 1, start - 1 + size);
  if (page.length === 0) return {};
  const select = query.select;
  if (select.kind === "fields") {
    page = page.map((e) => {
      const out: Json = {};
      const wanted = new Set(select.fields.map((f) => f.toLowerCase()));
      for (const [k, v] of Object.entries(e)) {
        if (wanted.has(k.toLowerCase()) || k === "Id" || k === "SyncToken" || k === "domain") out[k] = v;
      }
      out["sparse"] = true;
      return out;
    });
  }
  return { [entity]: page, startPosition: start, maxResults: page.length };
}
