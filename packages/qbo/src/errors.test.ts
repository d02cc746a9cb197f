import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { QboError, batchItemError, classifyQboError, parseQboError, parseRetryAfter, type QboErrorKind } from "./errors.ts";

// /work/main/packages/qbo/src -> /work/shared/qbo-samples
const SAMPLES = new URL("../../../../shared/qbo-samples/", import.meta.url);

type Json = Record<string, unknown>;

function readJson(rel: string): Json {
  return JSON.parse(readFileSync(new URL(rel, SAMPLES), "utf8")) as Json;
}

/** What went over the wire, rebuilt from each sample format. */
interface Exchange {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function exchange(rel: string): Exchange {
  const file = readJson(rel);
  if (rel.startsWith("errors/")) {
    // { status: {code}, headers: {Name: [value]}, body: <json> }
    const status = file["status"] as { code: number };
    return { status: status.code, headers: file["headers"] as Exchange["headers"], body: JSON.stringify(file["body"]) };
  }
  if (rel.startsWith("minimul-qbo_api/")) {
    // { response: { status: {code}, headers: {Name: [value]}, body_json: <json> } }
    const response = file["response"] as Json;
    const status = response["status"] as { code: number };
    return { status: status.code, headers: response["headers"] as Exchange["headers"], body: JSON.stringify(response["body_json"]) };
  }
  if (rel === "oauth/intuit-oauth-jsclient__errorResponse.json") {
    // { response: { status: 400, headers: {name: value}, body: "<raw json text>" } }
    const response = file["response"] as Json;
    return { status: response["status"] as number, headers: response["headers"] as Exchange["headers"], body: response["body"] as string };
  }
  if (rel === "oauth/dotnet-sdk__failure_token_response.json") {
    // Body only; the token endpoint answers errors with 400 (RFC 6749 §5.2).
    return { status: 400, headers: {}, body: readFileSync(new URL(rel, SAMPLES), "utf8") };
  }
  throw new Error(`no reader for ${rel}`);
}

interface Expected {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly detail: string | undefined;
  readonly element: string | undefined;
  readonly faultType: string | undefined;
  readonly kind: QboErrorKind;
  readonly intuitTid: string | undefined;
}

const DETAIL_2010 =
  'Property Name:Unrecognized field "BadJson" (class com.intuit.schema.finance.v3.Invoice), not marked as ignorable (83 known properties: "DocNumber", "HomeTotalAmt", "TotalAmt", "TxnSource", "AllowOnlinePayment", "RecurringInfo", "EmailStatus", "callToAction", "AutoDocNumber", "ECloudStatusTimeStamp", "TaxFormNum", "TxnDate", "FOB", "ClassRef", "AllowOnlineACHPayment", "DepositToAccountRef", "InvoiceEx", "AllowOnlineCreditCardPayment", "CurrencyRef", "InvoiceLink", "PONumber", "ShipDate", "PaymentMethodRef", "TrackingNum", "TxnTaxDetail", "CustomerRef", "ShipFromAddr", "BillAddr", "EInvoiceStatus", "Id", "RecurDataRef", "ApplyTaxAfterDiscount", "DepartmentRef", "SalesRepRef", "ExchangeRate", "domain", "invoiceStatusLog", "TaxFormType", "BillEmailBcc", "LessCIS", "CustomerMemo", "TxnStatus", "HomeBalance", "PrintStatus", "ConvenienceFeeDetail", "DiscountRate", "DeliveryInfo", "FreeFormAddress", "AllowIPNPayment", "CustomField", "PaymentDetailsMessage", "TransactionLocationType", "MetaData", "LinkedTxn", "status", "RemitToRef", "PrivateNote", "ShipMethodRef", "PaymentRefNum", "Tag", "TxnApprovalInfo" [truncated]])\n specified is unsupported or invalid';

const E_2010: Expected = {
  status: 400,
  code: "2010",
  message: "Request has invalid or unsupported property",
  detail: DETAIL_2010,
  element: undefined,
  faultType: "ValidationFault",
  kind: "validation",
  intuitTid: "1-5f733c5a-55d0ff60812923e8b22c622b",
};
const E_4001: Expected = {
  status: 400,
  code: "4001",
  message: "Invalid query",
  detail: "QueryValidationError: invalid context declaration: Custmoer",
  element: undefined,
  faultType: "ValidationFault",
  kind: "validation",
  intuitTid: "1-5f733c38-6312b3f50596e47933ee0781",
};
// QBO code "500" on an HTTP 400: a validation fault, not a server error.
const E_500: Expected = {
  status: 400,
  code: "500",
  message: "Unsupported Operation",
  detail:
    "Operation Could not find resource for relative : /v3/company/-COMPANY_ID-/customer/1/5 of full path: https://c50.sandbox.qbo.intuit.com/qbo50/v3/company/-COMPANY_ID-/customer/1/5 is not supported.",
  element: undefined,
  faultType: "ValidationFault",
  kind: "validation",
  intuitTid: "1-5f733cd3-284572515eb5f21f8e8afa62",
};
const E_6240: Expected = {
  status: 400,
  code: "6240",
  message: "Duplicate Name Exists Error",
  detail: "The name supplied already exists. : null",
  element: undefined,
  faultType: "ValidationFault",
  kind: "validation",
  intuitTid: "1-5f733d9a-1d4e21aa217ba43177113df4",
};
const E_3200: Expected = {
  status: 401,
  code: "3200",
  message: "message=AuthenticationFailed; errorCode=003200; statusCode=401",
  detail: "Token expired: AB01601390262kxzxOlnHYdhtEVRXISU7piPqQrCmmbDN35Yjd",
  element: undefined, // `"element": null` in the body
  faultType: "AUTHENTICATION",
  kind: "reauthorize",
  intuitTid: "1-5f7349e0-0fd2bee86a8a83c67a77fbb2",
};

/** Every error sample on disk, with the values written in it. */
const EXPECTED: Record<string, Expected | "not an error"> = {
  "errors/400_ValidationFault_2010_unknown_property__minimul-qbo_api.json": E_2010,
  "errors/400_ValidationFault_4001_invalid_query__minimul-qbo_api.json": E_4001,
  "errors/400_ValidationFault_500_unsupported_operation__minimul-qbo_api.json": E_500,
  "errors/400_ValidationFault_6240_duplicate_name__minimul-qbo_api.json": E_6240,
  "errors/401_AuthenticationFailed_3200_token_expired__minimul-qbo_api.json": E_3200,
  // The first interaction of the recorded "400" cassette is the successful query that precedes the bad one.
  "minimul-qbo_api/error__400__0.json": "not an error",
  "minimul-qbo_api/error__400__1.json": E_4001,
  "minimul-qbo_api/error__400_json__0.json": E_2010,
  "minimul-qbo_api/error__401__0.json": E_3200,
  "minimul-qbo_api/error__500__0.json": E_500,
  // No `time` in this body, and the only sample with an `element`.
  "minimul-qbo_api/error__500__1.json": {
    status: 400,
    code: "2030",
    message: "Invalid ID",
    detail: "Id should be a valid number. Supplied value:1.5",
    element: "Id",
    faultType: "ValidationFault",
    kind: "validation",
    intuitTid: "1-5f733d63-44139ea355338a7d238f5e99",
  },
  "minimul-qbo_api/error__validation__0.json": E_6240,
  "oauth/intuit-oauth-jsclient__errorResponse.json": {
    status: 400,
    code: "invalid_grant",
    message: "Token invalid",
    detail: undefined,
    element: undefined,
    faultType: undefined,
    kind: "reauthorize",
    intuitTid: "1234-1234-1234-123", // lowercase `intuit_tid` header
  },
  "oauth/dotnet-sdk__failure_token_response.json": {
    status: 400,
    code: "error",
    message: "error_description",
    detail: undefined,
    element: undefined,
    faultType: undefined,
    kind: "other",
    intuitTid: undefined,
  },
};

function errorSampleFiles(): string[] {
  const list = (dir: string, keep: (name: string) => boolean): string[] =>
    readdirSync(new URL(`${dir}/`, SAMPLES))
      .filter((name) => name.endsWith(".json") && keep(name))
      .map((name) => `${dir}/${name}`);
  return [
    ...list("errors", () => true),
    ...list("minimul-qbo_api", (name) => name.startsWith("error__")),
    ...list("oauth", (name) => /error|failure/i.test(name)),
  ].sort();
}

describe("parseQboError against every error sample", () => {
  it("has an expectation for each error sample on disk (a new sample must be added here)", () => {
    expect(errorSampleFiles()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    if (expected === "not an error") {
      it(`${file} is a 200 with a QueryResponse, not a fault`, () => {
        const { status, body } = exchange(file);
        expect(status).toBe(200);
        expect(Object.keys(JSON.parse(body) as Json)).toEqual(["QueryResponse", "time"]);
      });
      continue;
    }
    it(file, () => {
      const { status, headers, body } = exchange(file);
      const err = parseQboError(status, headers, body);
      expect(err).toBeInstanceOf(QboError);
      expect(err).toBeInstanceOf(Error);
      expect({
        status: err.status,
        code: err.code,
        message: err.message,
        detail: err.detail,
        element: err.element,
        faultType: err.faultType,
        kind: err.kind,
        intuitTid: err.intuitTid,
      }).toEqual(expected);
      expect(err.errors).toEqual([{ code: expected.code, message: expected.message, detail: expected.detail, element: expected.element }]);
      expect(err.retryable).toBe(false);
      expect(err.retryAfterMs).toBeUndefined();
      // Same result through a WHATWG Headers object (as fetch gives it).
      const viaFetch = parseQboError(status, toHeaders(headers), body);
      expect(viaFetch.intuitTid).toBe(expected.intuitTid);
      expect(viaFetch.code).toBe(expected.code);
    });
  }
});

function toHeaders(record: Exchange["headers"]): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(record)) {
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) h.append(k, one);
  }
  return h;
}

describe("parseQboError on bodies not in the samples", () => {
  it("reads an XML throttling fault (HTTP 429, code 3001)", () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<IntuitResponse xmlns="http://schema.intuit.com/finance/v3" time="2024-03-05T09:14:07.123-08:00">\n' +
      '  <Fault type="ThrottleExceeded">\n' +
      '    <Error code="3001">\n' +
      "      <Message>message=ThrottleExceeded; errorCode=003001; statusCode=429</Message>\n" +
      "      <Detail>The request limit was reached.</Detail>\n" +
      "    </Error>\n" +
      "  </Fault>\n" +
      "</IntuitResponse>";
    const err = parseQboError(
      429,
      { "Content-Type": "application/xml", intuit_tid: "1-65e752df-0a1b2c3d4e5f60718293a4b5", "Retry-After": "60" },
      xml,
    );
    expect(err.status).toBe(429);
    expect(err.code).toBe("3001");
    expect(err.message).toBe("message=ThrottleExceeded; errorCode=003001; statusCode=429");
    expect(err.detail).toBe("The request limit was reached.");
    expect(err.element).toBeUndefined();
    expect(err.faultType).toBe("ThrottleExceeded");
    expect(err.kind).toBe("throttled");
    expect(err.retryable).toBe(true);
    expect(err.intuitTid).toBe("1-65e752df-0a1b2c3d4e5f60718293a4b5");
    expect(err.retryAfterMs).toBe(60_000);
  });

  it("reads code 3001 in XML even when the status is not 429, with several errors, entities and an element", () => {
    const xml =
      '<IntuitResponse xmlns="http://schema.intuit.com/finance/v3" time="2024-03-05T09:14:07.123-08:00">' +
      '<Fault type="ValidationFault">' +
      '<Error code="003001" element="Line"><Message>Throttled &amp; &quot;retried&quot;</Message><Detail/></Error>' +
      '<Error code="6000"><Message><![CDATA[A <business> rule]]></Message><Detail>second &#x263A;</Detail></Error>' +
      "</Fault></IntuitResponse>";
    const err = parseQboError(400, {}, xml);
    expect(err.code).toBe("3001");
    expect(err.message).toBe('Throttled & "retried"');
    expect(err.detail).toBeUndefined();
    expect(err.element).toBe("Line");
    expect(err.kind).toBe("throttled");
    expect(err.errors).toEqual([
      { code: "3001", message: 'Throttled & "retried"', detail: undefined, element: "Line" },
      { code: "6000", message: "A <business> rule", detail: "second \u263a", element: undefined },
    ]);
  });

  it("keeps every item of a JSON Fault with several errors", () => {
    const body = JSON.stringify({
      Fault: {
        Error: [
          { Message: "Object Not Found", Detail: "Object Not Found : Something you're trying to use has been made inactive.", code: "610", element: "" },
          { Message: "Stale Object Error", Detail: "Stale Object Error : ...", code: "5010", element: "" },
        ],
        type: "ValidationFault",
      },
      time: "2020-09-29T08:13:20.000-07:00",
    });
    const err = parseQboError(400, { "Intuit-Tid": "1-5f734f0e-58baa045003ab251111c54e6" }, body);
    expect(err.errors.map((e) => e.code)).toEqual(["610", "5010"]);
    expect(err.code).toBe("610");
    expect(err.element).toBeUndefined(); // "" means no element
    expect(err.kind).toBe("not_found");
    expect(err.intuitTid).toBe("1-5f734f0e-58baa045003ab251111c54e6");
  });

  it("describes a 503 with an HTML body", () => {
    const html =
      "<!DOCTYPE html>\n<html><head><title>503 Service Temporarily Unavailable</title><style>body{color:red}</style></head>" +
      "<body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>";
    const err = parseQboError(503, new Headers({ "content-type": "text/html", "Retry-After": "Wed, 21 Oct 2099 07:28:00 GMT" }), html);
    expect(err.status).toBe(503);
    expect(err.code).toBe("");
    expect(err.message).toBe("QuickBooks Online request failed with HTTP 503 Service Unavailable");
    expect(err.detail).toBe("503 Service Temporarily Unavailable 503 Service Temporarily Unavailable nginx");
    expect(err.faultType).toBeUndefined();
    expect(err.kind).toBe("server");
    expect(err.retryable).toBe(true);
    expect(err.intuitTid).toBeUndefined();
    expect(err.retryAfterMs).toBeGreaterThan(0);
    expect(err.errors).toHaveLength(1);
  });

  it("describes an empty body", () => {
    const err = parseQboError(502, {}, "");
    expect(err.code).toBe("");
    expect(err.message).toBe("QuickBooks Online request failed with HTTP 502 Bad Gateway");
    expect(err.detail).toBeUndefined();
    expect(err.kind).toBe("server");
    expect(err.retryable).toBe(true);

    const unauthorized = parseQboError(401, { intuit_tid: "abc" }, "   ");
    expect(unauthorized.message).toBe("QuickBooks Online request failed with HTTP 401 Unauthorized");
    expect(unauthorized.kind).toBe("other");
    expect(unauthorized.intuitTid).toBe("abc");

    expect(parseQboError(418, {}, "").message).toBe("QuickBooks Online request failed with HTTP 418");
    expect(parseQboError(404, {}, "").kind).toBe("not_found");
  });

  it("treats 429 as throttled whatever the body", () => {
    const err = parseQboError(429, {}, "Too Many Requests");
    expect(err.kind).toBe("throttled");
    expect(err.detail).toBe("Too Many Requests");
    expect(err.retryable).toBe(true);
  });

  it("takes the code out of the message when a Fault item has none", () => {
    const body = JSON.stringify({ Fault: { Error: [{ Message: "message=ThrottleExceeded; errorCode=003001; statusCode=429" }], type: "SERVICE" } });
    const err = parseQboError(429, {}, body);
    expect(err.code).toBe("3001");
    expect(err.kind).toBe("throttled");
  });

  it("never throws, whatever it is given", () => {
    const bodies = [
      "{",
      "null",
      "[]",
      "42",
      '"text"',
      '{"Fault":null}',
      '{"Fault":{}}',
      '{"Fault":{"Error":"x"}}',
      '{"Fault":{"Error":[null,1,{"code":3100}]},"type":7}',
      '{"fault":{"error":{"message":"single object","code":"3200"}}}',
      "<Fault>",
      "<Fault type='x'><Error code='1'></Fault>",
      "<html>",
      "\uFEFF",
      "&#xFFFFFFFF; &bogus;",
    ];
    const headerSets = [{}, new Headers(), { "retry-after": ["nonsense"] }, { "Retry-After": undefined }];
    for (const body of bodies) {
      for (const headers of headerSets) {
        for (const status of [0, 200, 400, 401, 403, 429, 500, 599]) {
          const err = parseQboError(status, headers, body);
          expect(err).toBeInstanceOf(QboError);
          expect(typeof err.message).toBe("string");
          expect(err.message.length).toBeGreaterThan(0);
          expect(typeof err.code).toBe("string");
          expect(err.errors.length).toBeGreaterThan(0);
        }
      }
    }
    expect(parseQboError(401, {}, '{"fault":{"error":{"message":"single object","code":"3200"}}}').kind).toBe("reauthorize");
    expect(parseQboError(403, {}, '{"Fault":{"Error":[null,1,{"code":3100}]},"type":7}').code).toBe("3100");
  });
});

describe("classifyQboError", () => {
  it.each([
    [401, "3200", "AUTHENTICATION", "reauthorize"],
    [400, "invalid_grant", undefined, "reauthorize"],
    [429, "", undefined, "throttled"],
    [400, "3001", "ValidationFault", "throttled"],
    [500, "10000", "SystemFault", "server"],
    [503, "", undefined, "server"],
    [404, "", undefined, "not_found"],
    [400, "610", "ValidationFault", "not_found"],
    [400, "6240", "ValidationFault", "validation"],
    [400, "6200", "ValidationFault", "closed_period"],
    [400, "6210", "ValidationFault", "closed_period"],
    [400, "6000", "", "validation"],
    [200, "5010", "ValidationFault", "validation"],
    [403, "3100", "AuthorizationFault", "other"],
    [400, "invalid_client", undefined, "other"],
    [401, "", undefined, "other"],
  ] as const)("%i %s %s -> %s", (status, code, faultType, kind) => {
    expect(classifyQboError(status, code, faultType)).toBe(kind);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2024-03-05T17:00:00Z");

  it("reads delta-seconds", () => {
    expect(parseRetryAfter({ "Retry-After": "120" }, now)).toBe(120_000);
    expect(parseRetryAfter({ "retry-after": ["0"] }, now)).toBe(0);
    expect(parseRetryAfter(new Headers({ "retry-after": " 5 " }), now)).toBe(5_000);
    expect(parseRetryAfter({ "RETRY-AFTER": "1.5" }, now)).toBe(1_500);
  });

  it("reads an HTTP date relative to now, never negative", () => {
    expect(parseRetryAfter({ "Retry-After": "Tue, 05 Mar 2024 17:00:30 GMT" }, now)).toBe(30_000);
    expect(parseRetryAfter({ "Retry-After": "Tue, 05 Mar 2024 16:59:00 GMT" }, now)).toBe(0);
  });

  it("is undefined when absent or unreadable", () => {
    expect(parseRetryAfter({}, now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter({ "Retry-After": "" }, now)).toBeUndefined();
    expect(parseRetryAfter({ "Retry-After": "soon" }, now)).toBeUndefined();
    expect(parseRetryAfter({ "Retry-After": "-5" }, now)).toBeUndefined();
    expect(parseRetryAfter({ "Retry-After": undefined }, now)).toBeUndefined();
  });
});

describe("QboError", () => {
  it("can be built directly and classifies itself", () => {
    const err = new QboError({ status: 500, errors: [] });
    expect(err.name).toBe("QboError");
    expect(err.kind).toBe("server");
    expect(err.retryable).toBe(true);
    expect(err.errors).toHaveLength(1);
    expect(err.message).toBe("QuickBooks Online request failed with HTTP 500 Internal Server Error");
    expect(err.stack?.split("\n")[0]).toBe(`QboError: ${err.message}`);
  });
});

describe("batchItemError: a batch item's Fault classified as the same Fault answering a call", () => {
  type Item = { bId: string; Fault?: unknown };
  const items = (rel: string, path: (j: Json) => unknown): Item[] => path(readJson(rel)) as Item[];
  const recorded = [
    ...items("minimul-qbo_api/batch__basic__0.json", (j) => ((j["response"] as Json)["body_json"] as Json)["BatchItemResponse"]),
    ...items("entities/Batch_response__intuit-docs-example__abossenbroek-qbo-mcp.json", (j) => j["BatchItemResponse"]),
  ].filter((i) => i.Fault !== undefined);

  it("reads the recorded item Faults: 610 not found, 5010 and 6240 validation, as single calls with those codes are", () => {
    expect(
      recorded.map((i) => {
        const err = batchItemError(i.Fault, "1-tid");
        return [err.code, err.kind, err.status, err.faultType, err.element, err.intuitTid];
      }),
    ).toEqual([
      ["610", "not_found", 400, "ValidationFault", undefined, "1-tid"],
      ["5010", "validation", 400, "ValidationFault", undefined, "1-tid"],
      ["6240", "validation", 400, "ValidationFault", undefined, "1-tid"],
      ["610", "not_found", 400, "ValidationFault", undefined, "1-tid"],
      ["5010", "validation", 400, "ValidationFault", undefined, "1-tid"],
    ]);
    // The same as parseQboError reading the Fault as a 400 of its own.
    for (const i of recorded) {
      const alone = parseQboError(400, {}, JSON.stringify({ Fault: i.Fault }));
      const item = batchItemError(i.Fault);
      expect([item.kind, item.code, item.message, item.detail]).toEqual([alone.kind, alone.code, alone.message, alone.detail]);
    }
  });

  it("places other Fault types at their own statuses, and survives a Fault it cannot read", () => {
    const system = batchItemError({ Error: [{ Message: "An application error has occurred", code: "10000" }], type: "SystemFault" });
    expect([system.status, system.kind]).toEqual([500, "server"]);
    expect(system.retryable).toBe(true);
    const closed = batchItemError({ Error: [{ Message: "Account Period Closed", code: "6200" }], type: "ValidationFault" });
    expect(closed.kind).toBe("closed_period");
    const nonsense = batchItemError("not a fault");
    expect([nonsense.status, nonsense.kind]).toEqual([400, "validation"]);
  });
});
