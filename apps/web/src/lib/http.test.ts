import { endpoint, getSession, postLogout, postToken } from "@groupledger/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { mockApi } from "../test/render.tsx";
import { saveToken } from "../features/session/tokenStore.ts";
import { ApiError, call, setResponseHandlers } from "./http.ts";

// Endpoints of the shapes the contract uses, declared here so the tests don't depend on one feature's.
const getThing = endpoint({
  method: "GET",
  path: "/things/:id",
  params: z.object({ id: z.string() }),
  query: z.object({ from: z.string() }),
  responses: { 200: z.object({ id: z.string(), total: z.coerce.number() }) },
});
const getAnything = (path: "/a" | "/b" | "/c" | "/account" | "/companies") => endpoint({ method: "GET", path, responses: { 200: z.unknown() } });
const getFile = endpoint({ method: "GET", path: "/report.csv", responses: { 200: "file" } });
const postCsv = endpoint({ method: "POST", path: "/import", body: z.string(), bodyType: "text/csv", responses: { 200: z.object({ rows: z.number() }) } });

const user = {
  id: "u1",
  email: "a@example.com",
  permissionLevel: 0,
  accountId: "a1",
  emailVerified: true,
  releaseNotesVersion: "1",
  createdAt: "2026-01-01T00:00:00.000Z",
};

describe("call (the one global response handler)", () => {
  const handlers = { invalidToken: vi.fn(), expiredToken: vi.fn(), unexpected: vi.fn() };
  beforeEach(() => setResponseHandlers(handlers));
  afterEach(() => vi.clearAllMocks());

  it("sends the stored token as a bearer Authorization header and checks the answer against the contract", async () => {
    saveToken("a.b.c");
    const calls = mockApi({ "GET /session": user });
    await expect(call(getSession)).resolves.toEqual(user);
    expect(calls[0]?.headers["authorization"]).toBe("Bearer a.b.c");
  });

  it("sends no Authorization header without a token", async () => {
    const calls = mockApi({ "GET /session": user });
    await call(getSession);
    expect(calls[0]?.headers["authorization"]).toBeUndefined();
  });

  it("drops the token and reloads on 401 'Invalid token', and still rejects", async () => {
    mockApi({ "GET /session": { status: 401, body: { error: { code: "invalid_token", message: "Invalid token" } } } });
    const err = await call(getSession).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(handlers.invalidToken).toHaveBeenCalledOnce();
    expect(handlers.expiredToken).not.toHaveBeenCalled();
  });

  it("runs the expiry handling on EXPIRED_TOKEN and still rejects to the caller", async () => {
    mockApi({ "GET /account": { status: 401, body: { error: { code: "EXPIRED_TOKEN", message: "Your session has expired." } } } });
    await expect(call(getAnything("/account"))).rejects.toMatchObject({ code: "EXPIRED_TOKEN", message: "Your session has expired." });
    expect(handlers.expiredToken).toHaveBeenCalledOnce();
    expect(handlers.invalidToken).not.toHaveBeenCalled();
  });

  it("leaves other 401s (wrong password) to the form", async () => {
    mockApi({ "POST /session/token": { status: 401, body: { error: { code: "invalid_credentials", message: "Incorrect email or password." } } } });
    await expect(call(postToken, { body: { email: "a@example.com", password: "x" } })).rejects.toMatchObject({ message: "Incorrect email or password." });
    expect(handlers.invalidToken).not.toHaveBeenCalled();
    expect(handlers.unexpected).not.toHaveBeenCalled();
  });

  it("raises the error bar for server faults and unreachable servers, not for 4xx", async () => {
    mockApi({
      "GET /a": { status: 500, body: { error: { code: "internal_error", message: "boom" } } },
      "GET /b": { status: 400, body: { error: { code: "validation_failed", message: "bad", details: { fields: [{ path: "email", message: "Please enter a valid email." }] } } } },
    });
    await expect(call(getAnything("/a"))).rejects.toMatchObject({ status: 500 });
    expect(handlers.unexpected).toHaveBeenCalledOnce();
    const bad = (await call(getAnything("/b")).catch((e: unknown) => e)) as ApiError;
    expect(handlers.unexpected).toHaveBeenCalledOnce();
    expect(bad.fieldErrors()).toEqual({ email: "Please enter a valid email." });

    globalThis.fetch = (() => Promise.reject(new TypeError("Failed to fetch"))) as typeof fetch;
    await expect(call(getAnything("/c"))).rejects.toMatchObject({ status: 0, code: "network_error" });
    expect(handlers.unexpected).toHaveBeenCalledTimes(2);
  });

  it("raises the error bar when a company needs re-authorization (QuickBooks errorCode 003200): by the answer's code, whatever its words", async () => {
    mockApi({
      "GET /companies": {
        status: 409,
        body: { error: { code: "qbo_reauthorization_required", message: "QuickBooks Online asked for Acme to be re-authorized (errorCode 003200)." } },
      },
      "GET /a": { status: 409, body: { error: { code: "qbo_reauthorization_required", message: "Reconnect Acme." } } },
      "GET /b": { status: 409, body: { error: { code: "books_closed", message: "A message that quotes errorCode=003200 is still only a 409." } } },
    });
    await expect(call(getAnything("/companies"))).rejects.toMatchObject({ status: 409 });
    await expect(call(getAnything("/a"))).rejects.toMatchObject({ status: 409 });
    expect(handlers.unexpected).toHaveBeenCalledTimes(2);
    await expect(call(getAnything("/b"))).rejects.toMatchObject({ code: "books_closed" });
    expect(handlers.unexpected).toHaveBeenCalledTimes(2);
  });

  it("treats an answer that breaks the contract as an unexpected failure", async () => {
    mockApi({ "GET /session": { ...user, email: 42 } });
    await expect(call(getSession)).rejects.toMatchObject({ code: "bad_response", message: "The server's answer to GET /session has an unexpected shape." });
    expect(handlers.unexpected).toHaveBeenCalledOnce();
  });

  it("skips the global handler when asked (logout with a refused token)", async () => {
    mockApi({ "POST /session/logout": { status: 401, body: { error: { code: "invalid_token", message: "Invalid token" } } } });
    await expect(call(postLogout, {}, { skipGlobalHandler: true })).rejects.toBeInstanceOf(ApiError);
    expect(handlers.invalidToken).not.toHaveBeenCalled();
  });

  it("builds the path from the declaration's params and query, and returns the answer as its schema parses it", async () => {
    const calls = mockApi({ "GET /things/a%2Fb": { id: "a/b", total: "12" } });
    await expect(call(getThing, { params: { id: "a/b" }, query: { from: "2024-01" } })).resolves.toEqual({ id: "a/b", total: 12 });
    expect(calls[0]).toMatchObject({ method: "GET", path: "/things/a%2Fb" });
  });

  it("downloads a file declared as one: its bytes and the server's Content-Disposition", async () => {
    globalThis.fetch = (async () =>
      new Response("a,b\n1,2\n", { status: 200, headers: { "content-disposition": 'attachment; filename="r.csv"' } })) as typeof fetch;
    const file = await call(getFile);
    expect(await file.blob.text()).toBe("a,b\n1,2\n");
    expect(file.disposition).toBe('attachment; filename="r.csv"');
  });

  it("sends a text body as its declared type, not as JSON", async () => {
    let sent: RequestInit | undefined;
    globalThis.fetch = (async (_: RequestInfo | URL, init?: RequestInit) => {
      sent = init;
      return new Response(JSON.stringify({ rows: 2 }), { status: 200 });
    }) as typeof fetch;
    await expect(call(postCsv, { body: "month,rate\n" })).resolves.toEqual({ rows: 2 });
    expect(sent?.body).toBe("month,rate\n");
    expect((sent?.headers as Record<string, string>)["content-type"]).toBe("text/csv");
  });
});
