/**
 * `POST /v3/company/{realmId}/batch`, as Intuit documents it and as recorded
 * (minimul-qbo_api/batch__basic__0, entities/Batch_request__/Batch_response__intuit-docs-example):
 * `{"BatchItemRequest":[{"bId", "Query": "select ..."} | {"bId", "operation", "<Entity>": {...}}]}`
 * answers 200 with `{"BatchItemResponse":[...],"time"}`, one item per request item in its order,
 * each with its `bId` last: `{"QueryResponse": {...}}`, `{"<Entity>": {...}}`, or its own
 * `{"Fault": {"Error": [{"Message","Detail","code","element": ""}], "type"}}`. One item's failure
 * does not fail the others.
 *
 * At most 30 items (Intuit's limits page: "maximum number of payloads in a single batch request
 * is 30"); more, a missing list, or an item without a `bId` (or one already used) refuse the whole
 * request with 400 ValidationFault 2010 — QuickBooks' wording for these cases is not recorded, so
 * the Detail is ours in the recorded 2010 envelope.
 *
 * Items run in order against the books as they stand. QuickBooks runs them serially too, but says
 * an item does not see what an earlier item of the same batch made (Intuit developer blog,
 * 2017-07-27 "What are Batch Operations"): callers must not make items depend on each other.
 */
import type { Json } from "../entities.ts";
import { faultBody } from "../faults.ts";
import { QboFault, objectNotFound, unsupportedOperationFault, unsupportedProperty } from "../qboFault.ts";
import { canonicalEntity, executeQuery } from "../query/execute.ts";
import { parseQuery } from "../query/parser.ts";
import { isWritable, writeEntity, type WriteContext } from "./writes.ts";

export const MAX_BATCH_ITEMS = 30;

/** Keys of an item that are not its payload. */
const ITEM_KEYS = new Set(["bId", "operation", "optionsData", "Query"]);

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function itemsOf(body: unknown): Json[] {
  const items = isObject(body) ? body["BatchItemRequest"] : undefined;
  if (!Array.isArray(items) || !items.every(isObject)) throw unsupportedProperty("BatchItemRequest", "is required: a list of batch items, each an object");
  if (items.length > MAX_BATCH_ITEMS) {
    throw unsupportedProperty("BatchItemRequest", `has ${items.length} items; a batch request takes at most ${MAX_BATCH_ITEMS}`);
  }
  const seen = new Set<string>();
  for (const item of items) {
    const bId = item["bId"];
    if (typeof bId !== "string" || bId === "") throw unsupportedProperty("bId", "is required on every batch item");
    if (seen.has(bId)) throw unsupportedProperty("bId", `${bId} is used by two batch items; each needs its own`);
    seen.add(bId);
  }
  return items;
}

/** One item's result, `{"QueryResponse": ...}` or `{"<Entity>": ...}`; refusals are thrown. */
function runItem(ctx: WriteContext, item: Json): Json {
  const payload = Object.keys(item).filter((k) => !ITEM_KEYS.has(k));
  const query = item["Query"];
  if (query !== undefined) {
    if (payload.length > 0) throw unsupportedProperty(payload[0] as string, "a batch item holds either a Query or one entity, not both");
    if (typeof query !== "string" || query.trim() === "") throw unsupportedProperty("Query", "must be a query statement");
    return { QueryResponse: executeQuery(ctx.ledger, parseQuery(query)) };
  }
  if (payload.length !== 1) throw unsupportedProperty("BatchItemRequest", "each item holds a Query or exactly one entity with its operation");
  const key = payload[0] as string;
  if (item["optionsData"] !== undefined) throw unsupportedProperty("optionsData", "is not supported here (no voidable transactions)");
  const operation = item["operation"];
  if (operation !== "create" && operation !== "update" && operation !== "delete") {
    throw unsupportedProperty("operation", `is required on an entity item: create, update or delete (got ${JSON.stringify(operation ?? null)})`);
  }
  if (isWritable(key)) return writeEntity(ctx, key, operation, item[key]);
  const entity = canonicalEntity(key);
  if (entity === undefined || entity !== key) throw unsupportedProperty(key, "is not an entity of the Accounting API");
  // An entity QuickBooks has but the emulator keeps none of (Invoice, SalesReceipt, ...): there is
  // no such object to update or delete (as recorded for Invoice 129), and creating one is not served.
  if (operation === "create") throw unsupportedOperationFault(`/${entity.toLowerCase()}`);
  const body = item[key];
  throw objectNotFound(entity, isObject(body) ? String(body["Id"] ?? "") : "");
}

/** The whole answer, `{"BatchItemResponse": [...]}` (the caller adds `time`). */
export function runBatch(ctx: WriteContext, body: unknown): Json {
  const responses = itemsOf(body).map((item) => {
    try {
      return { ...runItem(ctx, item), bId: item["bId"] };
    } catch (error) {
      if (!(error instanceof QboFault)) throw error;
      // A batch item's Fault has no time of its own and always an element (recorded as "").
      const errors = error.errors.map((e) => ({ ...e, element: e.element ?? "" }));
      return { Fault: faultBody(error.type, errors), bId: item["bId"] };
    }
  });
  return { BatchItemResponse: responses };
}
