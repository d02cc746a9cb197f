import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { ErrorCodes } from "@groupledger/contract";
import { useTestApp } from "./app.ts";
import { testConfig } from "./config.ts";
import { drivers } from "./databases.ts";
import { post, signedInUser } from "./flows.ts";

/**
 * Tenant access (issue 11): every /api route but the public ones refuses a missing, malformed,
 * forged, expired or logged-out token with a 401, reads included; the expired one says
 * EXPIRED_TOKEN (SPEC §8). Routes are enumerated from the app itself, so a new one is covered.
 */
const PUBLIC = new Set(["GET /api/health", "GET /api/config", "GET /api/dev/mailbox"]);
const urlOf = (pattern: string) =>
  pattern.replace(/:(\w+)/g, (_m, name: string) => (name === "id" || (name.endsWith("Id") && name !== "realmId") ? "00000000-0000-4000-8000-000000000000" : "9341453172384023"));

describe.each(drivers)("every signed-in route refuses bad tokens on %s", (driver) => {
  const t = useTestApp(driver);

  it("missing, malformed, forged, expired and logged-out tokens all get 401 on every non-public route", async () => {
    const token = await signedInUser(t.app, "tokens@everywhere.example");
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sub: string; acc: string; ver: number; jti: string };
    const key = new TextEncoder().encode(testConfig().appSecret);
    const expired = await new SignJWT({ acc: claims.acc, ver: claims.ver })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("groupledger")
      .setSubject(claims.sub)
      .setJti("expired-jti-0001")
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    const forged = await new SignJWT({ acc: claims.acc, ver: claims.ver })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("groupledger")
      .setSubject(claims.sub)
      .setJti("forged-jti-0001")
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
      .sign(new TextEncoder().encode("not-the-app-secret-but-long-enough-0123456789"));
    const loggedOut = await signedInUser(t.app, "gone@everywhere.example");
    expect((await post(t.app, "/api/session/logout", undefined, loggedOut)).statusCode).toBeLessThan(300);

    const variants: [string, string | undefined][] = [
      ["missing", undefined],
      ["malformed", "Bearer not-a-token"],
      ["forged", `Bearer ${forged}`],
      ["expired", `Bearer ${expired}`],
      ["logged out", `Bearer ${loggedOut}`],
    ];
    let checked = 0;
    const routes = t.app.routePolicies.filter((p) => p.permission !== "public" && !PUBLIC.has(`${p.method} ${p.url}`) && !p.url.startsWith("/api/docs"));
    expect(routes.length).toBeGreaterThan(60);
    for (const route of routes) {
      for (const [name, authorization] of variants) {
        const res = await t.app.inject({
          method: route.method as "GET",
          url: urlOf(route.url),
          headers: { ...(authorization ? { authorization } : {}), "content-type": "application/json" },
          payload: route.method === "GET" || route.method === "DELETE" ? undefined : "{}",
        });
        expect(res.statusCode, `${name} token on ${route.method} ${route.url}`).toBe(401);
        expect(res.json().error.code, `${name} on ${route.url}`).toBe(name === "expired" ? ErrorCodes.expiredToken : ErrorCodes.invalidToken);
        checked++;
      }
    }
    console.log(`bad tokens refused: ${checked} requests over ${routes.length} routes`);
  });
});
