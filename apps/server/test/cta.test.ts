import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, connectCompany, connectGroup, drainJobs } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";
import { addMember } from "./team-helpers.ts";

describe.each(drivers)("CTA & historical on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  const put = (url: string, token: string, payload: unknown) =>
    t.app.inject({ method: "PUT", url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
  let token = "";

  it("lists foreign subsidiaries with what they still need, and saves CTA account, ownership, policy and historical equity", async () => {
    token = await signedInUser(t.app, "cta@northwind.example");
    expect((await get(t.app, "/api/cta", token)).json()).toEqual({ parentRealmId: null, parentCurrency: null, ctaAccountId: null, ctaAccountSuggestions: [], subsidiaries: [] });
    await connectGroup(t.app, sandbox, token, [DEMO.parent, DEMO.uk, DEMO.retail]);

    const settings = (await get(t.app, "/api/cta", token)).json();
    expect(settings.parentCurrency).toBe("USD");
    expect(settings.ctaAccountSuggestions[0]).toMatchObject({ name: "Accumulated Other Comprehensive Income" });
    // The US subsidiary keeps USD books: it is not translated, so it is not listed.
    expect(settings.subsidiaries.map((s: { realmId: string }) => s.realmId)).toEqual([DEMO.uk]);
    const uk = settings.subsidiaries[0];
    expect(uk).toMatchObject({ currency: "GBP", ownershipPercent: "100", dividendRatePolicy: "declarationDate", ctaAccountId: null });
    const shares = uk.equity.find((e: { name: string }) => e.name === "Ordinary Shares");
    expect(shares).toMatchObject({ historicalRate: "", historicalAmount: null });
    expect(shares.localAmount).toBeLessThan(0); // a credit balance, debit positive
    expect(uk.missing).toEqual(
      expect.arrayContaining([
        "Choose the group's CTA account at the top of this page: the parent's equity account that receives the CTA of every foreign subsidiary.",
        'Enter the historical rate or translated amount of "Ordinary Shares".',
      ]),
    );

    const aoci = settings.ctaAccountSuggestions[0].accountId;
    const saved = await put(`/api/cta/${DEMO.uk}`, token, {
      ctaAccountId: aoci,
      ownershipPercent: "80",
      dividendRatePolicy: "profitPeriod",
      historical: [{ accountId: shares.accountId, historicalRate: "1.2650" }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ ctaAccountId: aoci, ownershipPercent: "80", dividendRatePolicy: "profitPeriod" });
    // While the group had none, a subsidiary's choice became the group's.
    expect((await get(t.app, "/api/cta", token)).json().ctaAccountId).toBe(aoci);
    expect(saved.json().equity.find((e: { accountId: string }) => e.accountId === shares.accountId).historicalRate).toBe("1.265");
    expect(saved.json().missing.filter((m: string) => m.includes("Ordinary Shares") || m.includes("CTA"))).toEqual([]);
    expect((await get(t.app, "/api/companies", token)).json().find((c: { realmId: string }) => c.realmId === DEMO.uk).ownershipPercent).toBe("80");

    // A translated amount instead of a rate; clearing it brings the reminder back.
    expect((await put(`/api/cta/${DEMO.uk}`, token, { historical: [{ accountId: shares.accountId, historicalRate: "", historicalAmount: -12_650_000 }] })).json().equity.find((e: { accountId: string }) => e.accountId === shares.accountId)).toMatchObject({ historicalRate: "", historicalAmount: -12_650_000 });
    const cleared = (await put(`/api/cta/${DEMO.uk}`, token, { historical: [{ accountId: shares.accountId, historicalAmount: null }] })).json();
    expect(cleared.missing).toContain('Enter the historical rate or translated amount of "Ordinary Shares".');

    // Bad input: nothing saved, each problem named.
    const parentChart = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json();
    const retained = parentChart.find((a: { name: string }) => a.name === "Retained Earnings").Id;
    const cash = parentChart.find((a: { classification: string }) => a.classification === "Asset").Id;
    const bad = await put(`/api/cta/${DEMO.uk}`, token, {
      ctaAccountId: retained,
      historical: [
        { accountId: shares.accountId, historicalRate: "-1" },
        { accountId: "999", historicalRate: "1.2" },
        { accountId: shares.accountId, historicalRate: "1.3", historicalAmount: 5 },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields).toEqual([
      { path: "ctaAccountId", message: '"Retained Earnings" holds retained earnings; keep CTA in a separate equity account.' },
      { path: "historical.0.historicalRate", message: "A rate must be a positive number with at most 10 decimal places, such as 1.2745." },
      { path: "historical.1.accountId", message: "Account 999 is not a contributed-equity account of Northwind UK Ltd." },
      { path: "historical.2", message: "Give a historical rate or a translated amount, not both." },
    ]);
    expect((await put(`/api/cta/${DEMO.uk}`, token, { ctaAccountId: cash })).json().error.message).toMatch(/is not an equity account; CTA belongs in equity/);
    expect((await put(`/api/cta/${DEMO.uk}`, token, { ownershipPercent: "120" })).json().error.message).toBe("Ownership must be more than 0 and at most 100.");
    expect((await put(`/api/cta/${DEMO.uk}`, token, { ownershipPercent: "eighty" })).json().error.message).toBe("Ownership is a percentage such as 80 or 62.5.");
    expect((await put(`/api/cta/${DEMO.uk}`, token, {})).json().error.message).toBe("Send at least one of ctaAccountId, ownershipPercent, dividendRatePolicy, translationMethod, historical.");
    expect((await put(`/api/cta/${DEMO.uk}`, token, { dividendRatePolicy: "whenever" })).json().error.message).toBe("dividendRatePolicy is declarationDate or profitPeriod.");
    expect((await get(t.app, "/api/cta", token)).json().subsidiaries[0]).toMatchObject({ ctaAccountId: aoci, ownershipPercent: "80" });

    const sameCurrency = await put(`/api/cta/${DEMO.retail}`, token, { ownershipPercent: "60" });
    expect(sameCurrency.statusCode).toBe(409);
    expect(sameCurrency.json().error.message).toBe("Northwind Retail LLC keeps its books in USD like the parent; it is not translated.");
    expect((await put(`/api/cta/${DEMO.parent}`, token, { ownershipPercent: "60" })).json().error.code).toBe("parent_not_translated");

    const stranger = await signedInUser(t.app, "stranger@cta.example");
    expect((await put(`/api/cta/${DEMO.uk}`, stranger, { ownershipPercent: "1" })).statusCode).toBe(404);
    expect((await get(t.app, "/api/cta", stranger)).json().subsidiaries).toEqual([]);
    const trail = (await get(t.app, "/api/account/audit", token)).json().entries.map((e: { action: string }) => e.action);
    expect(trail).toContain("cta.settings_changed");
  });

  it("remeasures a subsidiary with the temporal method: its non-monetary accounts take historical rates, refused under the current rate", async () => {
    // The group of the test above: the UK at the current rate so far.
    const before = (await get(t.app, "/api/cta", token)).json().subsidiaries[0];
    expect(before).toMatchObject({ translationMethod: "currentRate", nonMonetary: [] });
    const ukChart = (await get(t.app, `/api/companies/${DEMO.uk}/accounts`, token)).json() as { Id: string; name: string; accountType: string }[];
    const stock = ukChart.find((a) => a.accountType === "Other Current Asset" && a.name === "Stock")!;
    const refused = await put(`/api/cta/${DEMO.uk}`, token, { historical: [{ accountId: stock.Id, historicalRate: "1.25" }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.fields[0]).toEqual({ path: "historical.0.accountId", message: `Account ${stock.Id} is not a contributed-equity account of Northwind UK Ltd.` });

    const temporal = await put(`/api/cta/${DEMO.uk}`, token, { translationMethod: "temporal", historical: [{ accountId: stock.Id, historicalRate: "1.25" }] });
    expect(temporal.statusCode, temporal.body).toBe(200);
    const after = temporal.json();
    expect(after.translationMethod).toBe("temporal");
    // Inventory, fixed assets and prepayments are listed; cash, receivables and payables are not.
    const names = after.nonMonetary.map((a: { name: string }) => a.name);
    expect(names).toContain("Stock");
    expect(names.some((n: string) => /bank|debtors|creditors|vat/i.test(n))).toBe(false);
    expect(after.nonMonetary.find((a: { name: string }) => a.name === "Stock")).toMatchObject({ historicalRate: "1.25" });
    expect(after.missing.some((m: string) => /historical rate or translated amount/.test(m))).toBe(true);
    // The consolidation remeasures it and names the non-monetary accounts still without a historical rate.
    const report = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-01", token)).json();
    const messages = report.problems.map((p: { message: string }) => p.message).join("\n");
    expect(messages).toMatch(/Northwind UK Ltd is remeasured with the temporal method: enter the historical rate or remeasured amount of its non-monetary account/);
    expect(messages).not.toMatch(/non-monetary account 1001 "Stock"/); // the one it has
  });

  it("chooses the group's one CTA account for every foreign subsidiary at once, refusing accounts that cannot hold it", async () => {
    // The group of the tests above, now with a second foreign subsidiary.
    await connectCompany(t.app, sandbox, token, DEMO.canada);
    await drainJobs(t.app);
    const before = (await get(t.app, "/api/cta", token)).json();
    const aoci = before.ctaAccountId as string;
    // Connected after the choice: it takes the group's account, nothing to choose again.
    const canada = before.subsidiaries.find((s: { realmId: string }) => s.realmId === DEMO.canada);
    expect(canada.ctaAccountId).toBe(aoci);
    expect(canada.missing.filter((m: string) => m.includes("CTA account"))).toEqual([]);

    // Another equity account of the parent, made in its QuickBooks (which makes it the group's), then back to Accumulated OCI.
    const reserve = (await post(t.app, "/api/cta/account", { name: "Translation Reserve" }, token)).json() as { Id: string };
    expect((await get(t.app, "/api/cta", token)).json().ctaAccountId).toBe(reserve.Id);
    const parentChart = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json() as { Id: string; name: string; classification: string }[];
    const chosen = await put("/api/cta/account", token, { ctaAccountId: aoci });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().ctaAccountId).toBe(aoci);
    expect(chosen.json().subsidiaries.map((s: { realmId: string; ctaAccountId: string }) => [s.realmId, s.ctaAccountId])).toEqual([
      [DEMO.canada, aoci],
      [DEMO.uk, aoci],
    ]);
    // The consolidation sends the CTA there.
    const report = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-01", token)).json();
    expect(report.problems.filter((p: { code: string }) => p.code.includes("cta"))).toEqual([]);

    const refused = async (body: unknown, message: string | RegExp) => {
      const res = await put("/api/cta/account", token, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(message);
    };
    const retained = parentChart.find((a) => a.name === "Retained Earnings")!.Id;
    const cash = parentChart.find((a) => a.classification === "Asset")!.Id;
    await refused({ ctaAccountId: retained }, '"Retained Earnings" holds retained earnings; keep CTA in a separate equity account.');
    await refused({ ctaAccountId: cash }, /is not an equity account; CTA belongs in equity/);
    await refused({ ctaAccountId: "999999" }, "That account is not in the parent's chart of accounts.");
    await refused({ ctaAccountId: "" }, "Choose one of the parent's equity accounts.");
    await refused({}, "ctaAccountId is the id of one of the parent's equity accounts.");
    await refused({ ctaAccountId: aoci, realmId: DEMO.uk }, /realmId/);
    expect((await get(t.app, "/api/cta", token)).json().ctaAccountId).toBe(aoci);

    const stranger = await signedInUser(t.app, "stranger2@cta.example");
    const none = await put("/api/cta/account", stranger, { ctaAccountId: aoci });
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe("parent_required");
    const trail = (await get(t.app, "/api/account/audit", token)).json().entries;
    expect(trail.find((e: { action: string }) => e.action === "cta.group_account_chosen").details).toEqual({ realmId: DEMO.parent, ctaAccountId: aoci, before: reserve.Id });

    // A member prepares consolidations too: choosing the group's account is theirs to do.
    const member = await addMember(t.app, token, "cta-member@northwind.example", 0);
    expect((await put("/api/cta/account", member, { ctaAccountId: aoci })).statusCode).toBe(200);
  });
});
