/** OAuth: consent page, code exchange, rotation with Intuit's 24-hour grace, revocation, 401/403. */
import { describe, expect, it } from "vitest";
import { authFailureResponse } from "../faults.ts";
import { BASIC, harness, q, REDIRECT, testClock } from "../testing/harness.ts";
import { sample, shapeProblems } from "../testing/shape.ts";

const HOUR = 3600_000;

describe("token endpoint", () => {
  it("answers like the samples, and an authorization code works once", async () => {
    const h = await harness();
    const code = h.sandbox.issueAuthorizationCode(h.realms[1] as string, REDIRECT);
    const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT };
    const first = await h.tokenRequest(form);
    expect(first.statusCode).toBe(200);
    const json = first.json() as Record<string, unknown>;
    expect(shapeProblems(json, [sample("oauth/intuit-oauth-jsclient__bearer-token.json")], { checkOrder: false })).toEqual([]);
    expect(json).toMatchObject({ token_type: "bearer", expires_in: 3600, x_refresh_token_expires_in: 8_640_000 });
    expect(first.headers["intuit_tid"]).toBeDefined();
    const again = await h.tokenRequest(form);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error_description: "Token invalid", error: "invalid_grant" });
    expect(again.headers["intuit_tid"]).toBeDefined();
  });

  it("refuses a wrong client secret with invalid_client, and a code for another redirect_uri", async () => {
    const h = await harness();
    const code = h.sandbox.issueAuthorizationCode(h.realms[0] as string, REDIRECT);
    const bad = await h.tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT }, `Basic ${Buffer.from("sandbox-client-id:wrong").toString("base64")}`);
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ error: "invalid_client" });
    const other = await h.tokenRequest({ grant_type: "authorization_code", code, redirect_uri: "https://elsewhere.example/cb" });
    expect(other.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("rotates refresh tokens; the previous one keeps working for 24 hours after a newer one, then not", async () => {
    const clock = testClock();
    const h = await harness({ now: clock.now });
    const realm = h.realms[0] as string;
    const t0 = await h.tokens(realm);
    const r1 = await h.tokenRequest({ grant_type: "refresh_token", refresh_token: t0.refresh_token });
    expect(r1.statusCode).toBe(200);
    const t1 = r1.json() as { refresh_token: string; access_token: string };
    expect(t1.refresh_token).not.toBe(t0.refresh_token);
    clock.advance(23 * HOUR);
    const stillOk = await h.tokenRequest({ grant_type: "refresh_token", refresh_token: t0.refresh_token });
    expect(stillOk.statusCode).toBe(200);
    clock.advance(2 * HOUR);
    const tooLate = await h.tokenRequest({ grant_type: "refresh_token", refresh_token: t0.refresh_token });
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.json()).toMatchObject({ error: "invalid_grant" });
    const newest = (stillOk.json() as { refresh_token: string }).refresh_token;
    expect((await h.tokenRequest({ grant_type: "refresh_token", refresh_token: newest })).statusCode).toBe(200);
  });

  it("expires access tokens after an hour with the recorded 401 3200 shape", async () => {
    const clock = testClock();
    const h = await harness({ now: clock.now });
    const realm = h.realms[0] as string;
    const { access_token } = await h.tokens(realm);
    expect((await h.get(realm, "preferences", access_token)).statusCode).toBe(200);
    clock.advance(HOUR + 1000);
    const res = await h.get(realm, "preferences", access_token);
    expect(res.statusCode).toBe(401);
    const recorded = sample("errors/401_AuthenticationFailed_3200_token_expired__minimul-qbo_api.json") as { body: object };
    expect(shapeProblems(res.json(), [recorded.body])).toEqual([]);
    expect(res.json()).toMatchObject({ fault: { error: [{ code: "3200", detail: expect.stringMatching(/^Token expired: /) }], type: "AUTHENTICATION" } });
    expect(res.headers["www-authenticate"]).toBe(authFailureResponse().headers["WWW-Authenticate"]);
  });

  it("revokes the whole grant with either token", async () => {
    const h = await harness();
    const realm = h.realms[0] as string;
    const t = await h.tokens(realm);
    const res = await h.app.inject({ method: "POST", url: "/v2/oauth2/tokens/revoke", headers: { authorization: BASIC, "content-type": "application/json" }, payload: { token: t.refresh_token } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    const api = await h.get(realm, q("SELECT * FROM Account"), t.access_token);
    expect(api.statusCode).toBe(401);
    expect(api.json()).toMatchObject({ fault: { error: [{ code: "3200", detail: "Token revoked" }] } });
    const refresh = await h.tokenRequest({ grant_type: "refresh_token", refresh_token: t.refresh_token });
    expect(refresh.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("binds a token to its realm: another company answers 403 AuthorizationFault 3100", async () => {
    const h = await harness();
    const t = await h.tokens(h.realms[0] as string);
    const res = await h.get(h.realms[1] as string, "preferences", t.access_token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ Fault: { Error: [{ code: "3100" }], type: "AuthorizationFault" } });
    expect((await h.get(h.realms[0] as string, "preferences", "not-a-token")).statusCode).toBe(401);
  });

  it("treats every access token as expired when the fault is set", async () => {
    const h = await harness();
    const realm = h.realms[0] as string;
    const t = await h.tokens(realm);
    h.sandbox.setFaults({ expireAccessTokens: true });
    const res = await h.get(realm, "preferences", t.access_token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ fault: { error: [{ code: "3200" }] } });
  });
});

describe("consent page", () => {
  const authorize = (params: Record<string, string>): string => `/qbo-sandbox/connect/oauth2?${new URLSearchParams(params).toString()}`;
  const good = { client_id: "sandbox-client-id", redirect_uri: REDIRECT, response_type: "code", scope: "com.intuit.quickbooks.accounting", state: "s-123" };

  it("lists the companies and redirects back with code, state and realmId; the code works", async () => {
    const h = await harness({}, "/qbo-sandbox");
    const page = await h.app.inject({ method: "GET", url: authorize(good) });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain("Connect to GroupLedger");
    expect(page.body).toContain('action="/qbo-sandbox/connect/oauth2"');
    for (const c of h.sandbox.companies()) expect(page.body).toContain(`value="${c.realmId}"`);
    expect(page.body).not.toMatch(/<(script|link)\b/);
    const realmId = h.realms[3] as string;
    const post = await h.app.inject({
      method: "POST",
      url: "/qbo-sandbox/connect/oauth2",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ ...good, realmId, decision: "connect" }).toString(),
    });
    expect(post.statusCode).toBe(302);
    const location = new URL(post.headers["location"] as string);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get("state")).toBe("s-123");
    expect(location.searchParams.get("realmId")).toBe(realmId);
    const token = await h.app.inject({
      method: "POST",
      url: "/qbo-sandbox/oauth2/v1/tokens/bearer",
      headers: { authorization: BASIC, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ grant_type: "authorization_code", code: location.searchParams.get("code") as string, redirect_uri: REDIRECT }).toString(),
    });
    expect(token.statusCode).toBe(200);
  });

  it("redirects with access_denied on Cancel and shows clear error pages for a bad request", async () => {
    const h = await harness({}, "/qbo-sandbox");
    const cancel = await h.app.inject({
      method: "POST",
      url: "/qbo-sandbox/connect/oauth2",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ ...good, decision: "cancel" }).toString(),
    });
    expect(cancel.statusCode).toBe(302);
    const location = new URL(cancel.headers["location"] as string);
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("s-123");
    for (const [field, value, message] of [
      ["client_id", "nope", "Unknown client_id"],
      ["response_type", "token", "response_type"],
      ["scope", "openid", "scope must include"],
    ] as const) {
      const res = await h.app.inject({ method: "GET", url: authorize({ ...good, [field]: value }) });
      expect(res.statusCode, field).toBe(400);
      expect(res.body, field).toContain(message);
    }
  });

  it("publishes a discovery document pointing at its own endpoints", async () => {
    const h = await harness({}, "/qbo-sandbox");
    const res = await h.app.inject({ method: "GET", url: "/qbo-sandbox/.well-known/openid_configuration", headers: { host: "localhost:8080" } });
    const doc = res.json() as Record<string, string>;
    expect(Object.keys(doc)).toEqual(Object.keys(sample("oauth/dotnet-sdk__discovery.json") as object));
    expect(doc["token_endpoint"]).toBe("http://localhost:8080/qbo-sandbox/oauth2/v1/tokens/bearer");
    expect(doc["authorization_endpoint"]).toBe("http://localhost:8080/qbo-sandbox/connect/oauth2");
    expect(doc["revocation_endpoint"]).toBe("http://localhost:8080/qbo-sandbox/v2/oauth2/tokens/revoke");
  });
});
