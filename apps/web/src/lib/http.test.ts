import { sessionUserSchema } from "@groupledger/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockApi } from "../test/render.tsx";
import { saveToken } from "../features/session/tokenStore.ts";
import { api, ApiError, setResponseHandlers } from "./http.ts";

const user = {
  id: "u1",
  email: "a@example.com",
  permissionLevel: 0,
  accountId: "a1",
  emailVerified: true,
  releaseNotesVersion: "1",
  createdAt: "2026-01-01T00:00:00.000Z",
};

describe("api (the one global response handler)", () => {
  const handlers = { invalidToken: vi.fn(), expiredToken: vi.fn(), unexpected: vi.fn() };
  beforeEach(() => setResponseHandlers(handlers));
  afterEach(() => vi.clearAllMocks());

  it("sends the stored token as a bearer Authorization header and checks the answer against the contract", async () => {
    saveToken("a.b.c");
    const calls = mockApi({ "GET /session": user });
    await expect(api("/session", { schema: sessionUserSchema })).resolves.toEqual(user);
    expect(calls[0]?.headers["authorization"]).toBe("Bearer a.b.c");
  });

  it("sends no Authorization header without a token", async () => {
    const calls = mockApi({ "GET /session": user });
    await api("/session", { schema: sessionUserSchema });
    expect(calls[0]?.headers["authorization"]).toBeUndefined();
  });

  it("drops the token and reloads on 401 'Invalid token', and still rejects", async () => {
    mockApi({ "GET /session": { status: 401, body: { error: { code: "invalid_token", message: "Invalid token" } } } });
    const err = await api("/session", { schema: sessionUserSchema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(handlers.invalidToken).toHaveBeenCalledOnce();
    expect(handlers.expiredToken).not.toHaveBeenCalled();
  });

  it("runs the expiry handling on EXPIRED_TOKEN and still rejects to the caller", async () => {
    mockApi({ "GET /account": { status: 401, body: { error: { code: "EXPIRED_TOKEN", message: "Your session has expired." } } } });
    await expect(api("/account")).rejects.toMatchObject({ code: "EXPIRED_TOKEN", message: "Your session has expired." });
    expect(handlers.expiredToken).toHaveBeenCalledOnce();
    expect(handlers.invalidToken).not.toHaveBeenCalled();
  });

  it("leaves other 401s (wrong password) to the form", async () => {
    mockApi({ "POST /session/token": { status: 401, body: { error: { code: "invalid_credentials", message: "Incorrect email or password." } } } });
    await expect(api("/session/token", { method: "POST", body: {} })).rejects.toMatchObject({ message: "Incorrect email or password." });
    expect(handlers.invalidToken).not.toHaveBeenCalled();
    expect(handlers.unexpected).not.toHaveBeenCalled();
  });

  it("raises the error bar for server faults and unreachable servers, not for 4xx", async () => {
    mockApi({
      "GET /a": { status: 500, body: { error: { code: "internal_error", message: "boom" } } },
      "GET /b": { status: 400, body: { error: { code: "validation_failed", message: "bad", details: { fields: [{ path: "email", message: "Please enter a valid email." }] } } } },
    });
    await expect(api("/a")).rejects.toMatchObject({ status: 500 });
    expect(handlers.unexpected).toHaveBeenCalledOnce();
    const bad = (await api("/b").catch((e: unknown) => e)) as ApiError;
    expect(handlers.unexpected).toHaveBeenCalledOnce();
    expect(bad.fieldErrors()).toEqual({ email: "Please enter a valid email." });

    globalThis.fetch = (() => Promise.reject(new TypeError("Failed to fetch"))) as typeof fetch;
    await expect(api("/c")).rejects.toMatchObject({ status: 0, code: "network_error" });
    expect(handlers.unexpected).toHaveBeenCalledTimes(2);
  });

  it("raises the error bar when a company needs re-authorization (QuickBooks errorCode 003200), whatever the status", async () => {
    mockApi({
      "GET /companies": {
        status: 409,
        body: { error: { code: "qbo_unauthorized", message: "QuickBooks refused the company.", details: { fault: "message=AuthenticationFailed; errorCode=003200; statusCode=401" } } },
      },
    });
    await expect(api("/companies")).rejects.toMatchObject({ status: 409 });
    expect(handlers.unexpected).toHaveBeenCalledOnce();
  });

  it("treats an answer that breaks the contract as an unexpected failure", async () => {
    mockApi({ "GET /session": { ...user, email: 42 } });
    await expect(api("/session", { schema: sessionUserSchema })).rejects.toMatchObject({ code: "bad_response" });
    expect(handlers.unexpected).toHaveBeenCalledOnce();
  });

  it("skips the global handler when asked (logout with a refused token)", async () => {
    mockApi({ "POST /session/logout": { status: 401, body: { error: { code: "invalid_token", message: "Invalid token" } } } });
    await expect(api("/session/logout", { method: "POST", skipGlobalHandler: true })).rejects.toBeInstanceOf(ApiError);
    expect(handlers.invalidToken).not.toHaveBeenCalled();
  });
});
