import { describe, expect, it } from "vitest";
import { companies, obalCompanies } from "../src/db/schema.ts";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

describe.each(drivers)("companies and opening balance on %s", (driver) => {
  const t = useTestApp(driver);
  const accountIdOf = async (token: string) => (await get(t.app, "/api/session", token)).json().accountId as string;

  async function seedGroup(accountId: string, prefix: string, fiscalYearStartMonth = 1) {
    await t.db.database.db.insert(companies).values([
      { accountId, realmId: `${prefix}-uk`, companyName: "Zeta UK Ltd", country: "GB", homeCurrency: "GBP", ownershipPercent: "80" },
      { accountId, realmId: `${prefix}-us`, companyName: "Alpha Holdings", country: "US", homeCurrency: "USD", isParent: true, fiscalYearStartMonth },
      { accountId, realmId: `${prefix}-us2`, companyName: "Beta Inc", country: "US", homeCurrency: "USD", earliestTransactionDate: "2023-01-01" },
    ]);
  }

  it("lists the caller's companies, parent first, and only theirs", async () => {
    const a = await signedInUser(t.app, "a@companies.example");
    const b = await signedInUser(t.app, "b@companies.example");
    expect((await get(t.app, "/api/companies", a)).json()).toEqual([]);
    await seedGroup(await accountIdOf(a), "a");

    const list = (await get(t.app, "/api/companies", a)).json();
    expect(list.map((c: { companyName: string }) => c.companyName)).toEqual(["Alpha Holdings", "Beta Inc", "Zeta UK Ltd"]);
    expect(list[0]).toMatchObject({ realmId: "a-us", parent: true, homeCurrency: "USD", fiscalYearStartMonth: 1, ownershipPercent: "100" });
    expect(list[2]).toMatchObject({ parent: false, country: "GB", ownershipPercent: "80", archivedAt: null });
    expect(list[1].earliestTransactionDate).toBe("2023-01-01");

    const status = (await get(t.app, "/api/companies/status", a)).json();
    expect(Object.keys(status).sort()).toEqual(["a-uk", "a-us", "a-us2"]);
    expect(status["a-uk"]).toEqual({
      connection: "connected",
      sync: { state: "never", progress: null, message: null, lastSyncedAt: null, lastChanges: null },
    });

    expect((await get(t.app, "/api/companies", b)).json()).toEqual([]);
    expect((await get(t.app, "/api/companies/status", b)).json()).toEqual({});
  });

  it("refuses a second parent and a realm connected to another account at the database level", async () => {
    const c = await signedInUser(t.app, "c@companies.example");
    const d = await signedInUser(t.app, "d@companies.example");
    await seedGroup(await accountIdOf(c), "c");
    const db = t.db.database.db;
    await expect(
      db.insert(companies).values({ accountId: await accountIdOf(c), realmId: "c-second-parent", companyName: "X", country: "US", homeCurrency: "USD", isParent: true }),
    ).rejects.toThrow();
    await expect(
      db.insert(companies).values({ accountId: await accountIdOf(d), realmId: "c-uk", companyName: "Stolen", country: "GB", homeCurrency: "GBP" }),
    ).rejects.toThrow();
  });

  it("locks the opening period against the parent's fiscal calendar, refuses a second lock, and resets", async () => {
    const token = await signedInUser(t.app, "e@companies.example");
    const empty = (await get(t.app, "/api/obal", token)).json();
    expect(empty).toEqual({
      year: null,
      month: null,
      naturalYear: null,
      naturalMonth: null,
      reviewed: {},
      confirmed: {},
      posted: {},
      trialBalanceJournalEntryUrl: "",
    });

    const noParent = await post(t.app, "/api/obal", { year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 }, token);
    expect(noParent.statusCode).toBe(409);
    expect(noParent.json().error.message).toBe("Connect and choose a parent company before locking the opening period.");

    const accountId = await accountIdOf(token);
    await seedGroup(accountId, "e", 4);

    // A fiscal year is named by the calendar year it ends in: FY2026 runs April 2025 to March 2026.
    const mismatch = await post(t.app, "/api/obal", { year: 2026, month: 12, naturalYear: 2025, naturalMonth: 12 }, token);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.message).toBe(
      "Fiscal month 12 of 2026 is 3/2026 on the calendar for Alpha Holdings (fiscal year starts in month 4), not 12/2025.",
    );

    const bad = await post(t.app, "/api/obal", { year: 2026, month: 13, naturalYear: 2026, naturalMonth: 3 }, token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields).toEqual([{ path: "month", message: "Month must be from 1 to 12." }]);

    const locked = await post(t.app, "/api/obal", { year: 2026, month: 12, naturalYear: 2026, naturalMonth: 3 }, token);
    expect(locked.statusCode).toBe(200);
    expect(locked.json()).toMatchObject({ year: 2026, month: 12, naturalYear: 2026, naturalMonth: 3 });

    const again = await post(t.app, "/api/obal", { year: 2026, month: 11, naturalYear: 2026, naturalMonth: 2 }, token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe("The opening period is already locked to 3/2026. Reset it before choosing another.");

    await t.db.database.db.insert(obalCompanies).values({
      accountId,
      realmId: "e-uk",
      reviewedAt: new Date(),
      confirmedAt: new Date(),
      postedAt: new Date(),
      journalEntryUrl: "https://app.qbo.intuit.com/app/journal?txnId=7",
    });
    expect((await get(t.app, "/api/obal", token)).json()).toMatchObject({
      reviewed: { "e-uk": true },
      confirmed: { "e-uk": true },
      posted: { "e-uk": true },
      trialBalanceJournalEntryUrl: "https://app.qbo.intuit.com/app/journal?txnId=7",
    });

    const other = await signedInUser(t.app, "f@companies.example");
    expect((await get(t.app, "/api/obal", other)).json().year).toBeNull();

    const reset = await post(t.app, "/api/obal/reset", undefined, token);
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual(empty);
    const trail = (await get(t.app, "/api/account/audit", token)).json().entries.map((e: { action: string }) => e.action);
    expect(trail).toEqual(expect.arrayContaining(["obal.locked", "obal.reset"]));
  });

  it("a subsidiary is eligible when its books start no later than the opening month; otherwise the reason says when they start", async () => {
    const token = await signedInUser(t.app, "g@companies.example");
    await seedGroup(await accountIdOf(token), "g");
    const lock = (month: number, year: number) => post(t.app, "/api/obal", { year, month, naturalYear: year, naturalMonth: month }, token);
    const tb = async (realmId: string) => (await get(t.app, `/api/obal/${realmId}/trialbalance`, token)).json();

    expect((await lock(12, 2022)).statusCode).toBe(200);
    const before = "Beta Inc's books start in January 2023 (first transaction on 2023-01-01), after the opening month, December 2022: it has no balances to open with.";
    expect(await tb("g-us2")).toEqual({ realmId: "g-us2", eligible: false, reason: before, ok: false, problems: [], view: null });
    expect((await tb("g-uk")).reason).toBe("Zeta UK Ltd has not been synced yet, so its first month is unknown.");
    const review = await post(t.app, "/api/obal/review", { realmId: "g-us2" }, token);
    expect(review.statusCode).toBe(409);
    expect(review.json().error).toMatchObject({ code: "illegal_transition", message: before });

    // The month of the first transaction itself is not "after" it (SPEC §4 compares year and month).
    await post(t.app, "/api/obal/reset", undefined, token);
    expect((await lock(1, 2023)).statusCode).toBe(200);
    expect(await tb("g-us2")).toMatchObject({ eligible: true, reason: null });
  });

  it("publishes the deployment's public config without a token", async () => {
    const res = await get(t.app, "/api/config");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ idleTimeoutMs: 900_000, devMailbox: true });
  });

  it("requires a token for companies and opening balance", async () => {
    for (const url of ["/api/companies", "/api/companies/status", "/api/obal"]) {
      expect((await get(t.app, url)).statusCode, url).toBe(401);
    }
  });
});
