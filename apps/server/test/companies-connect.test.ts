import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/client.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, connectCompany, consent, drainJobs } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

describe.each(drivers)("connecting and syncing companies on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  const put = (url: string, token: string) => t.app.inject({ method: "PUT", url, headers: { authorization: `Bearer ${token}` } });
  const del = (url: string, token: string) => t.app.inject({ method: "DELETE", url, headers: { authorization: `Bearer ${token}` } });

  it("connects the demo group, syncs every month of it, and reports accounts and never-a-balance accounts", async () => {
    const token = await signedInUser(t.app, "controller@northwind.example");
    const { authorizeUrl } = await consent(t.app, sandbox, token, DEMO.parent);
    expect(authorizeUrl).toMatch(/^\/qbo-sandbox\/connect\/oauth2\?/);
    const params = new URL(authorizeUrl, "http://x").searchParams;
    expect(params.get("scope")).toBe("com.intuit.quickbooks.accounting");
    expect(params.get("client_id")).toBe("sandbox-client-id");
    // The consent page itself is served on our origin.
    const page = await t.app.inject({ method: "GET", url: authorizeUrl });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Northwind Holdings Inc.");

    const parent = await connectCompany(t.app, sandbox, token, DEMO.parent);
    expect(parent).toMatchObject({ reconnected: false, company: { realmId: DEMO.parent, companyName: "Northwind Holdings Inc.", homeCurrency: "USD", parent: false } });
    const uk = await connectCompany(t.app, sandbox, token, DEMO.uk);
    expect(uk.company).toMatchObject({ homeCurrency: "GBP", country: "GB", fiscalYearStartMonth: 4 });

    let status = (await get(t.app, "/api/companies/status", token)).json();
    expect(status[DEMO.uk].sync.state).toBe("queued");
    await drainJobs(t.app);
    status = (await get(t.app, "/api/companies/status", token)).json();
    for (const realm of [DEMO.parent, DEMO.uk]) {
      expect(status[realm]).toMatchObject({ connection: "connected", sync: { state: "succeeded", progress: 1, message: "Up to date" } });
      expect(status[realm].sync.lastSyncedAt).not.toBeNull();
    }

    const companies = (await get(t.app, "/api/companies", token)).json();
    expect(companies.find((c: { realmId: string }) => c.realmId === DEMO.uk).earliestTransactionDate).toBe("2023-01-01");

    const accounts = (await get(t.app, `/api/companies/${DEMO.uk}/accounts`, token)).json();
    expect(accounts.length).toBeGreaterThanOrEqual(60);
    expect(accounts.every((a: { Id: string; currency: string }) => a.Id && a.currency === "GBP")).toBe(true);
    const withBalance = accounts.filter((a: { latestAmount: number | null }) => a.latestAmount !== null);
    expect(withBalance.length).toBeGreaterThan(20);
    // Each account shows its own company's amount (account ids repeat across companies): a balance-sheet
    // account its latest synced closing balance, an income or expense account its activity in the last
    // full month, never the current month that is still being booked (issue 18: CA$0.00 everywhere).
    const now = new Date();
    const current = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    const synced = rowsOf<{ id: string; month: string; kind: string; amount: string }>(
      await t.db.database.db.execute(
        sql`select qbo_account_id as id, to_char(month, 'YYYY-MM') as month, kind, amount_minor::text as amount from monthly_balances where realm_id = ${DEMO.uk} order by month`,
      ),
    );
    expect(synced.some((r) => r.kind === "activity" && r.month === current), "the current month is synced too").toBe(true);
    const expectedLatest = new Map<string, { amount: number; month: string }>();
    for (const r of synced) if (r.kind === "closing" || r.month < current) expectedLatest.set(r.id, { amount: Number(r.amount), month: r.month });
    const plMonths = new Set<string>();
    for (const a of accounts as { Id: string; classification: string; latestAmount: number | null; latestMonth: string | null; everHadBalance: boolean }[]) {
      expect(a.latestAmount, `account ${a.Id}`).toBe(expectedLatest.get(a.Id)?.amount ?? null);
      expect(a.latestMonth, `account ${a.Id}`).toBe(expectedLatest.get(a.Id)?.month ?? null);
      if (a.latestMonth && (a.classification === "Revenue" || a.classification === "Expense")) plMonths.add(a.latestMonth);
      if (!a.everHadBalance) expect(a.latestAmount ?? 0, `never-a-balance account ${a.Id}`).toBe(0);
    }
    expect([...plMonths].every((m) => m < current), "income and expenses: a full month").toBe(true);
    // The demo books end in October 2026: while that is the last full month, its sales show.
    if ([...plMonths].every((m) => m <= "2026-10")) {
      const sales = (accounts as { classification: string; latestAmount: number | null }[]).filter((a) => a.classification === "Revenue" && a.latestAmount);
      expect(sales.length, "income accounts with activity in the last full month").toBeGreaterThan(0);
    }

    // Every synced month balances: balance-sheet closings plus the fiscal year's P&L to date sum to zero.
    const rows = rowsOf<{ month: string; kind: string; total: string }>(
      await t.db.database.db.execute(sql`select to_char(month, 'YYYY-MM') as month, kind, sum(amount_minor)::text as total from monthly_balances where realm_id = ${DEMO.parent} group by 1, 2 order by 1`),
    );
    const months = [...new Set(rows.map((r) => r.month))];
    expect(months[0]).toBe("2023-01");
    expect(months.length).toBeGreaterThanOrEqual(46);
    let ytd = 0;
    for (const month of months) {
      if (month.endsWith("-01")) ytd = 0; // the parent's fiscal year starts in January
      ytd += Number(rows.find((r) => r.month === month && r.kind === "activity")?.total ?? 0);
      const closing = Number(rows.find((r) => r.month === month && r.kind === "closing")?.total ?? 0);
      expect(closing + ytd, `books balance at ${month}`).toBe(0);
    }

    const nab = (await get(t.app, `/api/companies/neverabalance?realmId=${DEMO.uk}`, token)).json();
    expect(nab[0].realmId).toBe(DEMO.uk);
    expect(nab[0].neverABalanceAccountsForCompany.length).toBeGreaterThan(0);
    const account = (await get(t.app, "/api/account", token)).json();
    expect(account.nabAccounts).toContainEqual(nab[0]);
    const all = (await get(t.app, "/api/companies/neverabalance?forAllCompanies=true&status=active", token)).json();
    expect(all.map((e: { realmId: string }) => e.realmId).sort()).toEqual([DEMO.parent, DEMO.uk].sort());
    const byCompany = (await get(t.app, "/api/companies/accounts", token)).json();
    expect(Object.keys(byCompany).sort()).toEqual([DEMO.parent, DEMO.uk].sort());

    // Parent, archive, disconnect, reconnect in place, remove.
    const afterParent = (await post(t.app, "/api/companies/parent", { realmId: DEMO.parent }, token)).json();
    expect(afterParent[0]).toMatchObject({ realmId: DEMO.parent, parent: true });
    expect((await post(t.app, "/api/companies/parent", { realmId: DEMO.uk }, token)).json().filter((c: { parent: boolean }) => c.parent)).toHaveLength(1);
    await post(t.app, "/api/companies/parent", { realmId: DEMO.parent }, token);

    expect((await post(t.app, `/api/companies/archive/${DEMO.uk}`, { date: "2026-06-30" }, token)).statusCode).toBe(204);
    expect((await get(t.app, "/api/companies", token)).json().find((c: { realmId: string }) => c.realmId === DEMO.uk).archivedAt).toBe("2026-06-30");
    const badDate = await post(t.app, `/api/companies/archive/${DEMO.uk}`, { date: "30/06/2026" }, token);
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().error.message).toBe("Use a date like 2026-10-31.");
    const parentArchive = await post(t.app, `/api/companies/archive/${DEMO.parent}`, { date: "2026-06-30" }, token);
    expect(parentArchive.json().error.message).toBe("The parent cannot be archived. Make another company the parent first.");
    await post(t.app, `/api/companies/archive/${DEMO.uk}`, { date: null }, token);

    expect((await put(`/api/companies/disconnect/${DEMO.uk}`, token)).statusCode).toBe(204);
    expect((await get(t.app, "/api/companies/status", token)).json()[DEMO.uk].connection).toBe("disconnected");
    expect(await t.app.services.tokenStore.load(DEMO.uk)).toBeNull();
    const syncDisconnected = await post(t.app, `/api/companies/${DEMO.uk}/sync`, undefined, token);
    expect(syncDisconnected.statusCode).toBe(409);
    const again = await connectCompany(t.app, sandbox, token, DEMO.uk);
    expect(again.reconnected).toBe(true);
    expect((await get(t.app, "/api/companies", token)).json()).toHaveLength(2);
    expect((await get(t.app, "/api/companies/status", token)).json()[DEMO.uk].connection).toBe("connected");

    const syncNow = await post(t.app, `/api/companies/${DEMO.uk}/sync`, undefined, token);
    expect(syncNow.statusCode).toBe(202);
    expect(syncNow.json().alreadyRunning).toBe(true); // the reconnect's sync is still queued
    await drainJobs(t.app);

    expect((await del(`/api/companies/${DEMO.uk}`, token)).statusCode).toBe(204);
    expect((await get(t.app, "/api/companies", token)).json().map((c: { realmId: string }) => c.realmId)).toEqual([DEMO.parent]);
    const leftovers = rowsOf<{ n: number }>(await t.db.database.db.execute(sql`select count(*)::int as n from monthly_balances where realm_id = ${DEMO.uk}`));
    expect(leftovers[0]!.n).toBe(0);

    const trail = (await get(t.app, "/api/account/audit", token)).json().entries.map((e: { action: string }) => e.action);
    expect(trail).toEqual(expect.arrayContaining(["company.connected", "company.reconnected", "company.parent_set", "company.archived", "company.disconnected", "company.removed"]));
  });

  it("refuses replayed, expired, foreign and denied authorizations", async () => {
    const owner = await signedInUser(t.app, "owner@states.example");
    const other = await signedInUser(t.app, "other@states.example");
    const first = await consent(t.app, sandbox, owner, DEMO.canada);

    const stolen = await post(t.app, "/api/qbo/account/callback", first, other);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.code).toBe("invalid_state");

    const tampered = await post(t.app, "/api/qbo/account/callback", { ...first, state: `${first.state}x` }, owner);
    expect(tampered.json().error.code).toBe("invalid_state");

    expect((await post(t.app, "/api/qbo/account/callback", first, owner)).statusCode).toBe(200);
    const replay = await post(t.app, "/api/qbo/account/callback", first, owner);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toMatch(/^This connection attempt is not valid any more/);

    const late = await consent(t.app, sandbox, owner, DEMO.germany);
    await t.db.database.db.execute(sql`update oauth_states set expires_at = now() - interval '1 second'`);
    expect((await post(t.app, "/api/qbo/account/callback", late, owner)).json().error.code).toBe("invalid_state");

    const denied = await consent(t.app, sandbox, owner, DEMO.germany);
    const deny = await post(t.app, "/api/qbo/account/callback", { state: denied.state, error: "access_denied" }, owner);
    expect(deny.statusCode).toBe(400);
    expect(deny.json().error).toMatchObject({ code: "authorization_denied", message: "QuickBooks did not authorize the connection. Nothing was connected." });
    // A denied state is spent too.
    expect((await post(t.app, "/api/qbo/account/callback", denied, owner)).json().error.code).toBe("invalid_state");

    const badCode = await consent(t.app, sandbox, owner, DEMO.germany);
    const refused = await post(t.app, "/api/qbo/account/callback", { ...badCode, code: "not-a-real-code" }, owner);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe("authorization_failed");
    expect((await get(t.app, "/api/companies", owner)).json().map((c: { realmId: string }) => c.realmId)).toEqual([DEMO.canada]);

    // Someone else's company: refused, and their data stays theirs.
    const taken = await consent(t.app, sandbox, other, DEMO.canada);
    const conflict = await post(t.app, "/api/qbo/account/callback", taken, other);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.message).toBe(
      "This QuickBooks company is already connected to another GroupLedger account. Ask that account's owner to disconnect it first.",
    );
    for (const [method, url] of [
      ["GET", `/api/companies/${DEMO.canada}/accounts`],
      ["POST", `/api/companies/${DEMO.canada}/sync`],
      ["DELETE", `/api/companies/${DEMO.canada}`],
      ["PUT", `/api/companies/disconnect/${DEMO.canada}`],
      ["GET", `/api/companies/neverabalance?realmId=${DEMO.canada}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${other}` } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.message).toBe("No such company in your account.");
    }
    const parentOther = await post(t.app, "/api/companies/parent", { realmId: DEMO.canada }, other);
    expect(parentOther.statusCode).toBe(404);
    const archiveOther = await post(t.app, `/api/companies/archive/${DEMO.canada}`, { date: "2026-01-31" }, other);
    expect(archiveOther.statusCode).toBe(404);
    expect((await get(t.app, "/api/companies", owner)).json()[0].archivedAt).toBeNull();
    await drainJobs(t.app);
  });

  it("two accounts connecting the same free company at once: one gets it, the other a 409, not a 500", async () => {
    const first = await signedInUser(t.app, "first@race.example");
    const second = await signedInUser(t.app, "second@race.example");
    const attempts = [await consent(t.app, sandbox, first, DEMO.retail), await consent(t.app, sandbox, second, DEMO.retail)];
    // QuickBooks answering slowly: both pass the "connected elsewhere?" check before either writes.
    sandbox.setFaults({ latencyMs: 40 });
    const [a, b] = await Promise.all([
      post(t.app, "/api/qbo/account/callback", attempts[0], first),
      post(t.app, "/api/qbo/account/callback", attempts[1], second),
    ]).finally(() => sandbox.setFaults({}));
    expect([a.statusCode, b.statusCode].sort(), `${a.body} ${b.body}`).toEqual([200, 409]);
    const [winner, loser] = a.statusCode === 200 ? [first, second] : [second, first];
    expect((a.statusCode === 409 ? a : b).json().error).toEqual({
      code: "company_taken",
      message: "This QuickBooks company is already connected to another GroupLedger account. Ask that account's owner to disconnect it first.",
    });
    expect((await get(t.app, "/api/companies", winner)).json().map((c: { realmId: string }) => c.realmId)).toEqual([DEMO.retail]);
    expect((await get(t.app, "/api/companies", loser)).json()).toEqual([]);
    // The tokens kept are the winner's: its sync reads the company.
    await drainJobs(t.app);
    expect((await get(t.app, "/api/companies/status", winner)).json()[DEMO.retail].sync.state).toBe("succeeded");
  });
});
