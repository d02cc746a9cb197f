/**
 * The client against the emulator's demo group over HTTP: the customers and vendors that stand for
 * group companies, reports filtered by them, named journal lines and QBO's A/R–A/P name rule.
 */
import { demoCustomersAndVendors, startSandbox, type RunningSandbox } from "@groupledger/qbo-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectCompany, QboClient } from "./client.ts";
import { sandboxEndpoints } from "./endpoints.ts";
import { QboError } from "./errors.ts";
import { QboOAuth } from "./oauth.ts";
import { balancesByAccount } from "./reports.ts";
import { MemoryTokenStore } from "./tokens.ts";

const REDIRECT_URI = "http://127.0.0.1/qbo/callback";
let running: RunningSandbox;

beforeAll(async () => {
  running = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await running.close();
});
beforeEach(() => {
  running.sandbox.reset();
  running.sandbox.setRules({});
});

async function client(realmId: string): Promise<QboClient> {
  const oauth = new QboOAuth({ clientId: "sandbox-client-id", clientSecret: "sandbox-client-secret", redirectUri: REDIRECT_URI, endpoints: sandboxEndpoints(running.url) });
  const tokens = new MemoryTokenStore();
  await connectCompany(oauth, tokens, realmId, running.sandbox.issueAuthorizationCode(realmId, REDIRECT_URI));
  return new QboClient({ realmId, oauth, tokens, retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 } });
}

const group = demoCustomersAndVendors();
const parentRealm = group[0]?.realmId as string;

describe("the demo group's customers and vendors through the client", () => {
  it("customers() and vendors() read every company's names, with the emulator's fixed ids", async () => {
    for (const company of group) {
      const c = await client(company.realmId);
      const customers = await c.customers();
      const vendors = await c.vendors();
      // QuickBooks lists names by name (minimul-qbo_api/all__customers__1, all__vendors_by_5__*).
      const byName = (a: { displayName: string }, b: { displayName: string }) => (a.displayName < b.displayName ? -1 : a.displayName > b.displayName ? 1 : 0);
      expect(customers.map((x) => ({ id: x.id, type: "Customer", displayName: x.displayName }))).toEqual(company.names.filter((n) => n.type === "Customer").sort(byName));
      expect(vendors.map((x) => ({ id: x.id, type: "Vendor", displayName: x.displayName }))).toEqual(company.names.filter((n) => n.type === "Vendor").sort(byName));
      expect([...customers, ...vendors].every((x) => x.active && x.syncToken === "0")).toBe(true);
    }
    expect(group[0]?.names.slice(0, 4).map((n) => n.displayName)).toEqual(group.slice(1).map((g) => g.companyName));
  });

  it("the parent's monthly reports filtered by a subsidiary's customer hold that subsidiary's intercompany accounts only", async () => {
    const parent = await client(parentRealm);
    const uk = (await parent.customers()).find((x) => x.displayName === "Northwind UK Ltd");
    if (uk === undefined) throw new Error("no customer Northwind UK Ltd");
    const accounts = await parent.accounts();
    const byName = (name: string) => accounts.find((a) => a.name === name)?.id as string;
    const range = { start_date: "2025-01-01", end_date: "2025-12-31", summarize_column_by: "Month" } as const;

    const pl = await parent.report("ProfitAndLoss", { ...range, customer: uk.id });
    expect(pl.customer).toBe(uk.id);
    const fees = balancesByAccount(pl).get(byName("Management Fee Income - Intercompany"));
    expect(fees).toHaveLength(13); // twelve months and the total
    expect(fees?.every((v) => v > 0)).toBe(true);
    const unfilteredFees = balancesByAccount(await parent.report("ProfitAndLoss", range)).get(byName("Management Fee Income - Intercompany"));
    expect(fees?.every((v, i) => v < (unfilteredFees?.[i] ?? 0))).toBe(true); // the other subsidiaries pay fees too

    const bs = balancesByAccount(await parent.report("BalanceSheet", { ...range, customer: uk.id }));
    expect(bs.has(byName("Intercompany Receivable - Northwind UK"))).toBe(true);
    expect(bs.has(byName("Intercompany Loan - Northwind UK"))).toBe(true);
    expect(bs.has(byName("Intercompany Receivable - Northwind Canada"))).toBe(false);
    expect(bs.has(byName("Intercompany Loan - Northwind Canada"))).toBe(false);

    // Several ids at once, comma-separated, as Intuit takes them.
    const both = await parent.report("BalanceSheet", { ...range, customer: `${uk.id},2` });
    expect(both.customer).toBe(`${uk.id},2`);
    expect(balancesByAccount(both).has(byName("Intercompany Loan - Northwind Canada"))).toBe(true);
    await expect(parent.report("ProfitAndLoss", { ...range, customer: "999" })).rejects.toMatchObject({ kind: "validation", code: "2010" });
  });

  it("a subsidiary's reports filtered by the vendor Northwind Holdings Inc. hold what it owes the parent", async () => {
    const ca = await client(group[2]?.realmId as string);
    const holdings = (await ca.vendors()).find((v) => v.displayName === "Northwind Holdings Inc.");
    const report = await ca.report("BalanceSheet", { start_date: "2025-12-31", end_date: "2025-12-31", vendor: holdings?.id });
    expect(report.vendor).toBe(holdings?.id);
    const names = new Map((await ca.accounts()).map((a) => [a.id, a.name]));
    expect([...balancesByAccount(report).keys()].map((id) => names.get(id))).toContain("Loan Payable - Northwind Holdings");
  });
});

describe("named journal lines and QBO's A/R–A/P rule through the client", () => {
  it("posts and reads back a line's Name; with the rule on, an A/R line without a customer is QBO's 6000", async () => {
    const parent = await client(parentRealm);
    const accounts = await parent.accounts();
    const ar = accounts.find((a) => a.accountType === "Accounts Receivable" && a.active);
    const income = accounts.find((a) => a.classification === "Revenue" && a.active);
    if (ar === undefined || income === undefined) throw new Error("no A/R or income account");
    const trade = (await parent.customers()).find((c) => c.displayName === "Trade customers");
    const entry = (entity?: { type: "Customer" | "Vendor"; id: string }) => ({
      txnDate: "2026-10-15",
      currency: "USD",
      lines: [
        { postingType: "Debit" as const, amount: 10000, accountId: ar.id, entity },
        { postingType: "Credit" as const, amount: 10000, accountId: income.id },
      ],
    });

    // Switched off, an unnamed A/R line goes through (what the rule guards against).
    running.sandbox.setRules({ requireNamesOnReceivablesAndPayables: false });
    expect((await parent.createJournalEntry(entry(), "rule-off-1")).lines[0]?.entity).toBeUndefined();

    // On, as QBO is by default.
    running.sandbox.setRules({});
    const refused = await parent.createJournalEntry(entry(), "rule-on-1").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QboError);
    expect(refused).toMatchObject({
      kind: "validation",
      code: "6000",
      status: 400,
      detail: "Business Validation Error: When you use Accounts Receivable, you must choose a customer in the Name field.",
    });
    const posted = await parent.createJournalEntry(entry({ type: "Customer", id: trade?.id as string }), "rule-on-2");
    expect(posted.lines[0]?.entity).toEqual({ type: "Customer", id: trade?.id, name: "Trade customers" });
    expect((await parent.readJournalEntry(posted.id)).lines[0]?.entity).toEqual({ type: "Customer", id: trade?.id, name: "Trade customers" });
    // An id that is not a customer of the company is QBO's 2500.
    await expect(parent.createJournalEntry(entry({ type: "Customer", id: "6" }), "rule-on-3")).rejects.toMatchObject({ code: "2500", kind: "validation" });
  });

  it("createCustomer/createVendor: a repeated requestid creates once; a name is unique across customers and vendors", async () => {
    const de = await client(group[3]?.realmId as string);
    const first = await de.createVendor("Northwind UK Ltd (supplies)", "link-DE-UK-vendor");
    const again = await de.createVendor("Northwind UK Ltd (supplies)", "link-DE-UK-vendor");
    expect(again).toEqual(first);
    expect((await de.vendors()).filter((v) => v.displayName === "Northwind UK Ltd (supplies)")).toHaveLength(1);
    // Germany already has the customer "Northwind UK Ltd": the same name cannot be a vendor too.
    await expect(de.createVendor("Northwind UK Ltd")).rejects.toMatchObject({ code: "6240", message: "Duplicate Name Exists Error" });
    const customer = await de.createCustomer("Northwind Canada Inc.");
    expect(customer).toMatchObject({ displayName: "Northwind Canada Inc.", active: true });
    expect(Number(customer.id)).toBeGreaterThan(Number(first.id)); // one id sequence for both kinds
  });
});
