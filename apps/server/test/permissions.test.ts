import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { ADMIN_ONLY_MESSAGE, ErrorCodes, errorBodySchema } from "@groupledger/contract";
import { ROUTE_POLICIES } from "../src/http/permissions.ts";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { GOOD_PASSWORD, post, signedInUser } from "./flows.ts";
import { addMember } from "./team-helpers.ts";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A URL for a route pattern: path parameters get a syntactically valid placeholder. */
const urlOf = (pattern: string) =>
  pattern.replace(/:(\w+)/g, (_m, name: string) => (name === "id" || name.endsWith("Id") && name !== "realmId" ? "00000000-0000-4000-8000-000000000000" : "9341453172384023"));

async function call(app: FastifyInstance, method: string, url: string, token: string) {
  return app.inject({
    method: method as "POST",
    url,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    payload: "{}",
  });
}

describe.each(drivers)("permission levels on every route on %s", (driver) => {
  const t = useTestApp(driver);

  it("every table entry names a registered route (no stale policies)", () => {
    const registered = new Set(t.app.routePolicies.map((p) => `${p.method} ${p.url}`));
    for (const key of Object.keys(ROUTE_POLICIES)) expect(registered, key).toContain(key);
  });

  it("a mutating route that declares nothing is admin-only (fail closed)", () => {
    const defaults = t.app.routePolicies.filter((p) => MUTATING.has(p.method) && p.source === "default");
    expect(defaults.length).toBeGreaterThan(0);
    for (const p of defaults) expect(p, `${p.method} ${p.url}`).toMatchObject({ permission: "admin", whenLapsed: "blocked" });
  });

  it("a member is refused every admin route with 403 before the body is read, and reaches every member route", async () => {
    const adminToken = await signedInUser(t.app, "perm-admin@example.com");
    const memberToken = await addMember(t.app, adminToken, "perm-member@example.com", 0);
    const mutating = t.app.routePolicies.filter((p) => MUTATING.has(p.method) || p.permission === "admin");
    expect(mutating.length).toBeGreaterThanOrEqual(30);
    const seen = { admin: 0, member: 0, public: 0 };
    for (const policy of mutating) {
      if (policy.permission === "read") continue;
      // Routes that end the caller's session are checked on their own below.
      if (policy.url === "/api/session/logout/all" || policy.url === "/api/session/logout") continue;
      // QuickBooks' webhooks are proven by their signature, not a session (401 without it): test/webhooks.test.ts.
      if (policy.url === "/api/qbo/webhooks") continue;
      const res = await call(t.app, policy.method, urlOf(policy.url), memberToken);
      const label = `${policy.method} ${policy.url} (${res.statusCode}: ${res.body.slice(0, 200)})`;
      seen[policy.permission] += 1;
      if (policy.permission === "admin") {
        expect(res.statusCode, label).toBe(403);
        const body = errorBodySchema.parse(res.json());
        expect(body.error, label).toEqual({
          code: ErrorCodes.permissionDenied,
          message: ADMIN_ONLY_MESSAGE,
          details: { required: "admin", permissionLevel: 0 },
        });
      } else {
        expect(res.statusCode, label).not.toBe(403);
        expect(res.statusCode, label).not.toBe(401);
        expect(res.statusCode, label).toBeLessThan(500);
      }
    }
    expect(seen.admin).toBeGreaterThanOrEqual(10);
    expect(seen.member).toBeGreaterThanOrEqual(15);
    // The same admin routes are reached by the admin (whatever they then answer, it is not a 403).
    for (const policy of mutating.filter((p) => p.permission === "admin")) {
      const res = await call(t.app, policy.method, urlOf(policy.url), adminToken);
      expect(res.statusCode, `${policy.method} ${policy.url}: ${res.body.slice(0, 200)}`).not.toBe(403);
      expect(res.statusCode).toBeLessThan(500);
    }
  }, 120_000);

  it("without a session every non-public mutating route answers 401", async () => {
    for (const policy of t.app.routePolicies) {
      if (!MUTATING.has(policy.method) || policy.permission === "public") continue;
      const res = await t.app.inject({ method: policy.method as "POST", url: urlOf(policy.url), payload: {} });
      expect(res.statusCode, `${policy.method} ${policy.url}`).toBe(401);
    }
  });

  it("a member may log out everywhere", async () => {
    const adminToken = await signedInUser(t.app, "perm-admin2@example.com");
    const memberToken = await addMember(t.app, adminToken, "perm-member2@example.com", 0);
    const res = await post(t.app, "/api/session/logout/all", undefined, memberToken);
    expect(res.statusCode).toBe(204);
    const after = await post(t.app, "/api/session/token", { email: "perm-member2@example.com", password: GOOD_PASSWORD });
    expect(after.statusCode).toBe(200);
  });
});
