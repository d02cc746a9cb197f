import { chartMappingProblem, type ChartAccount } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import { accountMaps } from "../src/db/schema.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, connectCompany, drainJobs } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

type Account = { Id: string; name: string; acctNum: string | null; classification: string; accountType: string; accountSubType: string | null; active: boolean; everHadBalance: boolean };
const chart = (a: Account): ChartAccount => ({ id: a.Id, name: a.name, acctNum: a.acctNum, classification: a.classification, accountType: a.accountType, accountSubType: a.accountSubType, active: a.active });

describe.each(drivers)("COA mapping on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  const del = (url: string, token: string) => t.app.inject({ method: "DELETE", url, headers: { authorization: `Bearer ${token}` } });

  it("suggests, maps, multimaps, refuses bad maps, finds and removes invalid ones, and reaches complete", async () => {
    const token = await signedInUser(t.app, "mapper@northwind.example");
    await connectCompany(t.app, sandbox, token, DEMO.parent);
    await connectCompany(t.app, sandbox, token, DEMO.uk);
    const noParent = await get(t.app, `/api/companies/${DEMO.uk}/map`, token);
    expect(noParent.statusCode).toBe(409);
    expect(noParent.json().error.message).toBe("Choose a parent company first: subsidiaries are mapped onto the parent's chart of accounts.");
    await drainJobs(t.app);
    await post(t.app, "/api/companies/parent", { realmId: DEMO.parent }, token);

    const ukAccounts: Account[] = (await get(t.app, `/api/companies/${DEMO.uk}/accounts`, token)).json();
    const parentAccounts: Account[] = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json();
    const withBalance = ukAccounts.filter((a) => a.everHadBalance);

    let map = (await get(t.app, `/api/companies/${DEMO.uk}/map`, token)).json();
    expect(map).toMatchObject({ realmId: DEMO.uk, parentRealmId: DEMO.parent, map: {}, mapped: 0, toMap: withBalance.length, complete: false, invalid: [] });
    expect((await get(t.app, `/api/companies/${DEMO.parent}/map`, token)).json().error.code).toBe("parent_not_mapped");

    // Suggestions never propose an incompatible account; accept the best one for each.
    const { suggestions } = (await get(t.app, `/api/companies/${DEMO.uk}/map/suggestions`, token)).json();
    const parentById = new Map(parentAccounts.map((a) => [a.Id, a]));
    const ukById = new Map(ukAccounts.map((a) => [a.Id, a]));
    const accepted: Record<string, string> = {};
    for (const [subId, list] of Object.entries(suggestions) as [string, { parentAccountId: string }[]][]) {
      for (const s of list) expect(chartMappingProblem(chart(ukById.get(subId)!), chart(parentById.get(s.parentAccountId)!))).toBeNull();
      if (list[0]) accepted[subId] = list[0].parentAccountId;
    }
    expect(Object.keys(accepted).length).toBeGreaterThan(withBalance.length / 2);
    // Issue #18: the first suggestion says whether "Accept all" may take it, and if not why. With
    // only the parent and the UK connected, the UK's balance owed to Northwind Deutschland is still
    // intercompany (the parent's chart names that company), and the parent has no intercompany liability.
    const named = (name: string) => suggestions[ukAccounts.find((a) => a.name === name)!.Id][0];
    expect(named("Amounts Owed to Northwind Deutschland")).toMatchObject({ confident: false, caution: "Intercompany: no matching account in the parent" });
    expect(named("Amounts Owed to Northwind Holdings")).toMatchObject({ confident: false, caution: "Intercompany: no matching account in the parent" });
    expect(named("Corporation Tax")).toMatchObject({ parentAccountId: parentAccounts.find((a) => a.name === "Income Tax Payable")!.Id, confident: true, caution: null });
    expect(named("VAT Control")).toMatchObject({ parentAccountId: parentAccounts.find((a) => a.name === "Sales Tax Payable")!.Id, confident: true });
    for (const list of Object.values(suggestions) as { confident: boolean; caution: string | null }[][]) {
      if (list[0]) expect(list[0].confident).toBe(list[0].caution === null);
    }
    // Three are held back for the multimap below.
    for (const id of Object.keys(accepted).slice(0, 3)) delete accepted[id];
    map = (await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: accepted }, token)).json();
    expect(map.mapped).toBe(Object.keys(accepted).length);

    // An asset onto an expense is refused with the reason, and nothing in the batch is written.
    const ukAsset = ukAccounts.find((a) => a.classification === "Asset" && a.everHadBalance)!;
    const parentExpense = parentAccounts.find((a) => a.classification === "Expense" && a.active)!;
    const unmappedBefore = withBalance.find((a) => accepted[a.Id] === undefined);
    const bad = await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: { [ukAsset.Id]: parentExpense.Id, ...(unmappedBefore ? { [unmappedBefore.Id]: parentExpense.Id } : {}) } }, token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields).toContainEqual({ path: `map.${ukAsset.Id}`, message: expect.stringMatching(/cannot map to the parent's expense account .*: an Asset must map to an Asset\.$/) });
    expect((await get(t.app, `/api/companies/${DEMO.uk}/map`, token)).json().map[ukAsset.Id]).toBe(accepted[ukAsset.Id]);

    const unknown = await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: { "no-such": parentExpense.Id } }, token);
    expect(unknown.json().error.message).toBe("Account no-such is not in this subsidiary's chart of accounts.");
    const unknownParent = await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: { [ukAsset.Id]: "424242" } }, token);
    expect(unknownParent.json().error.message).toBe("Account 424242 is not in the parent's chart of accounts.");
    expect((await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: {} }, token)).json().error.message).toBe("Send at least one account to map.");

    // Multimap: every remaining account with a balance onto a compatible parent account, grouped by target.
    const remaining = withBalance.filter((a) => accepted[a.Id] === undefined);
    const grouped: Record<string, string[]> = {};
    for (const a of remaining) {
      const target = parentAccounts.find((p) => chartMappingProblem(chart(a), chart(p)) === null)!;
      (grouped[target.Id] ??= []).push(a.Id);
    }
    expect(remaining.length).toBeGreaterThanOrEqual(3);
    const first = remaining[0]!.Id;
    const twice = await post(t.app, `/api/companies/${DEMO.uk}/multimap`, { map: { [parentExpense.Id]: [first], "1": [first] } }, token);
    expect(twice.json().error.message).toBe(`Account ${first} is listed under two parent accounts; an account maps to one.`);
    map = (await post(t.app, `/api/companies/${DEMO.uk}/multimap`, { map: grouped }, token)).json();
    expect(map).toMatchObject({ mapped: withBalance.length, toMap: withBalance.length, complete: true });

    // Unmap one: incomplete again.
    const some = withBalance[0]!.Id;
    map = (await post(t.app, `/api/companies/${DEMO.uk}/unmap`, { accountIds: [some] }, token)).json();
    expect(map.map[some]).toBeUndefined();
    expect(map.complete).toBe(false);

    // A map whose parent account vanished from QuickBooks is invalid; only invalid ones are removed.
    await t.db.database.db.insert(accountMaps).values({ realmId: DEMO.uk, subAccountId: some, parentAccountId: "999999" });
    map = (await get(t.app, `/api/companies/${DEMO.uk}/map`, token)).json();
    expect(map.invalid).toEqual([{ accountId: some, parentAccountId: "999999", reason: "The parent account it maps to is no longer in the parent's QuickBooks chart." }]);
    const valid = withBalance[1]!.Id;
    map = (await post(t.app, `/api/companies/${DEMO.uk}/unmap/invalidmaps`, { accountIds: [some, valid] }, token)).json();
    expect(map.invalid).toEqual([]);
    expect(map.map[some]).toBeUndefined();
    expect(map.map[valid]).toBeDefined();

    const maps = (await get(t.app, "/api/companies/maps", token)).json();
    expect(Object.keys(maps)).toEqual([DEMO.uk]);

    const cleared = (await del(`/api/companies/${DEMO.uk}/map`, token)).json();
    expect(cleared).toMatchObject({ map: {}, mapped: 0, complete: false });

    // Another account's company: 404, no data.
    const stranger = await signedInUser(t.app, "stranger@elsewhere.example");
    for (const res of [
      await get(t.app, `/api/companies/${DEMO.uk}/map`, stranger),
      await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: { [some]: "1" } }, stranger),
      await post(t.app, `/api/companies/${DEMO.uk}/unmap`, { accountIds: [some] }, stranger),
      await del(`/api/companies/${DEMO.uk}/map`, stranger),
      await get(t.app, `/api/companies/${DEMO.uk}/map/suggestions`, stranger),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await get(t.app, "/api/companies/maps", stranger)).json()).toEqual({});
    const trail = (await get(t.app, "/api/account/audit", token)).json().entries.map((e: { action: string }) => e.action);
    expect(trail).toEqual(expect.arrayContaining(["mapping.mapped", "mapping.unmapped", "mapping.invalid_unmapped", "mapping.cleared"]));
  });
});
