/** Successful API responses with the headers Intuit sends (minimul-qbo_api recordings). */
import { intuitTime, newIntuitTid } from "./faults.ts";
import type { WireResponse } from "./faults.ts";
import { randomUUID } from "node:crypto";

/** `withTime` adds the envelope's `time` (entities and queries have it; reports do not). */
export function jsonResponse(body: Record<string, unknown>, now: Date, withTime = true, status = 200): WireResponse {
  const tid = newIntuitTid(now);
  const text = JSON.stringify(withTime ? { ...body, time: intuitTime(now) } : body);
  return {
    status,
    headers: {
      Date: now.toUTCString(),
      "Content-Type": "application/json;charset=utf-8",
      "Strict-Transport-Security": "max-age=15552000",
      intuit_tid: tid,
      "X-Spanid": randomUUID(),
      "X-Amzn-Trace-Id": `Root=${tid}`,
      "Qbo-Version": "1944.190",
      "Service-Time": "total=12, db=4",
      Expires: "0",
      "Cache-Control": "max-age=0, no-cache, no-store, must-revalidate, private",
    },
    body: text,
  };
}

/** The token endpoint's success headers (oauth/intuit-oauth-jsclient__authResponse.json). */
export function oauthJson(body: Record<string, unknown>, now: Date): WireResponse {
  const text = JSON.stringify(body);
  return {
    status: 200,
    headers: {
      "content-type": "application/json;charset=UTF-8",
      "content-length": String(Buffer.byteLength(text)),
      date: now.toUTCString(),
      intuit_tid: newIntuitTid(now),
      "cache-control": "no-cache, no-store",
      pragma: "no-cache",
    },
    body: text,
  };
}
