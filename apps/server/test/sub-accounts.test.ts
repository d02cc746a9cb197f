/**
 * Sub-accounts and a chart without account numbers end to end on the server (issue #20 items 3
 * and 5): Northwind Canada's sub-accounts synced from the nested reports with every account's own
 * amount once, kept with their parent and full name, each mapped on its own, consolidated and
 * detailed without counting anything twice; Northwind Retail's chart synced and mapped by name.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/client.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, configureForTranslation, connectCompany, drainJobs } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

type Account = { Id: string; name: string; fullyQualifiedName: string; acctNum: string | null; classification: string; everHadBalance: boolean };
type Row = { account: string; name: string; amounts: number[] };

const SUB_ACCOUNTS = ["Laptops and Workstations", "Servers and Networking", "Wages - Toronto", "Wages - Vancouver"];

/** "YYYY-MM" → its last day. */
const monthEnd = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);

describe.each(drivers)("sub-accounts and charts without numbers on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";

  it("syncs Canada's nested reports with every account's own amount once, keeping each sub-account's parent and full name", async () => {
    token = await signedInUser(t.app, "subaccounts@northwind.example");
    for (const realm of [DEMO.parent, DEMO.canada, DEMO.retail]) await connectCompany(t.app, sandbox, token, realm);
    await drainJobs(t.app);
    await post(t.app, "/api/companies/parent", { realmId: DEMO.parent }, token);

    const accounts: Account[] = (await get(t.app, `/api/companies/${DEMO.canada}/accounts`, token)).json();
    const byName = (name: string) => accounts.find((a) => a.name === name) ?? expect.unreachable(name);
    expect(SUB_ACCOUNTS.map((n) => byName(n).fullyQualifiedName)).toEqual([
      "Computer Equipment:Laptops and Workstations",
      "Computer Equipment:Servers and Networking",
      "Wages and Salaries:Wages - Toronto",
      "Wages and Salaries:Wages - Vancouver",
    ]);
    const parents = rowsOf<{ id: string; parent: string | null }>(
      await t.db.database.db.execute(sql`select qbo_id as id, parent_qbo_id as parent from qbo_accounts where realm_id = ${DEMO.canada} and parent_qbo_id is not null order by qbo_id`),
    );
    expect(parents.map((p) => [p.id, p.parent])).toEqual(SUB_ACCOUNTS.map((n) => [byName(n).Id, byName(n.startsWith("Wages") ? "Wages and Salaries" : "Computer Equipment").Id]));
    // A parent with an amount of its own had a balance; so did each sub-account.
    for (const n of ["Computer Equipment", "Wages and Salaries", ...SUB_ACCOUNTS]) expect(byName(n).everHadBalance, n).toBe(true);

    // Each account's synced amounts are its own, as QuickBooks holds them: never its sub-accounts' too.
    const ledger = sandbox.ledger(DEMO.canada) ?? expect.unreachable("Canada's books");
    const synced = rowsOf<{ id: string; month: string; kind: string; amount: string }>(
      await t.db.database.db.execute(
        sql`select qbo_account_id as id, to_char(month, 'YYYY-MM') as month, kind, amount_minor::text as amount from monthly_balances where realm_id = ${DEMO.canada}`,
      ),
    );
    for (const name of ["Computer Equipment", "Wages and Salaries", ...SUB_ACCOUNTS]) {
      const id = byName(name).Id;
      const mine = synced.filter((r) => r.id === id);
      expect(mine.length, name).toBeGreaterThan(0);
      for (const r of mine) {
        const expected = r.kind === "closing" ? ledger.balanceThrough(id, monthEnd(r.month)) : ledger.activity(id, `${r.month}-01`, monthEnd(r.month));
        expect(Number(r.amount), `${name} ${r.month}`).toBe(expected);
      }
    }
    // And the whole company balances every month: closings plus the fiscal year's profit to date.
    const totals = rowsOf<{ month: string; kind: string; total: string }>(
      await t.db.database.db.execute(sql`select to_char(month, 'YYYY-MM') as month, kind, sum(amount_minor)::text as total from monthly_balances where realm_id = ${DEMO.canada} group by 1, 2 order by 1`),
    );
    let ytd = 0;
    for (const month of [...new Set(totals.map((r) => r.month))]) {
      if (month.endsWith("-01")) ytd = 0;
      ytd += Number(totals.find((r) => r.month === month && r.kind === "activity")?.total ?? 0);
      expect(Number(totals.find((r) => r.month === month && r.kind === "closing")?.total ?? 0) + ytd, `Canada balances at ${month}`).toBe(0);
    }

    // Retail keeps account numbers off: its chart has none, and is listed by name.
    const retail: Account[] = (await get(t.app, `/api/companies/${DEMO.retail}/accounts`, token)).json();
    expect(retail.length).toBeGreaterThan(50);
    expect(retail.filter((a) => a.acctNum !== null)).toEqual([]);
  });

  it("maps each sub-account on its own (suggested where its parent goes), consolidates and details it without counting it twice", async () => {
    const accounts: Account[] = (await get(t.app, `/api/companies/${DEMO.canada}/accounts`, token)).json();
    const parentChart: Account[] = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json();
    const id = (list: Account[], name: string) => (list.find((a) => a.name === name) ?? expect.unreachable(name)).Id;
    const { suggestions } = (await get(t.app, `/api/companies/${DEMO.canada}/map/suggestions`, token)).json();
    const first = (name: string) => suggestions[id(accounts, name)]?.[0];
    for (const n of ["Laptops and Workstations", "Servers and Networking"]) expect(first(n), n).toMatchObject({ parentAccountId: id(parentChart, "Computer Equipment"), confident: true });
    for (const n of ["Wages - Toronto", "Wages - Vancouver"]) expect(first(n), n).toMatchObject({ parentAccountId: id(parentChart, "Salaries and Wages"), confident: true });

    await configureForTranslation(t.app, token, [{ realmId: DEMO.canada, historicalRate: "0.7400" }, { realmId: DEMO.retail, historicalRate: "1" }], { from: "2024-11", to: "2026-10" });
    const { map } = (await get(t.app, `/api/companies/${DEMO.canada}/map`, token)).json();
    expect([map[id(accounts, "Wages and Salaries")], map[id(accounts, "Wages - Toronto")], map[id(accounts, "Wages - Vancouver")]]).toEqual(Array(3).fill(id(parentChart, "Salaries and Wages")));
    // Retail, without numbers, maps by name like any company.
    expect((await get(t.app, `/api/companies/${DEMO.retail}/map`, token)).json().complete).toBe(true);

    const res = await get(t.app, "/api/consolidation/report?from=2025-01&to=2025-03", token);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    const canada = r.report.worksheet.columns.findIndex((c: { id: string }) => c.id === DEMO.canada);
    const rows = r.report.worksheet.rows as Row[];
    expect(rows.reduce((s, row) => s + row.amounts[canada]!, 0), "Canada's column adds to zero").toBe(0);
    const wages = rows.find((row) => row.account === id(parentChart, "Salaries and Wages")) ?? expect.unreachable("Salaries and Wages");

    // The transactions behind it, read from Canada's nested GeneralLedger: the sub-accounts' lines
    // (the parent has none of its own since 2025), each once, beside any other account mapped there.
    const detail = (await get(t.app, `/api/consolidation/transactions?account=${id(parentChart, "Salaries and Wages")}&from=2025-01&to=2025-03&realmId=${DEMO.canada}`, token)).json();
    const company = detail.companies.find((c: { realmId: string }) => c.realmId === DEMO.canada) ?? expect.unreachable("Canada in the detail");
    const lines = company.transactions as { accountId: string; accountName: string; local: number; txnId: string }[];
    expect(lines.find((l) => l.accountId === id(accounts, "Wages - Toronto"))?.accountName).toBe("60010 Wages and Salaries:Wages - Toronto");
    const mappedThere = Object.keys(map).filter((sub) => map[sub] === id(parentChart, "Salaries and Wages"));
    const ledger = sandbox.ledger(DEMO.canada) ?? expect.unreachable("Canada's books");
    for (const n of ["Wages - Toronto", "Wages - Vancouver"]) {
      const mine = lines.filter((l) => l.accountId === id(accounts, n));
      expect(mine.length, n).toBe(ledger.entries.filter((e) => e.txnDate >= "2025-01-01" && e.txnDate <= "2025-03-31" && e.lines.some((l) => l.accountId === id(accounts, n))).length);
      expect(mine.reduce((s, l) => s + l.local, 0), n).toBe(ledger.activity(id(accounts, n), "2025-01-01", "2025-03-31"));
    }
    expect(lines.some((l) => l.accountId === id(accounts, "Wages and Salaries"))).toBe(false);
    expect(lines.every((l) => mappedThere.includes(l.accountId))).toBe(true);
    expect(company.totalLocal).toBe(mappedThere.reduce((s, sub) => s + ledger.activity(sub, "2025-01-01", "2025-03-31"), 0));
    expect(company.totalTranslated).toBe(wages.amounts[canada]);
  });
});
