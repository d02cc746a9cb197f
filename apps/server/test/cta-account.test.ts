import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { qboAccounts } from "../src/db/schema.ts";
import { REAUTHORIZE_FOR_ACCOUNT_MESSAGE } from "../src/modules/cta/create-account.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, connectCompany, drainJobs, signedInGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

const DEFAULT_NAME = "Accumulated OCI – Translation";
type Row = { Id: string; name: string; classification: string; accountSubType: string | null };

describe.each(drivers)("Creating the CTA account in the parent's QuickBooks on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  const put = (url: string, token: string, payload: unknown) =>
    t.app.inject({ method: "PUT", url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
  const parentChartInQbo = () => sandbox.ledger(DEMO.parent)!.accounts.map((a) => a.name);
  const owner = () => post(t.app, "/api/session/token", { email: "cta-account@northwind.example", password: "Ledger#2026x" }).then((r) => r.json().token as string);

  it("creates an equity account in the parent's QuickBooks, makes it the group's CTA account, and suggests it", async () => {
    const token = await signedInGroup(t.app, sandbox, "cta-account@northwind.example", [DEMO.parent, DEMO.uk, DEMO.canada]);
    const before = parentChartInQbo().length;

    const res = await post(t.app, "/api/cta/account", {}, token);
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({
      name: DEFAULT_NAME,
      fullyQualifiedName: DEFAULT_NAME,
      accountType: "Equity",
      accountSubType: "AccumulatedAdjustment",
      classification: "Equity",
      currency: "USD",
      active: true,
      everHadBalance: false,
      latestAmount: null,
      latestMonth: null,
    });
    // In QuickBooks, once.
    expect(parentChartInQbo()).toHaveLength(before + 1);
    const inQbo = sandbox.ledger(DEMO.parent)!.account(created.Id)!;
    expect(inQbo).toMatchObject({ name: DEFAULT_NAME, type: "Equity", subType: "AccumulatedAdjustment", active: true });
    expect(inQbo.description).toMatch(/translation adjustment/i);

    // In the parent's chart here, before any sync, and ranked first among the CTA suggestions with its reason.
    const chart: Row[] = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json();
    expect(chart.filter((a) => a.Id === created.Id)).toHaveLength(1);
    const cta = (await get(t.app, "/api/cta", token)).json();
    expect(cta.ctaAccountSuggestions[0]).toEqual({
      accountId: created.Id,
      name: DEFAULT_NAME,
      score: expect.any(Number),
      reason: "Named as accumulated other comprehensive income, where translation differences are reported; QuickBooks detail type Accumulated adjustment.",
    });
    const aoci = cta.ctaAccountSuggestions.find((s: { name: string }) => s.name === "Accumulated Other Comprehensive Income");
    expect(aoci.reason).toBe("Named as accumulated other comprehensive income, where translation differences are reported; QuickBooks detail type Accumulated adjustment.");

    // Made for the group: it is the group's CTA account at once, for every foreign subsidiary.
    expect(cta.ctaAccountId).toBe(created.Id);
    expect(cta.subsidiaries.map((sub: { realmId: string; ctaAccountId: string | null }) => [sub.realmId, sub.ctaAccountId])).toEqual([
      [DEMO.canada, created.Id],
      [DEMO.uk, created.Id],
    ]);
    for (const sub of cta.subsidiaries) expect(sub.missing.filter((m: string) => m.includes("CTA account"))).toEqual([]);

    // A subsidiary cannot send its CTA elsewhere: the group keeps one account, changed for all at once.
    const elsewhere = await put(`/api/cta/${DEMO.canada}`, token, { ctaAccountId: aoci.accountId, ownershipPercent: "90" });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().error).toMatchObject({
      code: "group_cta_account",
      message: `The group keeps one CTA account: Northwind Holdings Inc.'s "${DEFAULT_NAME}" receives the CTA of every foreign subsidiary. Change it for the whole group at the top of CTA & Historical (PUT /api/cta/account); nothing was saved.`,
    });
    expect((await get(t.app, "/api/companies", token)).json().find((c: { realmId: string }) => c.realmId === DEMO.canada).ownershipPercent).toBe("100");
    // The same account as the group's is no change.
    expect((await put(`/api/cta/${DEMO.canada}`, token, { ctaAccountId: created.Id })).statusCode).toBe(200);

    // A later sync reads the account back from QuickBooks: still one row, same id.
    expect((await post(t.app, `/api/companies/${DEMO.parent}/sync`, undefined, token)).statusCode).toBeLessThan(300);
    await drainJobs(t.app);
    const synced: Row[] = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json();
    expect(synced.filter((a) => a.name === DEFAULT_NAME).map((a) => a.Id)).toEqual([created.Id]);

    const trail = (await get(t.app, "/api/account/audit", token)).json().entries;
    expect(trail.find((e: { action: string }) => e.action === "cta.account_created").details).toEqual({ realmId: DEMO.parent, qboAccountId: created.Id, name: DEFAULT_NAME, groupCtaAccountBefore: null });
  });

  it("takes a name of the user's, and refuses names QuickBooks would refuse before asking it", async () => {
    const token = await owner();
    const named = await post(t.app, "/api/cta/account", { name: "  Translation Reserve  " }, token);
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().name).toBe("Translation Reserve");
    // The newest account made for the CTA is the group's.
    expect((await get(t.app, "/api/cta", token)).json().ctaAccountId).toBe(named.json().Id);
    const before = parentChartInQbo().length;
    const refused = async (body: unknown) => {
      const res = await post(t.app, "/api/cta/account", body, token);
      expect(res.statusCode).toBe(400);
      return res.json().error.message as string;
    };
    expect(await refused({ name: "Equity: CTA" })).toBe('QuickBooks does not allow a colon (:) or a double quote (") in an account name.');
    expect(await refused({ name: "x".repeat(101) })).toBe("QuickBooks keeps account names to 100 characters.");
    expect(await refused({ name: "   " })).toBe("Give the account a name.");
    expect(await refused({ name: "CTA", realmId: DEMO.uk })).toMatch(/realmId/);
    expect(parentChartInQbo()).toHaveLength(before);
  });

  it("answers a name QuickBooks already has with a 409 that names it, and makes the existing account choosable", async () => {
    const token = await owner();
    const before = parentChartInQbo().length;
    const again = await post(t.app, "/api/cta/account", {}, token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: "duplicate_account_name",
      message: `Northwind Holdings Inc. already has an account named "${DEFAULT_NAME}" in QuickBooks. Choose it from the list, or give the new account another name.`,
    });
    // Same name in another case: QuickBooks compares names without case.
    const upper = await post(t.app, "/api/cta/account", { name: "ACCUMULATED OTHER COMPREHENSIVE INCOME" }, token);
    expect(upper.json().error.message).toContain('already has an account named "Accumulated Other Comprehensive Income"');
    expect(parentChartInQbo()).toHaveLength(before);
    // A refusal changes nothing: the group keeps its CTA account.
    const group = (await get(t.app, "/api/cta", token)).json();
    expect(group.subsidiaries.every((sub: { ctaAccountId: string }) => sub.ctaAccountId === group.ctaAccountId)).toBe(true);
    const chart: Row[] = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json();
    expect(chart.find((a) => a.Id === group.ctaAccountId)?.name).toBe("Translation Reserve");

    // Created in QuickBooks behind our back (not in our chart yet): the 6240 brings it in.
    const existingId = again.json().error.details.existingAccountId as string;
    await t.db.database.db.delete(qboAccounts).where(and(eq(qboAccounts.realmId, DEMO.parent), eq(qboAccounts.qboId, existingId)));
    expect(((await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json() as Row[]).some((a) => a.Id === existingId)).toBe(false);
    const unseen = await post(t.app, "/api/cta/account", {}, token);
    expect(unseen.statusCode).toBe(409);
    expect(unseen.json().error.details).toEqual({ existingAccountId: existingId });
    expect(((await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json() as Row[]).some((a) => a.Id === existingId)).toBe(true);
  });

  it("needs a parent of the caller's own: without one nothing is created anywhere", async () => {
    const before = parentChartInQbo().length;
    const stranger = await signedInUser(t.app, "stranger@cta-account.example");
    const none = await post(t.app, "/api/cta/account", {}, stranger);
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toMatchObject({ code: "parent_required", message: "Choose a parent company first: the CTA account is created in the parent's QuickBooks company." });
    // The route takes no company: naming the other account's parent is refused outright.
    const aimed = await post(t.app, "/api/cta/account", { name: "Not yours", realmId: DEMO.parent }, stranger);
    expect(aimed.statusCode).toBe(400);
    expect(aimed.json().error.code).toBe("validation_failed");
    // A subsidiary alone is not enough either.
    await connectCompany(t.app, sandbox, stranger, DEMO.germany);
    expect((await post(t.app, "/api/cta/account", {}, stranger)).json().error.code).toBe("parent_required");
    expect(parentChartInQbo()).toHaveLength(before);
    expect(sandbox.ledger(DEMO.germany)!.accounts.some((a) => a.name === DEFAULT_NAME)).toBe(false);
    expect((await post(t.app, "/api/cta/account", {})).statusCode).toBe(401);
  });

  it("asks for re-authorization (errorCode 003200) when QuickBooks no longer accepts the parent's grant", async () => {
    const token = await owner();
    const tokens = await t.app.services.tokenStore.load(DEMO.parent);
    await t.app.services.provider.oauth("http://localhost/qbo/auth/complete").revoke(tokens!.refreshToken);
    const before = parentChartInQbo().length;

    const res = await post(t.app, "/api/cta/account", { name: "CTA after revoke" }, token);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: "qbo_reauthorization_required", message: REAUTHORIZE_FOR_ACCOUNT_MESSAGE });
    expect(REAUTHORIZE_FOR_ACCOUNT_MESSAGE).toContain("errorCode 003200");
    expect(parentChartInQbo()).toHaveLength(before);
    expect((await get(t.app, "/api/companies/status", token)).json()[DEMO.parent].connection).toBe("needs_reauthorization");
  });
});
