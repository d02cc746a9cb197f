import { demoFxRates } from "@groupledger/qbo-sandbox";
import { describe, expect, it } from "vitest";
import { companies } from "../src/db/schema.ts";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { get, signedInUser } from "./flows.ts";

describe.each(drivers)("fetching FX rates on %s", (driver) => {
  const t = useTestApp(driver);
  const unreachable = useTestApp(driver, { config: { fxRatesUrl: "http://127.0.0.1:1/fx" } });
  const post = (app: typeof t.app, token: string, payload: unknown) =>
    app.inject({ method: "POST", url: "/api/fxrates/fetch", payload: payload as object, headers: { authorization: `Bearer ${token}` } });

  async function owner(app: typeof t.app, db: typeof t.db, email: string) {
    const token = await signedInUser(app, email);
    const accountId = (await get(app, "/api/session", token)).json().accountId;
    const p = email.split("@")[0];
    await db.database.db.insert(companies).values([
      { accountId, realmId: `${p}-us`, companyName: "Parent", country: "US", homeCurrency: "USD", isParent: true },
      { accountId, realmId: `${p}-uk`, companyName: "UK", country: "GB", homeCurrency: "GBP" },
      { accountId, realmId: `${p}-de`, companyName: "DE", country: "DE", homeCurrency: "EUR" },
    ]);
    return token;
  }

  it("fills the grid from the offline ECB-style service, keeping what was entered unless asked to overwrite", async () => {
    const token = await owner(t.app, t.db, "fetch@rates.example");
    await t.app.inject({
      method: "PUT",
      url: "/api/fxrates",
      payload: { rates: [{ currency: "GBP", month: "2026-09", avgfx: "1.5", endfx: "" }] },
      headers: { authorization: `Bearer ${token}` },
    });
    const res = await post(t.app, token, { from: "2026-09", to: "2026-10" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ updated: 4, months: 2, currencies: ["EUR", "GBP"] });
    const grid = (await get(t.app, "/api/fxrates?from=2026-09&to=2026-10", token)).json().rates;
    const gbpOct = grid.find((r: { currency: string; month: string }) => r.currency === "GBP" && r.month === "2026-10");
    const demo = demoFxRates().find((r) => r.currency === "GBP" && r.month === "2026-10")!;
    expect(Number(gbpOct.avgfx)).toBeCloseTo(Number(demo.average), 4);
    expect(Number(gbpOct.endfx)).toBeCloseTo(Number(demo.closing), 5);
    const gbpSep = grid.find((r: { currency: string; month: string }) => r.currency === "GBP" && r.month === "2026-09");
    expect(gbpSep.avgfx).toBe("1.5"); // kept
    expect(gbpSep.endfx).not.toBe("");

    const overwritten = await post(t.app, token, { from: "2026-09", to: "2026-09", overwrite: true });
    expect(overwritten.json().updated).toBe(1);
    expect((await get(t.app, "/api/fxrates?from=2026-09&to=2026-09", token)).json().rates.find((r: { currency: string }) => r.currency === "GBP").avgfx).not.toBe("1.5");
    const again = await post(t.app, token, { from: "2026-09", to: "2026-10" });
    expect(again.json()).toMatchObject({ updated: 0, unchanged: 4 });

    expect((await post(t.app, token, { from: "2026-10", to: "2026-09" })).json().error.message).toBe("Choose a range from an earlier month to a later one (2026-10 is after 2026-09).");
    expect((await post(t.app, token, { from: "2010-01", to: "2026-09" })).json().error.message).toBe("Fetch at most 120 months at once.");
    expect((await post(t.app, token, { from: "Sep", to: "2026-09" })).statusCode).toBe(400);
    const trail = (await get(t.app, "/api/account/audit", token)).json().entries.map((e: { action: string }) => e.action);
    expect(trail.filter((a: string) => a === "fx.rates_changed").length).toBeGreaterThanOrEqual(3);
  });

  it("answers 502 with what to do when the rates service is down, and saves nothing", async () => {
    const token = await owner(unreachable.app, unreachable.db, "down@rates.example");
    const res = await post(unreachable.app, token, { from: "2026-09", to: "2026-10" });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toMatch(/^Rates could not be fetched: the rates service could not be reached .*\. Try again later, or enter or import them\.$/);
    expect((await get(unreachable.app, "/api/fxrates?from=2026-09&to=2026-10", token)).json().rates.every((r: { avgfx: string }) => r.avgfx === "")).toBe(true);
  });
});
