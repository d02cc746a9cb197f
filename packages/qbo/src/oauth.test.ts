import { describe, expect, it } from "vitest";
import { VirtualClock } from "./clock.ts";
import { INTUIT_PRODUCTION, INTUIT_SANDBOX, sandboxEndpoints } from "./endpoints.ts";
import { QboError } from "./errors.ts";
import { QboOAuth } from "./oauth.ts";
import { connectionReset, fakeFetch, jsonResponse } from "./testing/fake-fetch.ts";
import { readSample } from "./testing/samples.ts";

const bearer = readSample("oauth/intuit-oauth-jsclient__bearer-token.json");
const errorSample = readSample("oauth/intuit-oauth-jsclient__errorResponse.json") as { response: { body: string; status: number; headers: Record<string, string> } };

function oauth(fetchImpl: typeof fetch, clock = new VirtualClock()): QboOAuth {
  return new QboOAuth({
    clientId: "my-client",
    clientSecret: "s3cret:with colon",
    redirectUri: "https://app.example/qbo/callback",
    endpoints: INTUIT_SANDBOX,
    fetch: fetchImpl,
    clock,
    random: () => 0.5,
  });
}

describe("endpoints", () => {
  it("has Intuit's URLs and mirrors them under an emulator root", () => {
    expect(INTUIT_PRODUCTION).toEqual({
      authorizeUrl: "https://appcenter.intuit.com/connect/oauth2",
      tokenUrl: "https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer",
      revokeUrl: "https://developer.api.intuit.com/v2/oauth2/tokens/revoke",
      apiBaseUrl: "https://quickbooks.api.intuit.com",
    });
    expect(INTUIT_SANDBOX.apiBaseUrl).toBe("https://sandbox-quickbooks.api.intuit.com");
    expect(INTUIT_SANDBOX.tokenUrl).toBe(INTUIT_PRODUCTION.tokenUrl);
    expect(sandboxEndpoints("http://127.0.0.1:4010/")).toEqual({
      authorizeUrl: "http://127.0.0.1:4010/connect/oauth2",
      tokenUrl: "http://127.0.0.1:4010/oauth2/v1/tokens/bearer",
      revokeUrl: "http://127.0.0.1:4010/v2/oauth2/tokens/revoke",
      apiBaseUrl: "http://127.0.0.1:4010",
    });
  });
});

describe("QboOAuth", () => {
  it("builds the authorization URL", () => {
    const url = new URL(oauth(fakeFetch(() => jsonResponse({})).fetch).authorizationUrl("st@te/1"));
    expect(url.origin + url.pathname).toBe("https://appcenter.intuit.com/connect/oauth2");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "my-client",
      redirect_uri: "https://app.example/qbo/callback",
      response_type: "code",
      scope: "com.intuit.quickbooks.accounting",
      state: "st@te/1",
    });
  });

  it("reads the callback and checks state", () => {
    const o = oauth(fakeFetch(() => jsonResponse({})).fetch);
    expect(o.parseCallback("https://app.example/qbo/callback?code=AB1&state=xyz&realmId=4620816365", "xyz")).toEqual({ code: "AB1", realmId: "4620816365", state: "xyz" });
    expect(() => o.parseCallback("/cb?code=AB1&state=other&realmId=1", "xyz")).toThrow(/state/);
    expect(() => o.parseCallback(new URLSearchParams("error=access_denied&state=xyz"), "xyz")).toThrow(QboError);
    expect(() => o.parseCallback(new URLSearchParams("state=xyz&code=1"), "xyz")).toThrow(/realmId/);
  });

  it("exchanges a code with Basic auth and a form body; expiry times are absolute", async () => {
    const clock = new VirtualClock(Date.parse("2024-03-05T17:00:00Z"));
    const fake = fakeFetch(() => jsonResponse(bearer));
    const tokens = await oauth(fake.fetch, clock).exchangeCode("code-1");
    const [call] = fake.calls;
    expect(call?.method).toBe("POST");
    expect(call?.url.href).toBe("https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer");
    expect(call?.headers.get("authorization")).toBe(`Basic ${Buffer.from("my-client:s3cret:with colon").toString("base64")}`);
    expect(call?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(call?.body))).toEqual({ grant_type: "authorization_code", code: "code-1", redirect_uri: "https://app.example/qbo/callback" });
    expect(tokens.accessTokenExpiresAt).toBe(Date.parse("2024-03-05T18:00:00Z"));
    expect(tokens.refreshTokenExpiresAt).toBe(Date.parse("2024-03-05T17:00:00Z") + 8726400_000);
  });

  it("turns invalid_grant into a 'reauthorize' QboError with the intuit_tid", async () => {
    const { status, body, headers } = errorSample.response;
    const fake = fakeFetch(() => new Response(body, { status, headers }));
    const err = await oauth(fake.fetch).refresh("old").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QboError);
    expect(err).toMatchObject({ kind: "reauthorize", code: "invalid_grant", status: 400, intuitTid: "1234-1234-1234-123" });
    expect(fake.calls).toHaveLength(1); // not retried
  });

  it("retries a refresh that met a dropped connection or a 503, never a code exchange", async () => {
    let n = 0;
    const flaky = fakeFetch(() => {
      n++;
      if (n === 1) throw connectionReset();
      if (n === 2) return new Response("", { status: 503 });
      return jsonResponse(bearer);
    });
    const clock = new VirtualClock();
    await expect(oauth(flaky.fetch, clock).refresh("r")).resolves.toMatchObject({ accessToken: "sample_access_token" });
    expect(flaky.calls).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);

    const dropped = fakeFetch(() => {
      throw connectionReset();
    });
    const err = await oauth(dropped.fetch).exchangeCode("c").catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "server", code: "network", status: 0 });
    expect((err as QboError).detail).toContain("ECONNRESET");
    expect(dropped.calls).toHaveLength(1);
  });

  it("revokes with a JSON body", async () => {
    const fake = fakeFetch(() => jsonResponse(readSample("oauth/dotnet-sdk__success_revoketoken_response.json")));
    await oauth(fake.fetch).revoke("refresh-1");
    expect(fake.calls[0]?.url.href).toBe("https://developer.api.intuit.com/v2/oauth2/tokens/revoke");
    expect(fake.calls[0]?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(fake.calls[0]?.body ?? "")).toEqual({ token: "refresh-1" });
  });

  it("calls a token answer without the fields we need an unexpected response", async () => {
    const err = await oauth(fakeFetch(() => jsonResponse({ access_token: "a" })).fetch).exchangeCode("c").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "unexpected_response" });
    const notJson = await oauth(fakeFetch(() => new Response("<html>", { status: 200 })).fetch).exchangeCode("c").catch((e: unknown) => e);
    expect(notJson).toMatchObject({ code: "unexpected_response" });
  });
});
