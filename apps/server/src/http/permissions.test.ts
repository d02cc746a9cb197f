import { describe, expect, it } from "vitest";
import { ROUTE_POLICIES, routePolicy } from "./permissions.ts";

describe("routePolicy", () => {
  it("a route's own declaration wins; a mutating one is blocked for a lapsed trial unless it says otherwise", () => {
    expect(routePolicy("POST", "/api/team/invitations", { permission: "admin" })).toEqual({ method: "POST", url: "/api/team/invitations", permission: "admin", whenLapsed: "blocked", source: "route" });
    expect(routePolicy("PUT", "/api/settings/profile", { permission: "member", whenLapsed: "allowed" })).toMatchObject({ permission: "member", whenLapsed: "allowed", source: "route" });
    // Reading stays possible for a lapsed trial, and public routes have no account to lapse.
    expect(routePolicy("GET", "/api/team", { permission: "admin" })).toMatchObject({ permission: "admin", whenLapsed: "allowed" });
    expect(routePolicy("POST", "/api/session/signup", { permission: "public" })).toMatchObject({ permission: "public", whenLapsed: "allowed" });
    // Declared beats the table.
    expect(routePolicy("PUT", "/api/fxrates", { permission: "admin" })).toMatchObject({ permission: "admin", source: "route" });
  });

  it("else the table", () => {
    expect(routePolicy("PUT", "/api/fxrates", undefined)).toEqual({ method: "PUT", url: "/api/fxrates", permission: "member", whenLapsed: "blocked", source: "table" });
    expect(routePolicy("POST", "/api/consolidation/preview", {})).toMatchObject({ permission: "member", whenLapsed: "allowed", source: "table" });
    expect(routePolicy("GET", "/api/qbo/account/authorize", undefined)).toMatchObject({ permission: "admin", whenLapsed: "blocked", source: "table" });
  });

  it("else a GET is a read and anything mutating is admin-only and blocked: a route added later is safe until it says otherwise (fail closed)", () => {
    expect(routePolicy("GET", "/api/anything/new", undefined)).toEqual({ method: "GET", url: "/api/anything/new", permission: "read", whenLapsed: "allowed", source: "default" });
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(routePolicy(method, "/api/anything/new", {})).toEqual({ method, url: "/api/anything/new", permission: "admin", whenLapsed: "blocked", source: "default" });
    }
  });

  it("the table is keyed by method and route pattern: the same path under another method is not listed", () => {
    expect(routePolicy("GET", "/api/fxrates", undefined)).toMatchObject({ permission: "read", source: "default" });
    for (const key of Object.keys(ROUTE_POLICIES)) expect(key).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/api\/\S+$/);
  });
});
