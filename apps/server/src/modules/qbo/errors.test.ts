import { networkFailure, QboError, unexpectedResponse } from "@groupledger/qbo";
import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.ts";
import { nullIfNotFound, qboApiError, reauthorizeMessage, REAUTHORIZE_PARENT_MESSAGE } from "./errors.ts";

const fault = (status: number, code: string, faultType?: string, detail?: string) =>
  new QboError({ status, faultType, errors: [{ code, message: `fault ${code}`, detail, element: undefined }] });

const words = {
  subject: "parent" as const,
  then: "post again",
  unavailable: (e: QboError) => `no answer (${e.message})`,
  closedBooks: () => "books closed",
  refused: (e: QboError) => `refused: ${e.message}`,
};

const asApi = (e: unknown) => {
  const mapped = qboApiError(e, words);
  expect(mapped).toBeInstanceOf(AppError);
  const { status, code, message } = mapped as AppError;
  return { status, code, message };
};

describe("a QuickBooks failure as an API error", () => {
  it("asks to reconnect the company QuickBooks named, and says what to do then", () => {
    expect(asApi(fault(401, "3200", "AUTHENTICATION"))).toEqual({ status: 409, code: "qbo_reauthorization_required", message: REAUTHORIZE_PARENT_MESSAGE });
    expect(REAUTHORIZE_PARENT_MESSAGE).toBe(
      "QuickBooks Online asked for the parent company to be re-authorized (errorCode 003200). Reconnect it on Connected Companies, then post again.",
    );
    expect(reauthorizeMessage({ companyName: "Northwind UK Ltd", isParent: false })).toBe(
      "QuickBooks Online asked for Northwind UK Ltd to be re-authorized (errorCode 003200). Reconnect it on Connected Companies.",
    );
    expect(reauthorizeMessage({ companyName: "Northwind Holdings Inc.", isParent: true }, "create the account again")).toBe(
      "QuickBooks Online asked for the parent company to be re-authorized (errorCode 003200). Reconnect it on Connected Companies, then create the account again.",
    );
    const oauth = new QboError({ status: 400, errors: [{ code: "invalid_grant", message: "Incorrect or invalid refresh token", detail: undefined, element: undefined }] });
    expect(asApi(oauth).code).toBe("qbo_reauthorization_required");
  });

  it("turns closed books into books_closed and a refusal into qbo_refused when the caller words them, otherwise qbo_unavailable", () => {
    expect(asApi(fault(400, "6200", "ValidationFault"))).toEqual({ status: 409, code: "books_closed", message: "books closed" });
    expect(asApi(fault(400, "6000", "ValidationFault"))).toEqual({ status: 502, code: "qbo_refused", message: "refused: fault 6000" });
    expect(asApi(fault(403, "3100", "AuthorizationFault"))).toEqual({ status: 502, code: "qbo_refused", message: "refused: fault 3100" });
    // 610 "Object Not Found" in a 400: something the request names is inactive. A 404 answers the address, not the request.
    expect(asApi(fault(400, "610", "ValidationFault"))).toEqual({ status: 502, code: "qbo_refused", message: "refused: fault 610" });
    for (const e of [fault(429, "3001", "ThrottleExceeded"), fault(503, "", "SystemFault"), networkFailure(new Error("reset")), fault(404, "610", "")]) {
      expect(asApi(e)).toEqual({ status: 502, code: "qbo_unavailable", message: `no answer (${e.message})` });
    }
    const unworded = qboApiError(fault(400, "6200", "ValidationFault"), { subject: "parent", unavailable: () => "could not" }) as AppError;
    expect([unworded.status, unworded.code, unworded.message]).toEqual([502, "qbo_unavailable", "could not"]);
    expect(asApi(unexpectedResponse("no JournalEntry", "{}")).code).toBe("qbo_refused");
  });

  it("hands back anything that is not a QuickBooks failure", () => {
    const bug = new TypeError("not QuickBooks");
    expect(qboApiError(bug, words)).toBe(bug);
  });

  it("reads 'not found' as no entry, and nothing else", () => {
    expect(nullIfNotFound(fault(400, "610", "ValidationFault"))).toBeNull();
    expect(() => nullIfNotFound(fault(503, "", "SystemFault"))).toThrow(QboError);
  });
});
