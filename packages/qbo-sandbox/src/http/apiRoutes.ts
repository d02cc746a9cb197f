/** The Accounting API under /v3/company/{realmId}: bearer auth, requestid replay, entities, batch, query, CDC, reports. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Json } from "../entities.ts";
import {
  renderAccount,
  renderClass,
  renderCompanyCurrency,
  renderCompanyInfo,
  renderDeleted,
  renderDepartment,
  renderExchangeRate,
  renderParty,
  renderPreferences,
  renderTransaction,
} from "../entities.ts";
import type { WireResponse } from "../faults.ts";
import { authFailureResponse, faultResponse } from "../faults.ts";
import type { CompanyLedger, PartyKind, TransactionKind } from "../ledger.ts";
import { kindOf } from "../ledger.ts";
import { executeQuery } from "../query/execute.ts";
import { parseQuery } from "../query/parser.ts";
import { cdcWindowExceeded, objectNotFound, unsupportedProperty, validationFault } from "../qboFault.ts";
import { runReport } from "../reports/index.ts";
import type { Sandbox } from "../sandbox.ts";
import { isIsoDate } from "../calendar.ts";
import { jsonResponse } from "../wire.ts";
import { runBatch } from "./batch.ts";
import { faultOf, send, unsupportedOperation } from "./send.ts";
import { writeEntity, type WritableEntity } from "./writes.ts";

type Query = Record<string, string | undefined>;

interface Ctx {
  readonly ledger: CompanyLedger;
  readonly request: FastifyRequest;
  readonly query: Query;
  readonly now: Date;
}

const MAX_REQUEST_ID = 50;

/** The transaction entities, by path: read by id, listed in CDC. */
const TRANSACTION_PATHS = [
  ["journalentry", "JournalEntry"],
  ["bill", "Bill"],
  ["billpayment", "BillPayment"],
] as const satisfies readonly (readonly [string, TransactionKind])[];
/** CDC looks back 30 days at most (Intuit's "Change data capture operation" page). */
export const CDC_WINDOW_MS = 30 * 24 * 3600 * 1000;

function queryOf(request: FastifyRequest): Query {
  const out: Query = {};
  for (const [k, v] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (typeof v === "string") out[k] = v;
    else if (Array.isArray(v) && typeof v[0] === "string") out[k] = v[0];
  }
  return out;
}

function checkId(id: string): void {
  if (!/^\d+$/.test(id)) throw validationFault("2030", "Invalid ID", `Id should be a valid number. Supplied value:${id}`, "Id");
}

function authorizationFault(now: Date): WireResponse {
  return faultResponse({
    status: 403,
    type: "AuthorizationFault",
    errors: [{ message: "message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403", detail: "", code: "3100" }],
    time: now,
  });
}

export function registerApiRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  /** Authenticates, replays by requestid, runs the handler and renders any Fault. */
  const api =
    (handler: (ctx: Ctx) => WireResponse, options: { idempotent?: boolean } = {}) =>
    async (request: FastifyRequest<{ Params: { realmId: string } }>, reply: FastifyReply) => {
      const now = sandbox.now();
      const realmId = request.params.realmId;
      const header = request.headers.authorization ?? "";
      const bearer = /^bearer\s+(\S+)$/i.exec(header)?.[1];
      if (bearer === undefined) return send(reply, authFailureResponse({ detail: "Token invalid", time: now }));
      const access = sandbox.oauth.checkAccess(bearer, now.getTime());
      if (!access.ok || sandbox.faults.current.expireAccessTokens === true) {
        const detail = !access.ok && access.reason === "revoked" ? "Token revoked" : !access.ok && access.reason === "invalid" ? "Token invalid" : `Token expired: ${bearer.slice(0, 50)}`;
        return send(reply, authFailureResponse({ detail, time: now }));
      }
      const ledger = sandbox.ledger(realmId);
      if (access.realmId !== realmId || ledger === undefined) return send(reply, authorizationFault(now));

      sandbox.noteRequest(realmId, `${request.method} ${request.routeOptions.url?.slice(`${app.prefix}/v3/company/:realmId/`.length) ?? ""}`);
      const query = queryOf(request);
      const requestId = options.idempotent === true ? query["requestid"] : undefined;
      if (requestId !== undefined && requestId !== "") {
        const replayed = sandbox.replay(realmId, requestId);
        if (replayed !== undefined) return send(reply, replayed);
      }
      let response: WireResponse;
      try {
        const minor = query["minorversion"];
        sandbox.noteMinorVersion(minor);
        if (minor !== undefined && (!/^\d+$/.test(minor) || Number(minor) < 1 || Number(minor) > 75)) {
          throw unsupportedProperty("minorversion", `value ${minor} is not supported; use 1 to 75`);
        }
        if (requestId !== undefined && requestId.length > MAX_REQUEST_ID) throw unsupportedProperty("requestid", `must be at most ${MAX_REQUEST_ID} characters`);
        response = handler({ ledger, request, query, now });
      } catch (error) {
        const fault = faultOf(error, now);
        if (fault === undefined) throw error;
        response = fault;
      }
      if (requestId !== undefined && requestId !== "") {
        sandbox.remember(realmId, requestId, response);
        sandbox.save();
      }
      return send(reply, response);
    };

  const v3 = "/v3/company/:realmId";
  const faults = { config: { faults: true } };

  const runQuery = (ctx: Ctx, text: string | undefined): WireResponse => {
    if (text === undefined || text.trim() === "") throw validationFault("4000", "Error parsing query", "QueryParserError: Encountered \" <EOF> \"\" at line 1, column 0.");
    return jsonResponse({ QueryResponse: executeQuery(ctx.ledger, parseQuery(text)) }, ctx.now);
  };
  app.get(`${v3}/query`, faults, api((ctx) => runQuery(ctx, ctx.query["query"])));
  app.post(`${v3}/query`, faults, api((ctx) => runQuery(ctx, typeof ctx.request.body === "string" ? ctx.request.body : ctx.query["query"])));

  app.get(`${v3}/companyinfo/:id`, faults, api((ctx) => {
    const id = (ctx.request.params as { id: string }).id;
    if (id !== ctx.ledger.realmId && id !== "1") throw objectNotFound("CompanyInfo", id);
    return jsonResponse({ CompanyInfo: renderCompanyInfo(ctx.ledger) }, ctx.now);
  }));
  app.get(`${v3}/preferences`, faults, api((ctx) => jsonResponse({ Preferences: renderPreferences(ctx.ledger) }, ctx.now)));

  app.get(`${v3}/account/:id`, faults, api((ctx) => {
    const id = (ctx.request.params as { id: string }).id;
    checkId(id);
    const account = ctx.ledger.account(id);
    if (account === undefined) throw objectNotFound("Account", id);
    return jsonResponse({ Account: renderAccount(ctx.ledger, account) }, ctx.now);
  }));
  app.get(`${v3}/class/:id`, faults, api((ctx) => {
    const id = (ctx.request.params as { id: string }).id;
    checkId(id);
    const found = ctx.ledger.classes.find((c) => c.id === id);
    if (found === undefined) throw objectNotFound("Class", id);
    return jsonResponse({ Class: renderClass(found) }, ctx.now);
  }));
  app.get(`${v3}/department/:id`, faults, api((ctx) => {
    const id = (ctx.request.params as { id: string }).id;
    checkId(id);
    const found = ctx.ledger.departments.find((d) => d.id === id);
    if (found === undefined) throw objectNotFound("Department", id);
    return jsonResponse({ Department: renderDepartment(found) }, ctx.now);
  }));
  // Customers and vendors: read by id (the other kind's id is unknown here).
  for (const [path, kind] of [["customer", "Customer"], ["vendor", "Vendor"]] as const satisfies readonly (readonly [string, PartyKind])[]) {
    app.get(`${v3}/${path}/:id`, faults, api((ctx) => {
      const id = (ctx.request.params as { id: string }).id;
      checkId(id);
      const found = ctx.ledger.party(id);
      if (found === undefined || found.kind !== kind) throw objectNotFound(kind, id);
      return jsonResponse({ [kind]: renderParty(ctx.ledger, found) }, ctx.now);
    }));
  }
  // One endpoint per entity creates, updates (a body with an Id, or `operation=update` as the
  // SDKs send it) and, for journal entries, deletes (`operation=delete`): http/writes.ts.
  for (const [path, entity] of [
    ["account", "Account"],
    ["class", "Class"],
    ["customer", "Customer"],
    ["vendor", "Vendor"],
    ["journalentry", "JournalEntry"],
    ["bill", "Bill"],
    ["billpayment", "BillPayment"],
    ["companycurrency", "CompanyCurrency"],
    ["exchangerate", "ExchangeRate"],
  ] as const satisfies readonly (readonly [string, WritableEntity])[]) {
    app.post(`${v3}/${path}`, faults, api((ctx) => {
      const answer = writeEntity({ sandbox, ledger: ctx.ledger, now: ctx.now }, entity, ctx.query["operation"], ctx.request.body);
      sandbox.save();
      return jsonResponse(answer, ctx.now);
    }, { idempotent: true }));
  }
  app.get(`${v3}/companycurrency/:id`, faults, api((ctx) => {
    const id = (ctx.request.params as { id: string }).id;
    checkId(id);
    const found = ctx.ledger.currencies.find((c) => c.id === id);
    if (found === undefined) throw objectNotFound("CompanyCurrency", id);
    return jsonResponse({ CompanyCurrency: renderCompanyCurrency(found) }, ctx.now);
  }));
  // Transactions share one id sequence: another kind's id, or a deleted one, is unknown here (610).
  for (const [path, kind] of TRANSACTION_PATHS) {
    app.get(`${v3}/${path}/:id`, faults, api((ctx) => {
      const id = (ctx.request.params as { id: string }).id;
      checkId(id);
      const entry = ctx.ledger.liveTransaction(kind, id);
      if (entry === undefined) throw objectNotFound(kind, id);
      return jsonResponse({ [kind]: renderTransaction(ctx.ledger, entry) }, ctx.now);
    }));
  }

  app.post(`${v3}/batch`, { config: { faults: true, batch: true } }, api((ctx) => {
    const answer = runBatch({ sandbox, ledger: ctx.ledger, now: ctx.now }, ctx.request.body);
    sandbox.save();
    return jsonResponse(answer, ctx.now);
  }, { idempotent: true }));

  app.get(`${v3}/cdc`, faults, api((ctx) => {
    const entities = (ctx.query["entities"] ?? "").split(",").map((e) => e.trim()).filter((e) => e !== "");
    const since = Date.parse(ctx.query["changedSince"] ?? "");
    if (entities.length === 0) throw unsupportedProperty("entities", "is required (e.g. entities=Account,JournalEntry)");
    if (!Number.isFinite(since)) throw unsupportedProperty("changedSince", "must be an ISO 8601 date-time");
    if (since < ctx.now.getTime() - CDC_WINDOW_MS) throw cdcWindowExceeded(ctx.query["changedSince"] ?? "");
    const l = ctx.ledger;
    const changed = (u: number): boolean => u >= since;
    const byEntity: Record<string, () => Json[]> = {
      account: () => l.accounts.filter((a) => changed(a.updateTime)).map((a) => renderAccount(l, a)),
      class: () => l.classes.filter((c) => changed(c.updateTime)).map(renderClass),
      department: () => l.departments.filter((d) => changed(d.updateTime)).map(renderDepartment),
      customer: () => l.partiesOf("Customer").filter((c) => changed(c.updateTime)).map((c) => renderParty(l, c)),
      vendor: () => l.partiesOf("Vendor").filter((v) => changed(v.updateTime)).map((v) => renderParty(l, v)),
      ...Object.fromEntries(
        TRANSACTION_PATHS.map(([path, kind]) => [
          path,
          () => l.entries.filter((e) => kindOf(e) === kind && changed(e.updateTime)).map((e) => (e.deletedTime === undefined ? renderTransaction(l, e) : renderDeleted(e))),
        ]),
      ),
    };
    const canonical: Record<string, string> = {
      account: "Account",
      class: "Class",
      department: "Department",
      customer: "Customer",
      vendor: "Vendor",
      ...Object.fromEntries(TRANSACTION_PATHS),
    };
    const responses = entities.map((name) => {
      const key = name.toLowerCase();
      const list = byEntity[key]?.() ?? [];
      return list.length === 0 ? {} : { [canonical[key] ?? name]: list, startPosition: 1, maxResults: list.length };
    });
    return jsonResponse({ CDCResponse: [{ QueryResponse: responses }] }, ctx.now);
  }));

  app.get(`${v3}/exchangerate`, faults, api((ctx) => {
    const source = (ctx.query["sourcecurrencycode"] ?? "").toUpperCase();
    const asOf = ctx.query["asofdate"] ?? sandbox.today();
    if (!/^[A-Z]{3}$/.test(source)) throw unsupportedProperty("sourcecurrencycode", "is required (an ISO 4217 code such as GBP)");
    if (!isIsoDate(asOf)) throw unsupportedProperty("asofdate", "must be a date (YYYY-MM-DD)");
    const row = ctx.ledger.exchangeRateAsOf(source, asOf);
    if (row === undefined) throw objectNotFound("ExchangeRate", `${source} ${asOf}`);
    return jsonResponse({ ExchangeRate: renderExchangeRate(row) }, ctx.now);
  }));

  app.get(`${v3}/reports/:name`, faults, api((ctx) => {
    const name = (ctx.request.params as { name: string }).name;
    return jsonResponse(runReport(ctx.ledger, name, ctx.query, ctx.now), ctx.now, false);
  }));

  app.all("/v3/*", async (request, reply) => {
    const path = request.url.slice(app.prefix.length).split("?")[0] ?? "";
    return send(reply, unsupportedOperation(path, sandbox.now()));
  });
}
