import { describe, expect, it } from "vitest";
import { previewComputations } from "../src/modules/runs/service.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, bankAndExpense, drainJobs, expenseEntry, openingGroup, postOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

/**
 * Run previews are kept by the account's data version (services/data-version-cache.ts), as reports
 * are: asked again, the same bytes without computing; after any change to what they are computed
 * from (rates, a map, the books), a fresh one; what the version does not cover (the opening balance
 * posted, the entry posted) is read on every request; another account never gets one.
 */
describe.each(drivers)("run previews kept by data version on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  const jan = { realmId: DEMO.uk, period: { kind: "month", year: 2026, month: 1 } };
  let token = "";
  type Preview = { ok: boolean; problems: { code: string }[]; entry: { lines: { account: string; debit: number; credit: number }[]; totalDebit: number } | null; netIncome: unknown; posted: unknown };

  it("answers a repeat with the same bytes, uncomputed; a rate, map or books change with a fresh preview", async () => {
    token = await openingGroup(t.app, sandbox, `preview-cache-${driver}@northwind.example`, [{ realmId: DEMO.uk, historicalRate: "1.2650" }, { realmId: DEMO.retail, historicalRate: "1" }], { from: "2024-12", to: "2026-10" });
    await postOpening(t.app, token, DEMO.uk);
    const ask = async (body: unknown = jan, who = token) => {
      const res = await post(t.app, "/api/consolidation/preview", body, who);
      expect(res.statusCode, res.body).toBe(200);
      return res.body;
    };
    const computed = previewComputations();
    const first = await ask();
    expect((JSON.parse(first) as Preview).ok).toBe(true);
    expect(previewComputations()).toBe(computed + 1);
    expect(await ask()).toBe(first);
    expect(previewComputations()).toBe(computed + 1);

    // Another account's user asking for the same company and month gets no kept preview.
    const stranger = await signedInUser(t.app, `preview-cache-other-${driver}@northwind.example`);
    expect((await post(t.app, "/api/consolidation/preview", jan, stranger)).statusCode).toBe(404);

    // Rates: January's GBP rates changed, the entry is translated at the new ones.
    const put = await t.app.inject({ method: "PUT", url: "/api/fxrates", payload: { rates: [{ currency: "GBP", month: "2026-01", avgfx: "1.1", endfx: "1.11" }] }, headers: { authorization: `Bearer ${token}` } });
    expect(put.statusCode, put.body).toBe(200);
    const rated = await ask();
    expect(previewComputations()).toBe(computed + 2);
    expect((JSON.parse(rated) as Preview).entry).not.toEqual((JSON.parse(first) as Preview).entry);
    expect(await ask()).toBe(rated);

    // A map: an account with a balance unmapped stops the entry; mapped back, the same bytes as before.
    const accounts = (await get(t.app, `/api/companies/${DEMO.uk}/accounts`, token)).json() as { Id: string; everHadBalance: boolean }[];
    const { map } = (await get(t.app, `/api/companies/${DEMO.uk}/map`, token)).json() as { map: Record<string, string> };
    const account = accounts.find((a) => a.everHadBalance && map[a.Id])!;
    expect((await post(t.app, `/api/companies/${DEMO.uk}/unmap`, { accountIds: [account.Id] }, token)).statusCode).toBe(200);
    const unmapped = JSON.parse(await ask()) as Preview;
    expect(unmapped.ok).toBe(false);
    expect(unmapped.problems.map((p) => p.code)).toContain("unmapped_account");
    expect((await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: { [account.Id]: map[account.Id] } }, token)).statusCode).toBe(200);
    const computedBeforeRemap = previewComputations();
    expect(await ask()).toBe(rated);
    expect(previewComputations()).toBe(computedBeforeRemap + 1);

    // Books: an expense booked in the UK's QuickBooks in January and synced changes January's profit.
    const ukAccounts = await bankAndExpense(t.app, token, DEMO.uk);
    await t.app.services.provider.client(DEMO.uk).createJournalEntry(expenseEntry(ukAccounts, "2026-01-15", "GBP", 98_765), "preview-cache-test-1");
    expect((await post(t.app, `/api/companies/${DEMO.uk}/sync`, undefined, token)).statusCode).toBe(202);
    await drainJobs(t.app);
    const booked = JSON.parse(await ask()) as Preview;
    expect(booked.ok).toBe(true);
    expect(booked.netIncome).not.toEqual((JSON.parse(rated) as Preview).netIncome);
    expect(booked.entry).not.toEqual((JSON.parse(rated) as Preview).entry);
  });

  it("reads whether the opening balance is posted, and the posted entry, on every request", async () => {
    // Retail's opening balance is not posted yet (the first test posted the UK's).
    const retailJan = { ...jan, realmId: DEMO.retail };
    const ask = async () => JSON.parse((await post(t.app, "/api/consolidation/preview", retailJan, token)).body) as Preview;
    const blocked = await ask();
    expect(blocked.ok).toBe(false);
    expect(blocked.problems.map((p) => p.code)).toEqual(["opening_not_posted"]);
    expect((await ask()).problems.map((p) => p.code)).toEqual(["opening_not_posted"]);

    await postOpening(t.app, token, DEMO.retail);
    const ready = await ask();
    expect(ready.problems).toEqual([]);
    expect(ready.ok).toBe(true);
    expect(ready.entry).toEqual(blocked.entry);
    expect(ready.posted).toBeNull();

    const posted = await post(t.app, "/api/consolidation/post", retailJan, token);
    expect(posted.statusCode, posted.body).toBe(200);
    const computed = previewComputations();
    const after = await ask();
    expect(after.posted).toMatchObject({ journalEntryId: posted.json().posting.journalEntryId });
    expect(after.entry).toEqual(ready.entry);
    // Posting moved nothing a preview is computed from.
    expect(previewComputations()).toBe(computed);
  });

  it("Verify keeps each subsidiary's translation by data version: the same answer again, and after a rate change the new one", async () => {
    const posted = await post(t.app, "/api/consolidation/post", jan, token);
    expect(posted.statusCode, posted.body).toBe(200);
    type Verify = { subsidiaries: { realmId: string; status: string; differences: { account: string }[] }[] };
    const verify = async () => {
      const res = await get(t.app, "/api/consolidation/verify?year=2026&month=1", token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Verify).subsidiaries.find((s) => s.realmId === DEMO.uk)!;
    };
    const first = await verify();
    expect(first.status).toBe("ok");
    expect(await verify()).toEqual(first);

    // January's rates changed after posting: the translation Verify expects is the new one.
    const put = await t.app.inject({ method: "PUT", url: "/api/fxrates", payload: { rates: [{ currency: "GBP", month: "2026-01", avgfx: "1.5", endfx: "1.52" }] }, headers: { authorization: `Bearer ${token}` } });
    expect(put.statusCode, put.body).toBe(200);
    const changed = await verify();
    expect(changed.status).toBe("differences");
    expect(changed.differences.length).toBeGreaterThan(0);
  });
});
