import { describe, expect, it } from "vitest";
import { companies } from "../src/db/schema.ts";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { get, signedInUser } from "./flows.ts";

describe.each(drivers)("FX rates on %s", (driver) => {
  const t = useTestApp(driver);
  const send = (method: "PUT" | "POST", url: string, token: string, payload: unknown, contentType = "application/json") =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
    });

  async function groupOwner(email: string) {
    const token = await signedInUser(t.app, email);
    const accountId = (await get(t.app, "/api/session", token)).json().accountId;
    const p = email.split("@")[0];
    await t.db.database.db.insert(companies).values([
      { accountId, realmId: `${p}-us`, companyName: "Parent Inc", country: "US", homeCurrency: "USD", isParent: true },
      { accountId, realmId: `${p}-uk`, companyName: "UK Ltd", country: "GB", homeCurrency: "GBP" },
      { accountId, realmId: `${p}-de`, companyName: "DE GmbH", country: "DE", homeCurrency: "EUR" },
      { accountId, realmId: `${p}-us2`, companyName: "US Sub", country: "US", homeCurrency: "USD" },
    ]);
    return token;
  }

  it("keeps a grid of average and month-end rates, validated, normalized and audited", async () => {
    const token = await groupOwner("fx1@rates.example");
    const grid = (await get(t.app, "/api/fxrates?from=2026-08&to=2026-10", token)).json();
    expect(grid).toMatchObject({ parentCurrency: "USD", currencies: ["EUR", "GBP"], months: ["2026-08", "2026-09", "2026-10"] });
    expect(grid.rates).toHaveLength(6);
    expect(grid.rates[0]).toEqual({ currency: "EUR", month: "2026-08", avgfx: "", endfx: "" });

    const put = await send("PUT", "/api/fxrates", token, {
      rates: [
        { currency: "GBP", month: "2026-10", avgfx: "1.2745", endfx: " 1.28100 " },
        { currency: "EUR", month: "2026-10", avgfx: "1.08", endfx: "" },
      ],
    });
    expect(put.json()).toEqual({ updated: 2, unchanged: 0 });
    const after = (await get(t.app, "/api/fxrates?from=2026-10&to=2026-10", token)).json().rates;
    expect(after).toEqual([
      { currency: "EUR", month: "2026-10", avgfx: "1.08", endfx: "" },
      { currency: "GBP", month: "2026-10", avgfx: "1.2745", endfx: "1.281" },
    ]);
    expect((await send("PUT", "/api/fxrates", token, { rates: [{ currency: "GBP", month: "2026-10", avgfx: "1.27450", endfx: "1.281" }] })).json()).toEqual({
      updated: 0,
      unchanged: 1,
    });

    const bad = await send("PUT", "/api/fxrates", token, {
      rates: [
        { currency: "GBP", month: "2026-09", avgfx: "-1.2", endfx: "abc" },
        { currency: "GBP", month: "2026-08", avgfx: "1.00000000001", endfx: "0" },
        { currency: "USD", month: "2026-09", avgfx: "1", endfx: "1" },
        { currency: "JPY", month: "2026-09", avgfx: "0.0067", endfx: "0.0068" },
        { currency: "EUR", month: "2026-10", avgfx: "1.09", endfx: "1.1" },
      ],
    });
    expect(bad.statusCode).toBe(400);
    const rate = "A rate must be a positive number with at most 10 decimal places, such as 1.2745.";
    expect(bad.json().error.details.fields).toEqual([
      { path: "rates.0.avgfx", message: rate },
      { path: "rates.0.endfx", message: rate },
      { path: "rates.1.avgfx", message: rate },
      { path: "rates.1.endfx", message: rate },
      { path: "rates.2.currency", message: "USD is the parent's currency; it needs no rate." },
      { path: "rates.3.currency", message: "JPY is not the currency of any active subsidiary (EUR, GBP)." },
    ]);
    // All or nothing: the valid EUR row was not saved either.
    expect((await get(t.app, "/api/fxrates?from=2026-10&to=2026-10", token)).json().rates[0].endfx).toBe("");

    const shape = await send("PUT", "/api/fxrates", token, { rates: [{ currency: "gbp", month: "2026-13", avgfx: 1.2, endfx: "" }] });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(["rates.0.avgfx", "rates.0.currency", "rates.0.month"]);
    const twice = await send("PUT", "/api/fxrates", token, { rates: [{ currency: "GBP", month: "2026-07", avgfx: "1", endfx: "1" }, { currency: "GBP", month: "2026-07", avgfx: "2", endfx: "2" }] });
    expect(twice.json().error.details.fields).toEqual([{ path: "rates.1", message: "GBP 2026-07 appears twice." }]);

    // Clearing a rate is a change too, and every change is in the audit log with old and new values.
    await send("PUT", "/api/fxrates", token, { rates: [{ currency: "GBP", month: "2026-10", avgfx: "", endfx: "1.281" }] });
    const trail = (await get(t.app, "/api/account/audit", token)).json().entries.filter((e: { action: string }) => e.action === "fx.rates_changed");
    expect(trail).toHaveLength(2);
    expect(trail[0].details.changes).toEqual([{ currency: "GBP", month: "2026-10", avgfx: { old: "1.2745", new: "" }, endfx: { old: "1.281", new: "1.281" } }]);
    expect(trail[0].userEmail).toBe("fx1@rates.example");

    expect((await get(t.app, "/api/fxrates?from=2026-10&to=2026-01", token)).statusCode).toBe(400);
    expect((await get(t.app, "/api/fxrates?from=2010-01&to=2026-10", token)).json().error.code).toBe("invalid_range");
  });

  it("imports a CSV with row-level errors, all or nothing, and serves a template", async () => {
    const token = await groupOwner("fx2@rates.example");
    const template = await t.app.inject({ method: "GET", url: "/api/fxrates/template.csv", headers: { authorization: `Bearer ${token}` } });
    expect(template.headers["content-type"]).toMatch(/^text\/csv/);
    const lines = template.body.trim().split("\r\n");
    expect(lines[0]).toBe("currency,month,avgfx,endfx");
    expect(lines).toHaveLength(7);
    expect(lines[1]).toMatch(/^EUR,\d{4}-\d{2},,$/);

    const good = "currency,month,avgfx,endfx\nGBP,2026-09,1.2701,1.2755\ngbp,2026-10,1.2745,1.281\nEUR,2026-10,1.0801,\n";
    expect((await send("POST", "/api/fxrates/import", token, good, "text/csv")).json()).toEqual({ updated: 3, unchanged: 0 });
    expect((await get(t.app, "/api/fxrates?from=2026-10&to=2026-10", token)).json().rates).toEqual([
      { currency: "EUR", month: "2026-10", avgfx: "1.0801", endfx: "" },
      { currency: "GBP", month: "2026-10", avgfx: "1.2745", endfx: "1.281" },
    ]);

    const rowErrors = await send("POST", "/api/fxrates/import", token, "currency,month,avgfx,endfx\nGBP,2026-08,1.27,1.28\nGBP,Aug 2026,1.27,1.28\nEUR,2026-08,-1,1.1\nCAD,2026-08\n", "text/csv");
    expect(rowErrors.statusCode).toBe(400);
    // One answer names every bad row, whether it does not read or its rate is wrong.
    expect(rowErrors.json().error.message).toBe("3 problems in the file; nothing was imported.");
    expect(rowErrors.json().error.details.fields).toEqual([
      { path: "row 3", message: "Row 3: Use a month like 2026-10." },
      { path: "row 4", message: "Row 4: A rate must be a positive number with at most 10 decimal places, such as 1.2745." },
      { path: "row 5", message: "Row 5 has 2 values; expected 4 (currency, month, avgfx, endfx)." },
    ]);
    const valueErrors = await send("POST", "/api/fxrates/import", token, "currency,month,avgfx,endfx\nEUR,2026-08,-1,1.1\nJPY,2026-08,0.0067,0.0068\n", "text/csv");
    expect(valueErrors.json().error.details.fields).toEqual([
      { path: "row 2", message: "Row 2: A rate must be a positive number with at most 10 decimal places, such as 1.2745." },
      { path: "row 3", message: "Row 3: JPY is not the currency of any active subsidiary (EUR, GBP)." },
    ]);
    expect((await get(t.app, "/api/fxrates?from=2026-08&to=2026-08", token)).json().rates.every((r: { avgfx: string }) => r.avgfx === "")).toBe(true);

    const header = await send("POST", "/api/fxrates/import", token, "ccy;month;avg;end\nGBP;2026-08;1;1\n", "text/csv");
    expect(header.json().error.message).toBe("The first line must be the header currency,month,avgfx,endfx (download the template).");
    const broken = await send("POST", "/api/fxrates/import", token, 'currency,month,avgfx,endfx\n"GBP,2026-08,1,1\n', "text/csv");
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.message).toMatch(/^The file is not valid CSV: /);
    expect((await send("POST", "/api/fxrates/import", token, "currency,month,avgfx,endfx\n", "text/csv")).json().error.message).toBe("The file has a header but no rates.");
    const json = await send("POST", "/api/fxrates/import", token, { rows: [] });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.message).toBe("Send the file as text/csv.");
  });

  it("refuses months outside 2000-01 to 2100-12, naming the row or field", async () => {
    const token = await groupOwner("farmonths@example.com");
    const csv = "currency,month,avgfx,endfx\nGBP,2026-08,1.27,1.28\nEUR,9999-01,1.08,1.09\nGBP,1999-12,1.6,1.6\nEUR,2100-12,1.1,1.1\n";
    const imported = await send("POST", "/api/fxrates/import", token, csv, "text/csv");
    expect(imported.statusCode).toBe(400);
    expect(imported.json().error.details.fields).toEqual([
      { path: "row 3", message: "Row 3: Use a month from 2000-01 to 2100-12 (9999-01 is outside)." },
      { path: "row 4", message: "Row 4: Use a month from 2000-01 to 2100-12 (1999-12 is outside)." },
    ]);
    const put = await send("PUT", "/api/fxrates", token, { rates: [{ currency: "GBP", month: "9999-01", avgfx: "1.2", endfx: "" }] });
    expect(put.statusCode).toBe(400);
    expect(put.json().error.details.fields).toEqual([{ path: "rates.0.month", message: "Use a month from 2000-01 to 2100-12 (9999-01 is outside)." }]);
    // Nothing was stored.
    expect((await get(t.app, "/api/fxrates?from=2026-08&to=2026-08", token)).json().rates.every((r: { avgfx: string }) => r.avgfx === "")).toBe(true);
  });

  it("needs a parent, and keeps each account's rates to itself", async () => {
    const lonely = await signedInUser(t.app, "fx3@rates.example");
    const grid = (await get(t.app, "/api/fxrates", lonely)).json();
    expect(grid).toMatchObject({ parentCurrency: null, currencies: [], rates: [] });
    expect(grid.months).toHaveLength(12);
    const res = await send("PUT", "/api/fxrates", lonely, { rates: [{ currency: "GBP", month: "2026-10", avgfx: "1.2", endfx: "1.2" }] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe("Choose a parent company first: rates are in the parent's currency.");

    const other = await groupOwner("fx4@rates.example");
    expect((await get(t.app, "/api/fxrates?from=2026-09&to=2026-10", other)).json().rates.every((r: { avgfx: string }) => r.avgfx === "")).toBe(true);
    expect((await get(t.app, "/api/fxrates")).statusCode).toBe(401);
  });
});
