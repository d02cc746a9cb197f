import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from "fastify";
import { ADMIN_ONLY_MESSAGE, ErrorCodes, INVALID_TOKEN_MESSAGE, PERMISSION_LEVELS, SUBSCRIPTION_REQUIRED_MESSAGE, subscriptionAccess } from "@groupledger/contract";
import type { Db } from "../db/client.ts";
import { accounts } from "../db/schema.ts";
import { AppError } from "./errors.ts";

/**
 * Who may call a route:
 * - public: anyone, no session (sign-up, sign-in, accepting an invitation).
 * - member: any signed-in user of the account (permissionLevel 0 and up).
 * - admin: permissionLevel 1 (see packages/contract/src/permissions.ts for what that covers).
 * - read: a GET; no check beyond the route's own authentication.
 */
export type RouteAccess = "public" | "member" | "admin";
/** Whether the route still works for an account whose trial lapsed (read-only, contract billing.ts). */
export type WhenLapsed = "allowed" | "blocked";

export interface RoutePolicy {
  method: string;
  url: string;
  permission: RouteAccess | "read";
  whenLapsed: WhenLapsed;
  /** Where the policy came from: the route's own config, the table below, or the fail-closed default. */
  source: "route" | "table" | "default";
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call this route; a mutating /api route that says nothing is admin-only. */
    permission?: RouteAccess;
    /** Default: "blocked" for mutating routes (a lapsed trial is read-only). */
    whenLapsed?: WhenLapsed;
  }
  interface FastifyInstance {
    /** Every /api route's resolved policy, in registration order (tests enumerate it). */
    routePolicies: RoutePolicy[];
  }
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const member = (whenLapsed: WhenLapsed = "blocked") => ({ permission: "member" as const, whenLapsed });
const admin = (whenLapsed: WhenLapsed = "blocked") => ({ permission: "admin" as const, whenLapsed });

/**
 * Routes registered by modules that do not declare `config.permission` themselves. Anything
 * mutating that is in neither place is admin-only and blocked for a lapsed trial: a route someone
 * adds later is safe until they say otherwise. A test fails when an entry names no route.
 */
export const ROUTE_POLICIES: Record<string, { permission: RouteAccess; whenLapsed: WhenLapsed }> = {
  // The caller's own preferences.
  "POST /api/setDontShowDuplicateJEModalFlag": member("allowed"),
  // Preparing a consolidation: mapping, rates, CTA, opening-balance review.
  "POST /api/companies/:realmId/map": member(),
  "POST /api/companies/:realmId/multimap": member(),
  "POST /api/companies/:realmId/unmap": member(),
  "DELETE /api/companies/:realmId/map": member(),
  "POST /api/companies/:realmId/unmap/invalidmaps": member(),
  "PUT /api/fxrates": member(),
  "POST /api/fxrates/import": member(),
  "POST /api/fxrates/fetch": member(),
  "PUT /api/cta/:realmId": member(),
  "PUT /api/acquisitions/:realmId": member(),
  "DELETE /api/acquisitions/:realmId": member(),
  "PUT /api/intragroup/inventory": member(),
  "DELETE /api/intragroup/inventory/:id": member(),
  "PUT /api/intragroup/dividends/:realmId": member(),
  "DELETE /api/intragroup/dividends/:realmId": member(),
  "POST /api/obal/review": member(),
  "POST /api/obal/unreview": member(),
  "POST /api/obal/confirm": member(),
  "POST /api/obal/unconfirm": member(),
  // A preview computes without changing anything: a read that needs a body, so a lapsed trial may too.
  "POST /api/consolidation/preview": member("allowed"),
  // Starting "Connect company" is a GET, but it is the first step of connecting: admin only.
  "GET /api/qbo/account/authorize": admin(),
};

/** A route's policy: what it declares, else the table above, else read for GETs and admin-only for anything mutating. */
export function routePolicy(method: string, url: string, config: RouteOptions["config"]): RoutePolicy {
  const declared = config?.permission;
  if (declared) {
    const whenLapsed = config.whenLapsed ?? (declared === "public" || !MUTATING.has(method) ? "allowed" : "blocked");
    return { method, url, permission: declared, whenLapsed, source: "route" };
  }
  const listed = ROUTE_POLICIES[`${method} ${url}`];
  if (listed) return { method, url, ...listed, source: "table" };
  if (!MUTATING.has(method)) return { method, url, permission: "read", whenLapsed: "allowed", source: "default" };
  return { method, url, permission: "admin", whenLapsed: "blocked", source: "default" };
}

const invalidToken = () => new AppError(401, ErrorCodes.invalidToken, INVALID_TOKEN_MESSAGE);

const longDate = (d: Date) => d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

function enforcer(db: Db, policy: RoutePolicy): onRequestHookHandler {
  return async function enforcePermission(request: FastifyRequest) {
    // The route's own authentication ran before this hook (it is appended last): no auth here
    // means the route forgot it, and a mutating route without a caller is refused.
    const auth = request.auth;
    if (!auth) throw invalidToken();
    if (policy.permission === "admin" && auth.user.permissionLevel < PERMISSION_LEVELS.admin) {
      throw new AppError(403, ErrorCodes.permissionDenied, ADMIN_ONLY_MESSAGE, { required: "admin", permissionLevel: auth.user.permissionLevel });
    }
    if (policy.whenLapsed === "blocked") {
      const [account] = await db
        .select({ status: accounts.subscriptionStatus, trialEndsAt: accounts.trialEndsAt })
        .from(accounts)
        .where(eq(accounts.id, auth.user.accountId))
        .limit(1);
      if (!account) throw invalidToken();
      if (subscriptionAccess(account.status, account.trialEndsAt, new Date()).readOnly) {
        throw new AppError(402, ErrorCodes.subscriptionRequired, SUBSCRIPTION_REQUIRED_MESSAGE(longDate(account.trialEndsAt)), {
          trialEndedAt: account.trialEndsAt.toISOString(),
        });
      }
    }
  };
}

/**
 * Installs the permission and read-only checks on every /api route as it is registered (so this
 * must run before the route plugins). The check is appended after the route's own onRequest
 * hooks, i.e. after authentication and before the body is parsed: a member gets 403 whatever
 * the body holds.
 */
export function registerPermissions(app: FastifyInstance, db: Db): void {
  const policies: RoutePolicy[] = [];
  app.decorate("routePolicies", policies);
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/")) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
    for (const method of methods) {
      if (method === "HEAD") continue;
      const policy = routePolicy(method, route.url, route.config);
      policies.push(policy);
      if (policy.permission === "read" || policy.permission === "public") continue;
      const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [...existing, enforcer(db, policy)];
    }
  });
}
