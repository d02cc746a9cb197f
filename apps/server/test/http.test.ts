import { describe, expect, it } from "vitest";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";

describe.each(drivers)("HTTP basics on %s", (driver) => {
  const t = useTestApp(driver);
  /** A sign-in request with this body text, sent as `contentType`. */
  const signInWith = (contentType: string, payload: string) => t.app.inject({ method: "POST", url: "/api/session/token", headers: { "content-type": contentType }, payload });

  it("reports health with a database round trip", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", database: driver, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it("answers unknown API routes with a JSON 404", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/nothing-here?x=1" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: "not_found", message: "No route for GET /api/nothing-here." } });
  });

  it("answers invalid JSON with a 400 a person can act on", async () => {
    const res = await signInWith("application/json", '{"email": "a@b.c", ');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: "invalid_json", message: "The request body is not valid JSON." });
  });

  it("answers a wrong content type with 415", async () => {
    const res = await signInWith("application/xml", "<email>a</email>");
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe("unsupported_media_type");
  });

  it("answers schema violations with field-level details", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/session/token", payload: { email: 42, password: ["x"] } });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe("validation_failed");
    expect(error.details.fields).toEqual(
      expect.arrayContaining([
        { path: "email", message: "Please enter a valid email." },
        { path: "password", message: "Please provide a valid password." },
      ]),
    );
  });

  it("answers an oversized body with 413, not 500", async () => {
    const res = await signInWith("application/json", JSON.stringify({ email: "a@b.co", password: "x".repeat(2 * 1024 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe("body_too_large");
  });

  it("refuses NUL characters anywhere in the input with a 400, before the database sees them", async () => {
    const body = await t.app.inject({ method: "POST", url: "/api/session/signup", payload: { email: "a@b.co", password: "x\u0000Y#12345678" } });
    expect(body.statusCode).toBe(400);
    expect(body.json().error).toEqual({
      code: "invalid_characters",
      message: "Text may not contain the NUL character (\\u0000).",
      details: { fields: [{ path: "password", message: "Text may not contain the NUL character (\\u0000)." }] },
    });
    const nested = await t.app.inject({ method: "POST", url: "/api/session/token", payload: { list: [{ ["k\u0000"]: 1 }] } });
    expect(nested.json().error.details.fields[0].path).toBe("list.0.k\u0000");
    const query = await t.app.inject({ method: "GET", url: "/api/dev/mailbox?to=%00" });
    expect(query.statusCode).toBe(400);
    expect(query.json().error.details.fields[0].path).toBe("query.to");
  });

  it("refuses deeply nested JSON with a 400 on every route, before anything walks it", async () => {
    const deep = (depth: number, open = "[", close = "]") => `${open.repeat(depth)}${close.repeat(depth)}`;
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const expected = {
      code: "too_deeply_nested",
      message: "The request body nests arrays or objects more than 64 levels deep; no request needs that many. Send a flatter body.",
    };
    for (const [url, payload] of [
      ["/api/session/token", `{"email":"a@b.example","password":${deep(10_000)}}`],
      ["/api/session/signup", `{"email":"a@b.example","password":${objects(100_000)}}`],
      ["/api/session/forgotpassword", deep(65)],
    ] as const) {
      const res = await t.app.inject({ method: "POST", url, headers: { "content-type": "application/json" }, payload });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toEqual(expected);
    }
    // Within the limit (and brackets inside strings do not count): the route's own answer.
    const fine = await signInWith("application/json", `{"email":"a@b.example","password":"${"[".repeat(100)}","x":${deep(63)}}`);
    expect(fine.statusCode, fine.body).toBe(401);
  });

  it("sends security headers and a request id", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("publishes an OpenAPI document generated from the contract", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/health",
        "/api/session/signup",
        "/api/session/validationcode",
        "/api/session/token",
        "/api/session",
        "/api/session/logout",
        "/api/session/forgotpassword",
        "/api/session/resetpassword",
        "/api/session/changepassword",
        "/api/account",
        "/api/userpermission/releasenotesversion",
      ]),
    );
    const tokenBody = doc.paths["/api/session/token"].post.requestBody.content["application/json"].schema;
    expect(tokenBody.required).toEqual(expect.arrayContaining(["email", "password"]));
    expect(doc.paths["/api/account"].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths["/api/session/token"].post.security).toBeUndefined();
  });
});

describe("the API's flood guard", () => {
  const t = useTestApp("pglite", { config: { rateLimits: { globalPerMinute: 3 } } });

  it("limits API calls per address but never the web app's files, health checks or the QuickBooks emulator", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.app.inject({ method: "GET", url: "/api/config" })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    for (let i = 0; i < 5; i++) {
      expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
      expect((await t.app.inject({ method: "GET", url: "/qbo-sandbox/.well-known/openid_configuration" })).statusCode).toBe(200);
      expect((await t.app.inject({ method: "GET", url: "/assets/app.js" })).statusCode).toBe(404); // no web build here: a JSON 404, not 429
    }
  });
});
