import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { errorBodySchema } from "@groupledger/contract";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { post, signedInUser } from "./flows.ts";

/** Strings that have broken other people's servers. */
const nasty = [
  "' OR 1=1 --",
  "'; drop table users; --",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "../../../../etc/passwd",
  "\u0000",
  "\uD800",
  "🙂".repeat(300),
  "a".repeat(70_000),
  "%00%ff",
  "__proto__",
  "constructor",
  "NaN",
  "-1e309",
  "9".repeat(400),
];

const scalar = fc.oneof(
  fc.constantFrom(...nasty),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("v"), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 12 }), tie("v"), { maxKeys: 4 })),
})).v;

/** Bodies near the real shapes (right keys, wrong values) find more than pure noise. */
const knownKeys = ["permissionLevel", "newEmail", "confirmPassword", "token", "plan", "JE", "checked", "from", "to", "overwrite", "ctaAccountId", "ownershipPercent", "historical", "map", "accountIds", "rates", "date", "realmId", "state", "email", "password", "validationCode", "code", "currentPassword", "newPassword", "version", "onboarding", "onboardingStep", "nabAccounts", "name", "year", "month", "naturalYear", "naturalMonth", "period", "kind", "realmIds", "approve", "left", "right", "differenceTo"];
const body = fc.oneof(
  value,
  fc.dictionary(fc.constantFrom(...knownKeys), value, { maxKeys: 6 }),
  fc.dictionary(fc.constantFrom(...knownKeys), scalar, { maxKeys: 6 }),
);
/** A valid body per route; the fuzzer replaces one field at a time so requests reach the handlers. */
const validBodies: Record<string, Record<string, unknown>> = {
  "POST /api/session/signup": { email: "fuzz-new@example.com", password: "Ledger#2026x" },
  "POST /api/session/resendcode": { email: "fuzz-new@example.com" },
  "POST /api/session/forgotpassword": { email: "fuzz-owner@example.com" },
  "POST /api/session/validationcode": { validationCode: "ABCD-EFGH", email: "fuzz-new@example.com" },
  "POST /api/session/token": { email: "fuzz-owner@example.com", password: "Ledger#2026x" },
  "POST /api/session/resetpassword": { email: "fuzz-owner@example.com", code: "ABCD-EFGH", password: "Ledger#2026y" },
  "POST /api/session/changepassword": { currentPassword: "Ledger#2026x", newPassword: "Ledger#2026z" },
  "PATCH /api/account": { name: "Fuzz Group", onboarding: true, onboardingStep: 1, nabAccounts: [{ realmId: "1", neverABalanceAccountsForCompany: ["2"] }] },
  "POST /api/userpermission/releasenotesversion": { version: "1" },
  "POST /api/obal": { year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 },
  "PUT /api/cta/{realmId}": { ownershipPercent: "80", dividendRatePolicy: "profitPeriod", historical: [{ accountId: "1", historicalRate: "1.2" }] },
  "POST /api/cta/account": { name: "Accumulated OCI – Translation" },
  "POST /api/fxrates/fetch": { from: "2026-09", to: "2026-10", overwrite: false },
  "POST /api/obal/review": { realmId: "9341453172384023" },
  "POST /api/obal/unreview": { realmId: "9341453172384023" },
  "POST /api/obal/confirm": { realmId: "9341453172384023" },
  "POST /api/obal/unconfirm": { realmId: "9341453172384023" },
  "POST /api/postIsDeletedFlag": { realmId: "9341453172384023" },
  "POST /api/setDontShowDuplicateJEModalFlag": { JE: "obal", checked: true },
  "PUT /api/fxrates": { rates: [{ currency: "GBP", month: "2026-10", avgfx: "1.27", endfx: "1.28" }] },
  "POST /api/companies/parent": { realmId: "9341453172384015" },
  "POST /api/companies/archive/{realmId}": { date: "2026-06-30" },
  "POST /api/companies/{realmId}/map": { map: { "1": "2" } },
  "POST /api/companies/{realmId}/multimap": { map: { "2": ["1"] } },
  "POST /api/companies/{realmId}/unmap": { accountIds: ["1"] },
  "POST /api/companies/{realmId}/unmap/invalidmaps": { accountIds: ["1"] },
  "POST /api/qbo/account/callback": { state: "s", code: "c", realmId: "9341453172384015" },
  "POST /api/team/invitations": { email: "fuzz-invitee@example.com", permissionLevel: 0 },
  "PATCH /api/team/members/{id}": { permissionLevel: 1 },
  "POST /api/invitations/lookup": { token: "abcdefghijklmnopqrstuvwxyz0123456789_-AB" },
  "POST /api/invitations/accept": { token: "abcdefghijklmnopqrstuvwxyz0123456789_-AB", name: "Fuzz", password: "Ledger#2026y", confirmPassword: "Ledger#2026y" },
  "PATCH /api/settings/profile": { name: "Fuzz Owner" },
  "POST /api/settings/email": { newEmail: "fuzz-new-address@example.com", currentPassword: "Ledger#2026x" },
  "POST /api/settings/email/verify": { code: "ABCD-EFGH" },
  "PATCH /api/excel/update": { email: "fuzz-reports@example.com" },
  "POST /api/excel/verify": { code: "ABCD-EFGH" },
  "POST /api/billing/subscribe": { plan: "group", token: "tok_test_0123456789abcdef" },
  "POST /api/consolidation/preview": { realmId: "9341453172384023", period: { kind: "month", year: 2026, month: 1 } },
  "POST /api/consolidation/post": { realmId: "9341453172384023", period: { kind: "quarter", year: 2026, month: 3 } },
  "POST /api/consolidation/postings/{postingId}/repost": { approve: true },
  "POST /api/multipleconsolidation/runs": { realmIds: ["9341453172384023"], from: "2026-01", to: "2026-03" },
  "POST /api/eliminations/pairs": { name: "Loan", kind: "receivablePayable", left: { realmId: "9341453172384015", accountId: "1" }, right: { realmId: "9341453172384023", accountId: "2" }, differenceTo: "fx" },
  "POST /api/eliminations/post": { period: { kind: "month", year: 2026, month: 1 } },
  "PUT /api/eliminations/tolerance": { tolerance: 100 },
  "POST /api/consolidation/report/email": { from: "2026-01", to: "2026-03", compare: "none" },
};
const nearValid = (route: string) => {
  const base = validBodies[route] ?? {};
  const keys = Object.keys(base);
  return fc.oneof(
    fc.constant(base),
    keys.length === 0
      ? fc.constant(base)
      : fc.tuple(fc.constantFrom(...keys), fc.oneof(fc.constantFrom(...nasty), scalar, value)).map(([k, v]) => ({ ...base, [k]: v })),
    fc.tuple(fc.constantFrom("__proto__", "constructor", "accountId", "extra"), value).map(([k, v]) => ({ ...base, [k]: v })),
  );
};

const rawBody = fc.oneof(fc.constantFrom("{", "[", "null", '{"a":', "\u0000", "true", '"x"'), fc.string({ maxLength: 200 }));
const query = fc.dictionary(fc.constantFrom("to", "from", "compare", "account", "kind", "year", "month", "limit", "x", "__proto__", "realmId"), fc.oneof(fc.constantFrom(...nasty), fc.string({ maxLength: 20 })), { maxKeys: 3 });
const auth = (token: string) =>
  fc.constantFrom<string | undefined>(undefined, `Bearer ${token}`, "Bearer", "Bearer a.b", "Basic Zm9vOmJhcg==", `Bearer ${token}x`, `bearer ${token}`, "Bearer \u0000");

const RUNS_PER_ROUTE = 60;

describe.each(drivers)("hostile input on every API route on %s", (driver) => {
  const t = useTestApp(driver, { config: { rateLimits: { globalPerMinute: 1_000_000 } } });

  it("never answers 5xx, and every error has the documented shape", async () => {
    const token = await signedInUser(t.app, "fuzz-owner@example.com");
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const endsSession = (r: { path: string }) =>
      r.path === "/api/session/logout" || r.path === "/api/session/logout/all" || r.path === "/api/session/changepassword";
    // Logging out everywhere ends every token of the user: it goes last of all.
    const rank = (r: { path: string }) => (r.path === "/api/session/logout/all" ? 2 : Number(endsSession(r)));
    routes.sort((a, b) => rank(a) - rank(b));
    const counts: Record<string, number> = {};

    for (const route of routes) {
      // Logout would end the fuzzing session's token: give it throwaway tokens.
      const routeToken =
        route.path === "/api/session/logout" || route.path === "/api/session/logout/all"
          ? (await post(t.app, "/api/session/token", { email: "fuzz-owner@example.com", password: "Ledger#2026x" })).json().token
          : token;
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("raw", "random", "nearValid", "nearValid"),
          fc.oneof(body, nearValid(`${route.method} ${route.path}`)),
          nearValid(`${route.method} ${route.path}`),
          rawBody,
          query,
          auth(routeToken),
          async (kind, json, near, text, q, authorization) => {
          const url = route.path.replace(/\{(\w+)\}/g, "x") + "?" + new URLSearchParams(q as Record<string, string>).toString();
          const hasBody = route.method !== "GET" && route.method !== "DELETE";
          const res = await t.app.inject({
            method: route.method as "GET",
            url,
            headers: {
              ...(authorization ? { authorization } : {}),
              ...(hasBody ? { "content-type": "application/json" } : {}),
            },
            ...(hasBody ? { payload: kind === "raw" ? text : JSON.stringify(kind === "nearValid" ? near : json) } : {}),
          });
          counts[`${route.method} ${route.path}`] = (counts[`${route.method} ${route.path}`] ?? 0) + 1;
          if (res.statusCode >= 500) throw new Error(`${route.method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
          if (res.statusCode >= 400) {
            const parsed = errorBodySchema.safeParse(res.json());
            if (!parsed.success) throw new Error(`${route.method} ${url} answered ${res.statusCode} without the error shape: ${res.body.slice(0, 300)}`);
          }
          },
        ),
        { numRuns: RUNS_PER_ROUTE, seed: 20261121 },
      );
    }
    console.log(
      `fuzzed requests per route:\n${Object.entries(counts)
        .map(([route, n]) => `  ${String(n).padStart(4)}  ${route}`)
        .join("\n")}`,
    );
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(routes.length * RUNS_PER_ROUTE);
  }, 120_000);
});
