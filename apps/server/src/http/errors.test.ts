import { describe, expect, it } from "vitest";
import { AppError, body, errors } from "./errors.ts";

describe("AppError", () => {
  it("carries the status, the code, the message a person reads, details and headers", () => {
    const e = new AppError(409, "company_taken", "Someone connected it first.", { realmId: "1" }, { "retry-after": "5" });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: "AppError", status: 409, code: "company_taken", message: "Someone connected it first.", details: { realmId: "1" }, headers: { "retry-after": "5" } });
  });
});

describe("errors", () => {
  it("give each kind its status", () => {
    expect([
      errors.badRequest("bad", "m"),
      errors.unauthorized("expired", "m"),
      errors.forbidden("permission_denied", "m"),
      errors.notFound(),
      errors.conflict("busy", "m"),
    ].map((e) => [e.status, e.code])).toEqual([
      [400, "bad"],
      [401, "expired"],
      [403, "permission_denied"],
      [404, "not_found"],
      [409, "busy"],
    ]);
    expect(errors.notFound().message).toBe("Not found.");
    expect(errors.notFound("Company 1 is not in your account.").message).toBe("Company 1 is not in your account.");
    expect(errors.badRequest("bad", "m", { fields: [] }).details).toEqual({ fields: [] });
  });

  it("a validation failure reads as its first field's message and lists every field", () => {
    const fields = [
      { path: "email", message: "Please enter a valid email address." },
      { path: "password", message: "Please enter a password." },
    ];
    expect(errors.validation(fields)).toMatchObject({ status: 400, code: "validation_failed", message: "Please enter a valid email address.", details: { fields } });
    expect(errors.validation([]).message).toBe("The request is not valid.");
  });

  it("too many requests says when to come back, in whole seconds rounded up, in the body and in Retry-After", () => {
    const e = errors.tooManyRequests("Too many tries.", 1_001);
    expect(e).toMatchObject({ status: 429, code: "rate_limited", message: "Too many tries.", details: { retryAfterSeconds: 2 }, headers: { "retry-after": "2" } });
    expect(errors.tooManyRequests("x", 60_000).headers).toEqual({ "retry-after": "60" });
  });
});

describe("body", () => {
  it("is the API's one error shape, with details only when there are some", () => {
    expect(body("not_found", "No route.")).toEqual({ error: { code: "not_found", message: "No route." } });
    expect(body("validation_failed", "Bad.", { fields: [] })).toEqual({ error: { code: "validation_failed", message: "Bad.", details: { fields: [] } } });
    expect(Object.keys(body("x", "y").error)).toEqual(["code", "message"]);
  });
});
