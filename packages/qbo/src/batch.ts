/**
 * QuickBooks' batch operation (`POST /v3/company/{realmId}/batch`): up to 30 queries and
 * creates/updates/deletes in one request, each answered under its `bId` with its result or its own
 * Fault (recordings minimul-qbo_api/batch__basic__0, Intuit's documented example). One batch is
 * one request against the realm's 500 a minute, but batches have their own limit (40 a minute),
 * which the limiter keeps.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { parseEntity } from "./entities.ts";
import { QboError, batchItemError } from "./errors.ts";
import { record, unexpectedResponse } from "./failures.ts";
import { BATCH_PATH, type ApiRequest } from "./http.ts";

/** Intuit: "The maximum number of payloads in a single batch request is 30." */
export const MAX_BATCH_ITEMS = 30;

/** QBO's page limit for queries (a batch query item answers one page). */
const PAGE = 1000;

/** A query: every row it selects, each parsed with `schema`. */
export interface BatchQueryItem<T> {
  readonly query: string;
  readonly schema: z.ZodType<T>;
}

export type BatchOperation = "create" | "update" | "delete";

/** A create, update or delete of one `entity` ('Customer', 'JournalEntry', ...), its answer parsed with `schema`. */
export interface BatchWriteItem<T> {
  readonly operation: BatchOperation;
  readonly entity: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly schema: z.ZodType<T>;
}

export type BatchItem<T = unknown> = BatchQueryItem<T> | BatchWriteItem<T>;

/** One item's outcome: its value, or the Fault QuickBooks answered it with (classified like a call's, `batchItemError`). */
export type BatchOutcome<V> = { readonly ok: true; readonly value: V } | { readonly ok: false; readonly error: QboError };

/** Outcomes in the items' order: a query's rows, or a write's entity. */
export type BatchResults<Items extends readonly BatchItem[]> = {
  -readonly [K in keyof Items]: Items[K] extends BatchQueryItem<infer T> ? BatchOutcome<T[]> : Items[K] extends BatchWriteItem<infer T> ? BatchOutcome<T> : never;
};

const isQuery = (item: BatchItem): item is BatchQueryItem<unknown> => "query" in item;

function entityOfQuery(statement: string): string {
  if (/\b(STARTPOSITION|MAXRESULTS)\b/i.test(statement)) throw new Error("batch queries page by themselves: leave STARTPOSITION and MAXRESULTS out");
  if (/\bCOUNT\s*\(/i.test(statement)) throw new Error("batch queries select rows, not COUNT(*)");
  const entity = /\bFROM\s+(\w+)/i.exec(statement)?.[1];
  if (entity === undefined) throw new Error(`not a query: ${statement}`);
  return entity;
}

/** The value under `name` in any case (QBO names a query's list after the entity's canonical spelling). */
function keyed(obj: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : obj[key];
}

/** A QueryResponse's rows (an empty page is `{}`). */
export function rowsOf(queryResponse: unknown, entity: string): unknown[] {
  const rows = keyed(record(queryResponse, "QueryResponse"), entity);
  if (rows === undefined) return [];
  if (!Array.isArray(rows)) throw unexpectedResponse(`QueryResponse.${entity} is not a list`, JSON.stringify(rows).slice(0, 200));
  return rows as unknown[];
}

/** What a batch needs of its client: sending a request, and the rest of a query whose first page came back full. */
export interface BatchTransport {
  send(request: ApiRequest): Promise<unknown>;
  queryPage(statement: string, entity: string): Promise<unknown[]>;
}

/** Every row of a query whose first page is `first` (read here when absent): pages follow while a page comes back full. */
async function allRows(transport: BatchTransport, statement: string, entity: string, first?: unknown[]): Promise<unknown[]> {
  const rows = first ?? (await transport.queryPage(`${statement} STARTPOSITION 1 MAXRESULTS ${PAGE}`, entity));
  for (let from = PAGE + 1, page = rows; page.length === PAGE; from += PAGE) {
    page = await transport.queryPage(`${statement} STARTPOSITION ${from} MAXRESULTS ${PAGE}`, entity);
    rows.push(...page);
  }
  return rows;
}

/** What a batch item's Fault can be; any other failure of a call fails a whole batch too. */
const ITEM_FAILURES: ReadonlySet<QboError["kind"]> = new Set(["validation", "not_found", "closed_period"]);

/**
 * A lone item goes as a call of its own (the same answer, without spending one of the realm's
 * 40 batches a minute): a query page by page, a write with a fresh requestid. A refusal of the
 * item itself is its outcome, as in a batch.
 */
async function runAlone(transport: BatchTransport, item: BatchItem, entity: string): Promise<BatchOutcome<unknown>> {
  try {
    if (isQuery(item)) {
      const rows = await allRows(transport, item.query.trim(), entity);
      return { ok: true, value: rows.map((row) => parseEntity(item.schema, row, entity)) };
    }
    const params = item.operation === "create" ? undefined : { operation: item.operation };
    const body = await transport.send({ method: "POST", path: entity.toLowerCase(), params, body: item.body, requestId: randomUUID() });
    return { ok: true, value: parseEntity(item.schema, keyed(record(body, entity), entity), entity) };
  } catch (e) {
    if (e instanceof QboError && ITEM_FAILURES.has(e.kind)) return { ok: false, error: e };
    throw e;
  }
}

/**
 * Sends `items` in batches of 30, one after another, each with a fresh requestid (so a retry of
 * a lost answer is answered again, never run twice), and answers each item's outcome in order.
 * A query item reads one page of 1000; a full page is followed by plain queries for the rest.
 * A single item is sent as a call of its own (`runAlone`).
 */
export async function runBatches<const Items extends readonly BatchItem[]>(transport: BatchTransport, items: Items): Promise<BatchResults<Items>> {
  const entities = items.map((item) => (isQuery(item) ? entityOfQuery(item.query) : item.entity));
  if (items.length === 1) return [await runAlone(transport, items[0] as BatchItem, entities[0] as string)] as BatchResults<Items>;
  const outcomes: BatchOutcome<unknown>[] = [];
  for (let start = 0; start < items.length; start += MAX_BATCH_ITEMS) {
    outcomes.push(...(await sendBatch(transport, items.slice(start, start + MAX_BATCH_ITEMS), entities.slice(start, start + MAX_BATCH_ITEMS), randomUUID())));
  }
  return outcomes as BatchResults<Items>;
}

/**
 * Writes in ONE batch request under the caller's `requestId`, even a single one: the caller
 * recorded that requestid before sending, so sending the same items again under it (after a lost
 * answer or a crash) is answered with QuickBooks' first answer instead of making anything twice
 * (posting/batch.ts in the server). Each item's bId is its index here.
 */
export async function runWriteBatch<T>(transport: BatchTransport, items: readonly BatchWriteItem<T>[], requestId: string): Promise<BatchOutcome<T>[]> {
  if (items.length === 0 || items.length > MAX_BATCH_ITEMS) throw new RangeError(`a batch request takes 1..${MAX_BATCH_ITEMS} items (got ${items.length})`);
  return (await sendBatch(transport, items, items.map((item) => item.entity), requestId)) as BatchOutcome<T>[];
}

/** One batch request of at most 30 items, bIds their indexes; each item's outcome in order. */
async function sendBatch(transport: BatchTransport, chunk: readonly BatchItem[], entities: readonly string[], requestId: string): Promise<BatchOutcome<unknown>[]> {
  const request = chunk.map((item, i) =>
    isQuery(item)
      ? { bId: String(i), Query: `${item.query.trim()} STARTPOSITION 1 MAXRESULTS ${PAGE}` }
      : { bId: String(i), operation: item.operation, [item.entity]: item.body },
  );
  const body = await transport.send({ method: "POST", path: BATCH_PATH, body: { BatchItemRequest: request }, requestId });
  const answered = record(body, "batch")["BatchItemResponse"];
  if (!Array.isArray(answered)) throw unexpectedResponse("a batch answer had no BatchItemResponse", JSON.stringify(body).slice(0, 200));
  const byId = new Map((answered as unknown[]).map((a) => [record(a, "BatchItemResponse item")["bId"], record(a, "BatchItemResponse item")]));
  const outcomes: BatchOutcome<unknown>[] = [];
  for (const [i, item] of chunk.entries()) {
    const entity = entities[i] as string;
    const answer = byId.get(String(i));
    if (answer === undefined) throw unexpectedResponse(`a batch answer had no item ${i}`, JSON.stringify(body).slice(0, 200));
    const fault = keyed(answer, "Fault");
    if (fault !== undefined) {
      outcomes.push({ ok: false, error: batchItemError(fault) });
    } else if (isQuery(item)) {
      const rows = await allRows(transport, item.query.trim(), entity, rowsOf(answer["QueryResponse"], entity));
      outcomes.push({ ok: true, value: rows.map((row) => parseEntity(item.schema, row, entity)) });
    } else {
      outcomes.push({ ok: true, value: parseEntity(item.schema, keyed(answer, entity), entity) });
    }
  }
  return outcomes;
}
