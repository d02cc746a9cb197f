import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { AccessTokens, REFRESH_SKEW_MS } from "./auth.ts";
import { systemClock, type Clock } from "./clock.ts";
import {
  accountSchema,
  companyInfoSchema,
  customerSchema,
  exchangeRateSchema,
  journalEntrySchema,
  namedListItemSchema,
  parseEntity,
  preferencesSchema,
  vendorSchema,
  type Account,
  type CompanyInfo,
  type CompanyPreferences,
  type Customer,
  type ExchangeRate,
  type JournalEntry,
  type NamedListItem,
  type PostingType,
  type Vendor,
} from "./entities.ts";
import { runBatches, runWriteBatch, rowsOf, type BatchItem, type BatchOutcome, type BatchResults } from "./batch.ts";
import { record, unexpectedResponse } from "./failures.ts";
import { MINOR_VERSION, QboTransport, type ApiRequest, type CallObserver } from "./http.ts";
import { RealmLimiter } from "./limiter.ts";
import { amountToJsonNumber, wireExponent } from "./money.ts";
import type { QboOAuth } from "./oauth.ts";
import { parseReport, type Report, type ReportName } from "./reports.ts";
import { DEFAULT_RETRY, type RetryOptions } from "./retry.ts";
import type { TokenSet, TokenStore } from "./tokens.ts";

/** QBO's page limit for queries. */
export const MAX_PAGE_SIZE = 1000;
/** Ids in one `Id IN (...)` query of `journalEntriesById`: short statements, 3,000 ids to a batch. */
const IDS_PER_QUERY = 100;
/** QBO rejects longer `requestid`s. */
export const MAX_REQUEST_ID_LENGTH = 50;
/** QBO's limit on a customer's or vendor's DisplayName. */
export const MAX_DISPLAY_NAME_LENGTH = 500;

export interface QboClientOptions {
  readonly realmId: string;
  readonly oauth: QboOAuth;
  readonly tokens: TokenStore;
  /** Defaults to the OAuth client's `apiBaseUrl`. */
  readonly apiBaseUrl?: string | undefined;
  readonly fetch?: typeof fetch | undefined;
  readonly clock?: Clock | undefined;
  readonly random?: (() => number) | undefined;
  /** Share one per realm per process (see LimiterPool); defaults to a private one with Intuit's limits. */
  readonly limiter?: RealmLimiter | undefined;
  readonly retry?: Partial<RetryOptions> | undefined;
  readonly minorVersion?: number | undefined;
  /** Rows per query page, at most 1000 (smaller only to exercise paging). */
  readonly pageSize?: number | undefined;
  /** Per HTTP attempt. */
  readonly timeoutMs?: number | undefined;
  readonly refreshSkewMs?: number | undefined;
  readonly onCall?: CallObserver | undefined;
}

export interface ReportParams {
  readonly start_date?: string | undefined;
  readonly end_date?: string | undefined;
  readonly accounting_method?: "Accrual" | "Cash" | undefined;
  readonly summarize_column_by?: "Total" | "Month" | "Quarter" | "Year" | "Week" | "Days" | "Classes" | "Departments" | "Customers" | "Vendors" | undefined;
  /** Only transactions (journal lines) naming this customer: an id, or ids separated by commas. BalanceSheet, ProfitAndLoss and others. */
  readonly customer?: string | undefined;
  /** Likewise for a vendor. */
  readonly vendor?: string | undefined;
  /** Only lines carrying one of these classes (ids, comma-separated). */
  readonly class?: string | undefined;
  readonly [param: string]: string | undefined;
}

/** A journal line's Name, as posted: a customer or vendor by id (`name` is only informative; QBO echoes the DisplayName). */
export interface NewJournalLineEntity {
  readonly type: "Customer" | "Vendor";
  readonly id: string;
  readonly name?: string | undefined;
}

export interface NewJournalLine {
  readonly postingType: PostingType;
  /** Positive minor units of the entry's currency. */
  readonly amount: number;
  readonly accountId: string;
  readonly description?: string | undefined;
  readonly classId?: string | undefined;
  readonly departmentId?: string | undefined;
  /**
   * The line's Name. QBO requires a customer on every Accounts Receivable line and a vendor on
   * every Accounts Payable line ("you must choose a customer/supplier in the Name field", 6000).
   */
  readonly entity?: NewJournalLineEntity | undefined;
}

export interface NewJournalEntry {
  /** YYYY-MM-DD. */
  readonly txnDate: string;
  /** ISO code of the amounts; sent as CurrencyRef and used to scale minor units. */
  readonly currency: string;
  readonly lines: readonly NewJournalLine[];
  readonly docNumber?: string | undefined;
  readonly privateNote?: string | undefined;
  /** Home-currency units per one unit of `currency`, decimal text; only for foreign-currency entries. */
  readonly exchangeRate?: string | undefined;
}

export interface NewAccount {
  /** 1..100 characters, no colon or double quote (QBO reserves them for sub-account paths). */
  readonly name: string;
  /** QBO AccountType: 'Equity', 'Bank', 'Expense', ... */
  readonly accountType: string;
  /** QBO AccountSubType (the detail type), e.g. 'AccumulatedAdjustment'; QBO picks a default when absent. */
  readonly accountSubType?: string | undefined;
  readonly acctNum?: string | undefined;
  /** At most 100 characters. */
  readonly description?: string | undefined;
}

/** QBO's limits on an account's Name and Description. */
export const MAX_ACCOUNT_NAME_LENGTH = 100;
export const MAX_ACCOUNT_DESCRIPTION_LENGTH = 100;

export interface ChangedRecord {
  readonly id: string;
  /** CDC reports deletions as `{ "status": "Deleted", "Id": ... }`. */
  readonly deleted: boolean;
  readonly record: Readonly<Record<string, unknown>>;
}

/** Changed records by entity name ('Account', 'JournalEntry', ...). */
export type ChangeSet = Readonly<Record<string, readonly ChangedRecord[]>>;

/** The Accounting API for one company (realm). */
export class QboClient {
  readonly realmId: string;
  /** The realm's access token source (its `refreshes` counts refreshes done by this client). */
  readonly accessTokens: AccessTokens;
  private readonly transport: QboTransport;
  private readonly pageSize: number;

  constructor(options: QboClientOptions) {
    const clock = options.clock ?? systemClock;
    const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw new RangeError(`pageSize must be 1..${MAX_PAGE_SIZE}`);
    // Intuit ignores every minorversion below 75 since 1 August 2025 and answers as 75 (Intuit
    // developer blog, 2025-01-21 "Changes to our Accounting API that may impact your application"):
    // a lower one would only claim a schema the answers no longer follow.
    const minorVersion = options.minorVersion ?? MINOR_VERSION;
    if (!Number.isInteger(minorVersion) || minorVersion < MINOR_VERSION) throw new RangeError(`minorVersion must be ${MINOR_VERSION} or more (Intuit's floor since August 2025)`);
    this.realmId = options.realmId;
    this.pageSize = pageSize;
    this.accessTokens = new AccessTokens(options.realmId, options.tokens, options.oauth, clock, options.refreshSkewMs ?? REFRESH_SKEW_MS);
    this.transport = new QboTransport({
      realmId: options.realmId,
      apiBaseUrl: options.apiBaseUrl ?? options.oauth.endpoints.apiBaseUrl,
      tokens: this.accessTokens,
      limiter: options.limiter ?? new RealmLimiter(undefined, clock),
      fetch: options.fetch ?? globalThis.fetch,
      clock,
      random: options.random ?? Math.random,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      minorVersion,
      timeoutMs: options.timeoutMs ?? 60_000,
      onCall: options.onCall,
    });
  }

  /** Any Accounting API call, for what the typed helpers do not cover. Returns the parsed JSON. */
  raw(request: ApiRequest): Promise<unknown> {
    return this.transport.send(request);
  }

  /**
   * Every row of a query, fetched page by page (STARTPOSITION/MAXRESULTS appended here, so the
   * statement must not have them) until a page comes back short.
   */
  async query<T = Record<string, unknown>>(statement: string, schema?: z.ZodType<T>): Promise<T[]> {
    if (/\b(STARTPOSITION|MAXRESULTS)\b/i.test(statement)) throw new Error("query() pages by itself: leave STARTPOSITION and MAXRESULTS out");
    if (/\bCOUNT\s*\(/i.test(statement)) throw new Error("use count() for SELECT COUNT(*)");
    const entity = /\bFROM\s+(\w+)/i.exec(statement)?.[1];
    if (entity === undefined) throw new Error(`not a query: ${statement}`);
    const all: T[] = [];
    for (let start = 1; ; start += this.pageSize) {
      const page = await this.queryPage(`${statement.trim()} STARTPOSITION ${start} MAXRESULTS ${this.pageSize}`, entity);
      for (const row of page) all.push(schema === undefined ? (row as T) : parseEntity(schema, row, entity));
      if (page.length < this.pageSize) return all;
    }
  }

  /** `SELECT COUNT(*) FROM <entity> [WHERE ...]` → totalCount. */
  async count(entity: string, where?: string): Promise<number> {
    const body = await this.transport.send({ method: "GET", path: "query", params: { query: `SELECT COUNT(*) FROM ${entity}${where === undefined ? "" : ` WHERE ${where}`}` } });
    const total = record(record(body, "query response")["QueryResponse"], "QueryResponse")["totalCount"];
    if (typeof total !== "number") throw unexpectedResponse("a COUNT query had no totalCount", JSON.stringify(body).slice(0, 200));
    return total;
  }

  async companyInfo(): Promise<CompanyInfo> {
    const body = await this.get(`companyinfo/${encodeURIComponent(this.realmId)}`);
    return parseEntity(companyInfoSchema, record(body, "companyinfo")["CompanyInfo"], "CompanyInfo");
  }

  async preferences(): Promise<CompanyPreferences> {
    const body = await this.get("preferences");
    return parseEntity(preferencesSchema, record(body, "preferences")["Preferences"], "Preferences");
  }

  /** The whole chart of accounts, inactive accounts included (they may hold history). */
  accounts(): Promise<Account[]> {
    return this.query("SELECT * FROM Account WHERE Active IN (true, false)", accountSchema);
  }

  classes(): Promise<NamedListItem[]> {
    return this.query("SELECT * FROM Class WHERE Active IN (true, false)", namedListItemSchema);
  }

  departments(): Promise<NamedListItem[]> {
    return this.query("SELECT * FROM Department WHERE Active IN (true, false)", namedListItemSchema);
  }

  /** Every customer, inactive ones included (they may still name lines of past periods). */
  customers(): Promise<Customer[]> {
    return this.query("SELECT * FROM Customer WHERE Active IN (true, false)", customerSchema);
  }

  /** Every vendor, inactive ones included. */
  vendors(): Promise<Vendor[]> {
    return this.query("SELECT * FROM Vendor WHERE Active IN (true, false)", vendorSchema);
  }

  /**
   * Creates a customer named `displayName`. The POST carries a requestid (the caller's, to make a
   * repeated call return the first result, else a fresh one that makes retries within this call
   * safe). A DisplayName used by any customer or vendor (QBO compares in any case, inactive names
   * included) is QBO's ValidationFault 6240, left to the caller to explain.
   */
  createCustomer(displayName: string, requestId?: string): Promise<Customer> {
    return this.createName("Customer", displayName, requestId);
  }

  /** Creates a vendor; see `createCustomer`. */
  createVendor(displayName: string, requestId?: string): Promise<Vendor> {
    return this.createName("Vendor", displayName, requestId);
  }

  /**
   * Creates an account. A fresh requestid makes the POST safe to retry within this call; a name
   * already in use (any case) is QBO's ValidationFault 6240, left to the caller to explain.
   */
  async createAccount(account: NewAccount): Promise<Account> {
    const body = accountBody(account);
    const answer = await this.transport.send({ method: "POST", path: "account", body, requestId: randomUUID() });
    return parseEntity(accountSchema, record(answer, "account")["Account"], "Account");
  }

  /** Creates a Class. A fresh requestid makes the POST safe to retry within this call. */
  async createClass(name: string, parentId?: string): Promise<NamedListItem> {
    const body = await this.transport.send({ method: "POST", path: "class", body: classBody(name, parentId), requestId: randomUUID() });
    return parseEntity(namedListItemSchema, record(body, "class")["Class"], "Class");
  }

  /**
   * Posts a journal entry. `requestId` (at most 50 characters, unique per company, derived from
   * what is being posted) makes it idempotent: a retry, or a second call with the same id,
   * returns the first result and never posts twice.
   */
  async createJournalEntry(entry: NewJournalEntry, requestId: string): Promise<JournalEntry> {
    validateRequestId(requestId);
    const body = await this.transport.send({ method: "POST", path: "journalentry", body: journalEntryBody(entry), requestId });
    return parseEntity(journalEntrySchema, record(body, "journalentry")["JournalEntry"], "JournalEntry");
  }

  /**
   * Posts up to 30 journal entries in ONE batch request under `requestId` (the caller's, recorded
   * before the call): each entry's outcome in order, the entry QuickBooks made or the Fault it
   * answered that entry with. The same entries sent again under the same requestid are answered
   * with QuickBooks' first answer, so a batch whose answer was lost is resent, never made twice.
   */
  createJournalEntries(entries: readonly NewJournalEntry[], requestId: string): Promise<BatchOutcome<JournalEntry>[]> {
    validateRequestId(requestId);
    return runWriteBatch(
      { send: (request) => this.transport.send(request), queryPage: (statement, entity) => this.queryPage(statement, entity) },
      entries.map((entry) => ({ operation: "create" as const, entity: "JournalEntry", body: journalEntryBody(entry), schema: journalEntrySchema })),
      requestId,
    );
  }

  /**
   * Queries and writes in QuickBooks' batch operation, 30 to a request (see batch.ts): each item's
   * outcome in order, its rows or entity parsed with its schema, or the Fault QuickBooks answered
   * that item with as a QboError classified like a call's. A failed item never fails the others.
   */
  batch<const Items extends readonly BatchItem[]>(items: Items): Promise<BatchResults<Items>> {
    return runBatches({ send: (request) => this.transport.send(request), queryPage: (statement, entity) => this.queryPage(statement, entity) }, items);
  }

  /**
   * The journal entries with these ids that QuickBooks holds, by id (a deleted or unknown one is
   * absent), read by `Id IN (...)` queries of up to 100 ids: one plain query for up to 100 ids, else
   * one batch per 3,000 — instead of one call per entry.
   */
  async journalEntriesById(ids: readonly string[]): Promise<Map<string, JournalEntry>> {
    const unique = [...new Set(ids)];
    for (const id of unique) if (!/^\d+$/.test(id)) throw new RangeError(`a journal entry id is a number (got ${JSON.stringify(id)})`);
    const statements: string[] = [];
    for (let i = 0; i < unique.length; i += IDS_PER_QUERY) {
      statements.push(`SELECT * FROM JournalEntry WHERE Id IN (${unique.slice(i, i + IDS_PER_QUERY).map((id) => `'${id}'`).join(", ")})`);
    }
    const found = new Map<string, JournalEntry>();
    if (statements.length === 0) return found;
    for (const outcome of await this.batch(statements.map((query) => ({ query, schema: journalEntrySchema })))) {
      if (!outcome.ok) throw outcome.error;
      for (const entry of outcome.value) found.set(entry.id, entry);
    }
    return found;
  }

  async readJournalEntry(id: string): Promise<JournalEntry> {
    const body = await this.get(`journalentry/${encodeURIComponent(id)}`);
    return parseEntity(journalEntrySchema, record(body, "journalentry")["JournalEntry"], "JournalEntry");
  }

  async deleteJournalEntry(id: string, syncToken: string): Promise<{ id: string; status: string }> {
    const body = await this.transport.send({
      method: "POST",
      path: "journalentry",
      params: { operation: "delete" },
      body: { Id: id, SyncToken: syncToken },
      requestId: randomUUID(),
    });
    const je = record(record(body, "journalentry delete")["JournalEntry"], "JournalEntry");
    if (typeof je["Id"] !== "string" || typeof je["status"] !== "string") throw unexpectedResponse("a delete answer had no Id or status", JSON.stringify(body).slice(0, 200));
    return { id: je["Id"], status: je["status"] };
  }

  /** Records of `entities` changed since `since` (QBO looks back at most 30 days). */
  async changeDataCapture(entities: readonly string[], since: Date | string): Promise<ChangeSet> {
    if (entities.length === 0) throw new RangeError("name at least one entity");
    const changedSince = typeof since === "string" ? since : since.toISOString();
    const body = await this.get("cdc", { entities: entities.join(","), changedSince });
    const responses = record(body, "cdc")["CDCResponse"];
    if (!Array.isArray(responses)) throw unexpectedResponse("a CDC answer had no CDCResponse", JSON.stringify(body).slice(0, 200));
    const result: Record<string, ChangedRecord[]> = {};
    for (const name of entities) result[canonical(name)] = [];
    for (const response of responses as unknown[]) {
      const queries = record(response, "CDCResponse item")["QueryResponse"];
      for (const qr of Array.isArray(queries) ? (queries as unknown[]) : []) {
        for (const [key, value] of Object.entries(record(qr, "CDC QueryResponse"))) {
          if (!Array.isArray(value)) continue; // startPosition, maxResults, totalCount
          const list = (result[key] ??= []);
          for (const item of value as unknown[]) {
            const r = record(item, key);
            if (typeof r["Id"] !== "string") throw unexpectedResponse(`a changed ${key} had no Id`, JSON.stringify(r).slice(0, 200));
            list.push({ id: r["Id"], deleted: r["status"] === "Deleted", record: r });
          }
        }
      }
    }
    return result;
  }

  /** QBO's rate for `currency` into the home currency on `asOf` (YYYY-MM-DD). */
  async exchangeRate(currency: string, asOf: string): Promise<ExchangeRate> {
    const body = await this.get("exchangerate", { sourcecurrencycode: currency, asofdate: asOf });
    return parseEntity(exchangeRateSchema, record(body, "exchangerate")["ExchangeRate"], "ExchangeRate");
  }

  async report(name: ReportName, params: ReportParams = {}): Promise<Report> {
    const defined: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) if (v !== undefined) defined[k] = v;
    return parseReport(await this.get(`reports/${name}`, defined));
  }

  private async createName(kind: "Customer" | "Vendor", displayName: string, requestId: string | undefined): Promise<Customer | Vendor> {
    const body = nameBody(displayName);
    if (requestId !== undefined) validateRequestId(requestId);
    const answer = await this.transport.send({ method: "POST", path: kind.toLowerCase(), body, requestId: requestId ?? randomUUID() });
    return parseEntity(kind === "Customer" ? customerSchema : vendorSchema, record(answer, kind.toLowerCase())[kind], kind);
  }

  private get(path: string, params?: Record<string, string>): Promise<unknown> {
    return this.transport.send({ method: "GET", path, params });
  }

  private async queryPage(statement: string, entity: string): Promise<unknown[]> {
    const body = await this.get("query", { query: statement });
    return rowsOf(record(body, "query response")["QueryResponse"], entity);
  }
}

/** Exchanges the consent code and stores the tokens: what the OAuth callback route does. */
export async function connectCompany(oauth: QboOAuth, store: TokenStore, realmId: string, code: string): Promise<TokenSet> {
  const tokens = await oauth.exchangeCode(code);
  await store.save(realmId, tokens);
  return tokens;
}

export function validateRequestId(requestId: string): void {
  if (requestId.length === 0 || requestId.length > MAX_REQUEST_ID_LENGTH) {
    throw new RangeError(`requestid must be 1..${MAX_REQUEST_ID_LENGTH} characters (got ${requestId.length})`);
  }
  // Visible ASCII only: it travels in a URL and is compared byte for byte by QBO.
  if (!/^[\x21-\x7e]+$/.test(requestId)) throw new RangeError("requestid must be visible ASCII characters (no spaces)");
}

/** The Account JSON QBO expects; refuses what QBO would refuse before anything is sent. */
export function accountBody(account: NewAccount): Record<string, unknown> {
  const name = account.name.trim();
  if (name === "" || name.length > MAX_ACCOUNT_NAME_LENGTH) throw new RangeError(`an account name must be 1..${MAX_ACCOUNT_NAME_LENGTH} characters`);
  if (/[:"]/.test(name)) throw new RangeError("an account name must not contain a colon (:) or a double quote (\")");
  if (account.accountType.trim() === "") throw new RangeError("an account needs an AccountType");
  const description = account.description?.trim();
  if (description !== undefined && description.length > MAX_ACCOUNT_DESCRIPTION_LENGTH) {
    throw new RangeError(`an account description must be at most ${MAX_ACCOUNT_DESCRIPTION_LENGTH} characters`);
  }
  return {
    Name: name,
    AccountType: account.accountType,
    ...(account.accountSubType === undefined ? {} : { AccountSubType: account.accountSubType }),
    ...(account.acctNum === undefined ? {} : { AcctNum: account.acctNum }),
    ...(description === undefined || description === "" ? {} : { Description: description }),
  };
}

/** The Class JSON for a create (a sub-class under `parentId`); refuses a name QBO would refuse before anything is sent. */
export function classBody(name: string, parentId?: string): Record<string, unknown> {
  if (name.trim() === "" || name.length > 100) throw new RangeError("a class name must be 1..100 characters");
  return { Name: name, ...(parentId === undefined ? {} : { SubClass: true, ParentRef: { value: parentId } }) };
}

/** The Customer/Vendor JSON for a create; refuses a name QBO would refuse before anything is sent. */
export function nameBody(displayName: string): Record<string, unknown> {
  const name = displayName.trim();
  if (name === "" || name.length > MAX_DISPLAY_NAME_LENGTH) throw new RangeError(`a customer or vendor name must be 1..${MAX_DISPLAY_NAME_LENGTH} characters`);
  if (name.includes(":")) throw new RangeError("a customer or vendor name must not contain a colon (:)");
  return { DisplayName: name };
}

/** The JournalEntry JSON QBO expects, from minor units; refuses an entry that does not balance. */
export function journalEntryBody(entry: NewJournalEntry): Record<string, unknown> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(entry.txnDate)) throw new RangeError(`txnDate must be YYYY-MM-DD (got ${entry.txnDate})`);
  if (entry.lines.length < 2) throw new RangeError("a journal entry needs at least two lines");
  const exponent = wireExponent(entry.currency);
  let debits = 0;
  let credits = 0;
  for (const line of entry.lines) {
    if (!Number.isSafeInteger(line.amount) || line.amount <= 0) throw new RangeError(`journal line amounts must be positive minor units (got ${line.amount})`);
    if (line.entity !== undefined && (line.entity.id.trim() === "" || (line.entity.type !== "Customer" && line.entity.type !== "Vendor"))) {
      throw new RangeError("a journal line's entity needs a type (Customer or Vendor) and an id");
    }
    if (line.postingType === "Debit") debits += line.amount;
    else credits += line.amount;
  }
  if (debits !== credits) throw new RangeError(`the journal entry does not balance: debits ${debits} ≠ credits ${credits} (minor units)`);
  return {
    TxnDate: entry.txnDate,
    ...(entry.docNumber === undefined ? {} : { DocNumber: entry.docNumber }),
    ...(entry.privateNote === undefined ? {} : { PrivateNote: entry.privateNote }),
    CurrencyRef: { value: entry.currency },
    ...(entry.exchangeRate === undefined ? {} : { ExchangeRate: Number(entry.exchangeRate) }),
    Line: entry.lines.map((line) => ({
      DetailType: "JournalEntryLineDetail",
      Amount: amountToJsonNumber(line.amount, exponent),
      ...(line.description === undefined ? {} : { Description: line.description }),
      // Intuit's order: PostingType, Entity, AccountRef, ClassRef, DepartmentRef.
      JournalEntryLineDetail: {
        PostingType: line.postingType,
        ...(line.entity === undefined
          ? {}
          : { Entity: { Type: line.entity.type, EntityRef: { value: line.entity.id, ...(line.entity.name === undefined ? {} : { name: line.entity.name }) } } }),
        AccountRef: { value: line.accountId },
        ...(line.classId === undefined ? {} : { ClassRef: { value: line.classId } }),
        ...(line.departmentId === undefined ? {} : { DepartmentRef: { value: line.departmentId } }),
      },
    })),
  };
}

function canonical(entity: string): string {
  return entity.charAt(0).toUpperCase() + entity.slice(1);
}
