import { balancesByAccount, journalEntrySchema, QboClient, QboError } from "@groupledger/qbo";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openingDocNumber, openingRequestId } from "../src/modules/posting/names.ts";
import { REAUTHORIZE_PARENT_MESSAGE } from "../src/modules/qbo/errors.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, configureForTranslation, connectCompany, drainJobs, signedInGroup, lockOpening, openingGroup, confirmOpening, dieAfterNextEntry } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";
import { counterpartiesFor } from "../src/modules/qbo/counterparties.ts";

describe.each(drivers)("opening balances: review, confirm and post on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);

  it("walks the allowed transitions, blocks what cannot be translated, posts exactly once, and re-posts after a deletion", async () => {
    const token = await signedInGroup(t.app, sandbox, "obal@northwind.example", [DEMO.parent, DEMO.uk, DEMO.retail]);

    const notLocked = await post(t.app, "/api/obal/review", { realmId: DEMO.uk }, token);
    expect(notLocked.json().error.message).toBe("Lock the opening period first.");
    await lockOpening(t.app, token);

    // Nothing configured yet: the trial balance says what blocks it, by name.
    const blocked = (await get(t.app, `/api/obal/${DEMO.uk}/trialbalance`, token)).json();
    expect(blocked).toMatchObject({ eligible: true, ok: false });
    expect(blocked.problems.map((p: { message: string }) => p.message).join("\n")).toMatch(/GBP/);
    // Each missing rate says its currency and month, so the screen can group them one line per currency.
    const rates = blocked.problems.filter((p: { code: string }) => p.code === "missing_rate");
    expect(rates.length).toBe(26); // December 2024 (the fiscal year's anchor) to December 2025, average and month-end
    for (const p of rates) expect(p).toMatchObject({ currency: "GBP", month: expect.stringMatching(/^(2024-12|2025-(0[1-9]|1[0-2]))$/) });
    const review = await post(t.app, "/api/obal/review", { realmId: DEMO.uk }, token);
    expect(review.statusCode).toBe(409);
    expect(review.json().error.message).toMatch(/^Northwind UK Ltd cannot be reviewed yet: /);

    await configureForTranslation(t.app, token, [{ realmId: DEMO.uk, historicalRate: "1.2650" }, { realmId: DEMO.retail, historicalRate: "1" }], { from: "2024-12", to: "2025-12" });
    const tb = (await get(t.app, `/api/obal/${DEMO.uk}/trialbalance`, token)).json();
    expect(tb.problems).toEqual([]);
    expect(tb).toMatchObject({ ok: true, view: { month: "2025-12", currency: "GBP", parentCurrency: "USD", totals: { balanced: true } } });
    expect(tb.view.lines.some((l: { special: string | null }) => l.special === "cta")).toBe(true);
    expect(tb.view.byParentAccount.reduce((s: number, l: { amount: number }) => s + l.amount, 0)).toBe(0);

    // Illegal transitions, each refused in words.
    const expectRefused = async (action: string, message: string) => {
      const res = await post(t.app, `/api/obal/${action}`, { realmId: DEMO.uk }, token);
      expect(res.statusCode, action).toBe(409);
      expect(res.json().error.message).toBe(message);
    };
    await expectRefused("unreview", "Northwind UK Ltd has not been reviewed.");
    await expectRefused("confirm", "Review Northwind UK Ltd before confirming it.");
    const early = await post(t.app, `/api/balances/post/${DEMO.uk}`, undefined, token);
    expect(early.json().error.message).toBe("Confirm Northwind UK Ltd before posting it.");

    expect((await post(t.app, "/api/obal/review", { realmId: DEMO.uk }, token)).json().reviewed).toEqual({ [DEMO.uk]: true });
    await expectRefused("review", "Northwind UK Ltd is already reviewed.");
    expect((await post(t.app, "/api/obal/confirm", { realmId: DEMO.uk }, token)).json().confirmed).toEqual({ [DEMO.uk]: true });
    await expectRefused("unreview", "Northwind UK Ltd is confirmed; unconfirm it first.");
    expect((await post(t.app, "/api/obal/unconfirm", { realmId: DEMO.uk }, token)).json().confirmed).toEqual({});
    await post(t.app, "/api/obal/confirm", { realmId: DEMO.uk }, token);

    // Duplicate check before posting: nothing there yet.
    const check = (await get(t.app, `/api/getJournalEntries/${DEMO.uk}?month=12&year=2025&flag=obal`, token)).json();
    expect(check).toEqual({ entriesFound: false, entries: [] });

    // A first attempt reached QuickBooks but its answer was lost (a time-out): the entry exists
    // under our requestid while our database knows nothing of it.
    const accountId = (await get(t.app, "/api/session", token)).json().accountId;
    const parentClient = t.app.services.provider.client(DEMO.parent);
    const ukClass = await parentClient.createClass("Northwind UK Ltd");
    // The lines as the product sends them: receivables and payables named (QBO requires it).
    const names = await counterpartiesFor(t.db.database.db, parentClient, DEMO.parent, tb.view.byParentAccount.map((l: { account: string }) => l.account), "Northwind UK Ltd");
    const lost = await parentClient.createJournalEntry(
      {
        txnDate: "2025-12-31",
        currency: "USD",
        docNumber: openingDocNumber("2025-12", DEMO.uk),
        lines: tb.view.byParentAccount.map((l: { account: string; amount: number }) => ({
          postingType: l.amount > 0 ? "Debit" : "Credit",
          amount: Math.abs(l.amount),
          accountId: l.account,
          classId: ukClass.id,
          entity: names.get(l.account),
        })),
      },
      openingRequestId(accountId, DEMO.uk, "2025-12", 0),
    );

    // The retry, a double click and a second tab at once: still one entry in QuickBooks, the lost one.
    const posts = await Promise.all([0, 1, 2].map(() => post(t.app, `/api/balances/post/${DEMO.uk}`, undefined, token)));
    for (const p of posts) expect(p.statusCode, p.body).toBe(200);
    const state = posts[0]!.json();
    expect(state.posted).toEqual({ [DEMO.uk]: true });
    // The embedded emulator's own read-only view of the entry, on this server's origin.
    expect(state.trialBalanceJournalEntryUrl).toBe(`/qbo-sandbox/app/journal?realmId=${DEMO.parent}&txnId=${lost.id}`);
    const shown = await t.app.inject({ method: "GET", url: state.trialBalanceJournalEntryUrl });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(`<h1>Journal entry ${openingDocNumber("2025-12", DEMO.uk)}</h1>`);
    const after = (await get(t.app, `/api/getJournalEntries/${DEMO.uk}?month=12&year=2025`, token)).json();
    expect(after.entriesFound).toBe(true);
    expect(after.entries).toHaveLength(1);
    expect(after.entries[0].id).toBe(lost.id);
    expect(after.entries[0]).toMatchObject({ docNumber: openingDocNumber("2025-12", DEMO.uk), txnDate: "2025-12-31" });
    expect((await post(t.app, `/api/balances/post/${DEMO.uk}`, undefined, token)).json().posted).toEqual({ [DEMO.uk]: true });
    await expectRefused("unconfirm", "Northwind UK Ltd is already posted; it cannot be unconfirmed. If its entry was deleted in QuickBooks, mark it deleted first.");

    // The parent's own trial balance in QuickBooks still balances and now carries the CTA.
    const client = t.app.services.provider.client(DEMO.parent);
    const parentTb = balancesByAccount(await client.report("TrialBalance", { start_date: "2025-01-01", end_date: "2025-12-31" }));
    expect([...parentTb.values()].reduce((s, v) => s + v[0]!, 0)).toBe(0);
    expect(parentTb.get(tb.view.cta.account)?.[0]).toBe(tb.view.byParentAccount.find((l: { account: string }) => l.account === tb.view.cta.account).amount);
    const entry = await client.readJournalEntry(after.entries[0].id);
    const classes = await client.classes();
    expect(classes.find((k) => k.name === "Northwind UK Ltd")).toBeDefined();
    expect(entry.lines.every((l) => l.classId === classes.find((k) => k.name === "Northwind UK Ltd")!.id)).toBe(true);

    // Deleted in QuickBooks: first refused while it still exists, then recorded, then posted anew.
    const still = await post(t.app, "/api/postIsDeletedFlag", { realmId: DEMO.uk }, token);
    expect(still.json().error.message).toBe(`Entry ${after.entries[0].id} is still in QuickBooks. Delete it there first.`);
    await client.deleteJournalEntry(entry.id, entry.syncToken);
    expect((await post(t.app, "/api/postIsDeletedFlag", { realmId: DEMO.uk }, token)).json().posted).toEqual({});
    await post(t.app, "/api/obal/confirm", { realmId: DEMO.uk }, token).then((r) => expect(r.json().error.message).toBe("Northwind UK Ltd is already confirmed."));
    const reposted = (await post(t.app, `/api/balances/post/${DEMO.uk}`, undefined, token)).json();
    expect(reposted.posted).toEqual({ [DEMO.uk]: true });
    const again = (await get(t.app, `/api/getJournalEntries/${DEMO.uk}?month=12&year=2025`, token)).json();
    expect(again.entries).toHaveLength(1);
    expect(again.entries[0].id).not.toBe(entry.id);

    // The duplicate-warning preference.
    expect((await get(t.app, "/api/getDontShowDuplicateJEModalFlag?JE=obal", token)).json()).toEqual({ isDontShowDuplicateJEModalChecked: false });
    await post(t.app, "/api/setDontShowDuplicateJEModalFlag", { JE: "obal", checked: true }, token);
    expect((await get(t.app, "/api/getDontShowDuplicateJEModalFlag?JE=obal", token)).json()).toEqual({ isDontShowDuplicateJEModalChecked: true });

    // Another account: nothing of this.
    const stranger = await signedInUser(t.app, "stranger@obal.example");
    expect((await get(t.app, `/api/obal/${DEMO.uk}/trialbalance`, stranger)).statusCode).toBe(409); // no period locked there
    expect((await get(t.app, `/api/getJournalEntries/${DEMO.uk}?month=12&year=2025`, stranger)).statusCode).toBe(404);
  });

  it("leaves the state unchanged and asks for re-authorization when QuickBooks answers 3200 while posting", async () => {
    // The demo parent belongs to the first test's account (a realm is connected to one account only),
    // so this continues that group with Germany.
    const owner = (await post(t.app, "/api/session/token", { email: "obal@northwind.example", password: "Ledger#2026x" })).json().token as string;
    await connectCompany(t.app, sandbox, owner, DEMO.germany);
    await drainJobs(t.app);
    await configureForTranslation(t.app, owner, [{ realmId: DEMO.germany, historicalRate: "1.0710" }], { from: "2024-12", to: "2025-12" });
    await post(t.app, "/api/obal/review", { realmId: DEMO.germany }, owner);
    await post(t.app, "/api/obal/confirm", { realmId: DEMO.germany }, owner);
    const tokens = await t.app.services.tokenStore.load(DEMO.parent);
    await t.app.services.provider.oauth("http://localhost/qbo/auth/complete").revoke(tokens!.refreshToken);

    const res = await post(t.app, `/api/balances/post/${DEMO.germany}`, undefined, owner);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: "qbo_reauthorization_required", message: REAUTHORIZE_PARENT_MESSAGE });
    expect(REAUTHORIZE_PARENT_MESSAGE).toContain("errorCode 003200");
    const state = (await get(t.app, "/api/obal", owner)).json();
    expect(state.confirmed[DEMO.germany]).toBe(true);
    expect(state.posted[DEMO.germany]).toBeUndefined();
    expect((await get(t.app, "/api/companies/status", owner)).json()[DEMO.parent].connection).toBe("needs_reauthorization");
  });
});

describe.each(drivers)("opening balances: what changed after confirming still blocks posting, by name, on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);

  it("a rate removed or an account unmapped after confirmation stops the post with a message naming it", async () => {
    const token = await openingGroup(t.app, sandbox, "late-change@obal.example", [{ realmId: DEMO.canada, historicalRate: "0.7400" }], { from: "2024-12", to: "2025-12" });
    await confirmOpening(t.app, token, DEMO.canada);
    const send = (method: string, url: string, payload: unknown) => t.app.inject({ method: method as "PUT", url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });

    // December's CAD closing rate is cleared after confirmation.
    const rate = (await get(t.app, "/api/fxrates?from=2025-12&to=2025-12", token)).json().rates.find((r: { currency: string }) => r.currency === "CAD");
    expect((await send("PUT", "/api/fxrates", { rates: [{ ...rate, endfx: "" }] })).statusCode).toBe(200);
    const noRate = await post(t.app, `/api/balances/post/${DEMO.canada}`, undefined, token);
    expect(noRate.statusCode).toBe(409);
    expect(noRate.json().error.code).toBe("posting_blocked");
    expect(noRate.json().error.message).toMatch(/^Northwind Canada Inc\. cannot be posted: .*CAD.*2025-12/);
    expect((await send("PUT", "/api/fxrates", { rates: [rate] })).statusCode).toBe(200);

    // An account with a balance is unmapped after confirmation.
    const { map } = (await get(t.app, `/api/companies/${DEMO.canada}/map`, token)).json();
    const accounts = (await get(t.app, `/api/companies/${DEMO.canada}/accounts`, token)).json() as { Id: string; name: string; everHadBalance: boolean }[];
    const victim = accounts.find((a) => a.everHadBalance && map[a.Id])!;
    expect((await post(t.app, `/api/companies/${DEMO.canada}/unmap`, { accountIds: [victim.Id] }, token)).statusCode).toBe(200);
    const unmapped = await post(t.app, `/api/balances/post/${DEMO.canada}`, undefined, token);
    expect(unmapped.statusCode).toBe(409);
    expect(unmapped.json().error.message).toContain(victim.name);
    const state = (await get(t.app, "/api/obal", token)).json();
    expect(state.confirmed[DEMO.canada]).toBe(true);
    expect(state.posted[DEMO.canada]).toBeUndefined();
    expect(await t.app.services.provider.client(DEMO.parent).query("SELECT * FROM JournalEntry WHERE DocNumber = 'OB202512-384031'", journalEntrySchema)).toEqual([]);
  });
});

describe.each(drivers)("opening balances: a crash after QuickBooks accepted the entry, on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  afterEach(() => vi.restoreAllMocks());

  it("never posts the opening entry twice, even when the next attempt meets a refusal before it reaches the entry", async () => {
    const token = await openingGroup(t.app, sandbox, "crash@obal.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2024-12", to: "2025-12" });
    await confirmOpening(t.app, token, DEMO.uk);
    const inQuickBooks = () =>
      t.app.services.provider.client(DEMO.parent).query(`SELECT * FROM JournalEntry WHERE DocNumber = '${openingDocNumber("2025-12", DEMO.uk)}'`, journalEntrySchema);

    // QuickBooks creates the entry, then the process dies before it can record that: nothing after the create call runs.
    dieAfterNextEntry();
    expect((await post(t.app, `/api/balances/post/${DEMO.uk}`, undefined, token)).statusCode).toBe(500);
    const [created] = await inQuickBooks();
    expect(created).toBeDefined();
    expect((await get(t.app, "/api/obal", token)).json().posted).toEqual({});

    // The next attempt is refused before its entry is sent: QuickBooks denies the look-up of the class and names for a moment (403, 3100).
    vi.spyOn(QboClient.prototype, "batch").mockRejectedValueOnce(
      new QboError({
        status: 403,
        faultType: "AuthorizationFault",
        errors: [{ code: "3100", message: "message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403", detail: "", element: undefined }],
      }),
    );
    const denied = await post(t.app, `/api/balances/post/${DEMO.uk}`, undefined, token);
    expect(denied.statusCode, denied.body).toBe(502);
    expect(await inQuickBooks()).toHaveLength(1);

    // The user posts again: the entry QuickBooks already made is the opening entry, and there is no second one.
    const done = await post(t.app, `/api/balances/post/${DEMO.uk}`, undefined, token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().posted).toEqual({ [DEMO.uk]: true });
    expect(done.json().trialBalanceJournalEntryUrl).toBe(`/qbo-sandbox/app/journal?realmId=${DEMO.parent}&txnId=${created!.id}`);
    expect(await inQuickBooks()).toHaveLength(1);
  });
});
