import { describe, expect, it } from "vitest";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { get, signedInUser } from "./flows.ts";

describe.each(drivers)("account on %s", (driver) => {
  const t = useTestApp(driver);
  const patch = (token: string, payload: unknown) =>
    t.app.inject({ method: "PATCH", url: "/api/account", payload: payload as object, headers: { authorization: `Bearer ${token}` } });

  it("starts a new account with onboarding on at step 0", async () => {
    const token = await signedInUser(t.app, "new-owner@example.com");
    const res = await get(t.app, "/api/account", token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ onboarding: true, onboardingStep: 0, nabAccounts: [], name: "My group" });
  });

  it("saves onboarding steps, only the spec's step values", async () => {
    const token = await signedInUser(t.app, "stepper@example.com");
    for (const step of [1, 1.1, 1.2, 2, 2.1, 2.2, 2.3, 3, 3.1, 3.2, 0]) {
      const res = await patch(token, { onboardingStep: step });
      expect(res.statusCode).toBe(200);
      expect(res.json().onboardingStep).toBe(step);
    }
    for (const bad of [1.3, 4, -1, "1.1", null, 2.25]) {
      const res = await patch(token, { onboardingStep: bad });
      expect(res.statusCode, `step ${JSON.stringify(bad)}`).toBe(400);
      expect(res.json().error.details.fields[0]).toEqual({
        path: "onboardingStep",
        message: "Onboarding step must be one of 0, 1, 1.1, 1.2, 2, 2.1, 2.2, 2.3, 3, 3.1, 3.2.",
      });
    }
    expect((await get(t.app, "/api/account", token)).json().onboardingStep).toBe(0);
  });

  it("turns onboarding off and stores never-a-balance accounts", async () => {
    const token = await signedInUser(t.app, "finisher@example.com");
    const nabAccounts = [{ realmId: "9130", neverABalanceAccountsForCompany: ["12", "57"] }];
    const res = await patch(token, { onboarding: false, nabAccounts });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ onboarding: false, nabAccounts });
    expect((await get(t.app, "/api/account", token)).json().nabAccounts).toEqual(nabAccounts);
  });

  it("rejects empty, unknown and ill-typed patches without changing anything", async () => {
    const token = await signedInUser(t.app, "careful@example.com");
    const empty = await patch(token, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe("Send at least one of name, onboarding, onboardingStep, nabAccounts.");
    const unknown = await patch(token, { onboarding: false, accountId: "someone-else" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe("Unknown field: accountId.");
    const typed = await patch(token, { onboarding: "no" });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().error.message).toBe("onboarding must be true or false.");
    const nab = await patch(token, { nabAccounts: [{ realmId: "", neverABalanceAccountsForCompany: [] }] });
    expect(nab.statusCode).toBe(400);
    expect(nab.json().error.details.fields[0].path).toBe("nabAccounts.0.realmId");
    expect((await get(t.app, "/api/account", token)).json().onboarding).toBe(true);
  });

  it("stores the acknowledged release-notes version per user", async () => {
    const token = await signedInUser(t.app, "reader@example.com");
    const url = "/api/userpermission/releasenotesversion";
    expect((await get(t.app, url, token)).json()).toEqual({ releaseNotesVersion: "0" });
    const post = (version: unknown) =>
      t.app.inject({ method: "POST", url, payload: { version }, headers: { authorization: `Bearer ${token}` } });
    expect((await post("1")).json()).toEqual({ releaseNotesVersion: "1" });
    expect((await get(t.app, url, token)).json()).toEqual({ releaseNotesVersion: "1" });
    expect((await get(t.app, "/api/session", token)).json().releaseNotesVersion).toBe("1");
    const bad = await post("v1");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("version must be a whole number such as '1'.");
  });

  it("keeps each account's data to itself", async () => {
    const alice = await signedInUser(t.app, "alice@tenant-a.example");
    const bob = await signedInUser(t.app, "bob@tenant-b.example");
    await patch(alice, { name: "Alice Holdings", onboardingStep: 2, nabAccounts: [{ realmId: "111", neverABalanceAccountsForCompany: ["1"] }] });

    const bobsAccount = (await get(t.app, "/api/account", bob)).json();
    expect(bobsAccount).toMatchObject({ name: "My group", onboardingStep: 0, nabAccounts: [] });
    const alicesAccount = (await get(t.app, "/api/account", alice)).json();
    expect(alicesAccount.id).not.toBe(bobsAccount.id);
    expect(alicesAccount).toMatchObject({ name: "Alice Holdings", onboardingStep: 2 });

    // The audit log of one account never shows another's events.
    const bobsAudit = (await get(t.app, "/api/account/audit", bob)).json().entries;
    expect(bobsAudit.length).toBeGreaterThan(0);
    expect(bobsAudit.every((e: { userEmail: string | null }) => e.userEmail === "bob@tenant-b.example")).toBe(true);
    const alicesAudit = (await get(t.app, "/api/account/audit", alice)).json().entries;
    expect(alicesAudit.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(["account.updated", "user.logged_in", "user.email_verified", "user.signed_up"]),
    );
    expect(alicesAudit.find((e: { action: string }) => e.action === "account.updated").details).toEqual({
      fields: ["name", "onboardingStep", "nabAccounts"],
    });
  });

  it("requires a token for every account route", async () => {
    for (const [method, url] of [
      ["GET", "/api/account"],
      ["PATCH", "/api/account"],
      ["GET", "/api/account/audit"],
      ["GET", "/api/userpermission/releasenotesversion"],
      ["POST", "/api/userpermission/releasenotesversion"],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: method === "GET" ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error.message).toBe("Invalid token");
    }
  });
});
