import { journalEntrySchema } from "@groupledger/qbo";
import { describe, expect, it } from "vitest";
import { counterpartiesFor, counterpartyNames, entryReferences, ReferenceCache } from "../src/modules/qbo/counterparties.ts";
import { AppError } from "../src/http/errors.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, openingGroup, confirmOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";

type Account = { Id: string; name: string; accountType: string };

/**
 * QuickBooks refuses a line on an Accounts Receivable account without a customer and one on
 * Accounts Payable without a vendor (the emulator applies that rule, as QBO does). GroupLedger's
 * entries name one customer and one vendor per subsidiary, created in the parent when missing.
 */
describe.each(drivers)("names on receivable and payable lines on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";
  let accounts: Account[] = [];

  it("the opening balance entry names the subsidiary's consolidated receivables and payables, created once", async () => {
    token = await openingGroup(t.app, sandbox, "names-on-lines@northwind.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2024-12", to: "2026-10" });
    await confirmOpening(t.app, token, DEMO.uk);
    const posted = await post(t.app, `/api/balances/post/${DEMO.uk}`, undefined, token);
    expect(posted.statusCode, posted.body).toBe(200);

    accounts = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json();
    const typeOf = new Map(accounts.map((a) => [a.Id, a.accountType]));
    const client = t.app.services.provider.client(DEMO.parent);
    const [entry] = await client.query("SELECT * FROM JournalEntry WHERE DocNumber LIKE 'OB202512%'", journalEntrySchema);
    const receivables = entry!.lines.filter((l) => typeOf.get(l.accountId) === "Accounts Receivable");
    const payables = entry!.lines.filter((l) => typeOf.get(l.accountId) === "Accounts Payable");
    expect(receivables.length).toBeGreaterThan(0);
    expect(payables.length).toBeGreaterThan(0);
    expect(new Set(receivables.map((l) => `${l.entity?.type}:${l.entity?.name}`))).toEqual(new Set(["Customer:Northwind UK Ltd (consolidated receivables)"]));
    expect(new Set(payables.map((l) => `${l.entity?.type}:${l.entity?.name}`))).toEqual(new Set(["Vendor:Northwind UK Ltd (consolidated payables)"]));
    // Other lines carry no name; the group company's own customer is left alone.
    expect(entry!.lines.filter((l) => !["Accounts Receivable", "Accounts Payable"].includes(typeOf.get(l.accountId) ?? "")).every((l) => l.entity === undefined)).toBe(true);

    // A run's entry reuses them: still one customer and one vendor of each name.
    const run = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: { kind: "month", year: 2026, month: 1 } }, token);
    expect(run.json().outcome, run.body).toBe("posted");
    const customers = (await client.customers()).filter((c) => c.displayName.startsWith("Northwind UK Ltd"));
    expect(customers.map((c) => c.displayName).sort()).toEqual(["Northwind UK Ltd", "Northwind UK Ltd (consolidated receivables)"]);
    expect((await client.vendors()).filter((v) => v.displayName === "Northwind UK Ltd (consolidated payables)")).toHaveLength(1);
  });

  it("says what to do when the name is taken by a vendor, or its customer was made inactive", async () => {
    const client = t.app.services.provider.client(DEMO.parent);
    const ar = accounts.find((a) => a.accountType === "Accounts Receivable")!.Id;
    const names = counterpartyNames("Acme Sub");
    await client.createVendor(names.Customer);
    const taken = await counterpartiesFor(t.db.database.db, client, DEMO.parent, [ar], "Acme Sub").catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(AppError);
    expect(taken).toMatchObject({
      status: 409,
      code: "qbo_name_taken",
      message: 'The name "Acme Sub (consolidated receivables)" is taken in the parent\'s QuickBooks by a vendor or an employee; GroupLedger needs it for a customer that names the lines on receivable accounts. Rename that one in QuickBooks, then post again.',
    });

    const other = counterpartyNames("Beta Sub");
    const customer = await client.createCustomer(other.Customer);
    // Someone makes it inactive in QuickBooks.
    const ledger = sandbox.ledger(DEMO.parent)!;
    ledger.replaceParty({ ...ledger.party(customer.id)!, active: false });
    const inactive = await counterpartiesFor(t.db.database.db, client, DEMO.parent, [ar], "Beta Sub").catch((e: unknown) => e);
    expect(inactive).toMatchObject({ status: 409, code: "qbo_name_taken", message: expect.stringContaining('has an inactive customer named "Beta Sub (consolidated receivables)"') });

    // Accounts that need no name get none, and nothing is created for them.
    const bank = accounts.find((a) => a.accountType === "Bank")!.Id;
    expect((await counterpartiesFor(t.db.database.db, client, DEMO.parent, [bank], "Gamma Sub")).size).toBe(0);
    expect((await client.customers()).some((c) => c.displayName.startsWith("Gamma Sub"))).toBe(false);
  });

  it("looks the class and both names up in one call, creates the missing ones in one more, and a run's cache asks nothing again", async () => {
    const client = t.app.services.provider.client(DEMO.parent);
    const ar = accounts.find((a) => a.accountType === "Accounts Receivable")!.Id;
    const ap = accounts.find((a) => a.accountType === "Accounts Payable")!.Id;
    const bank = accounts.find((a) => a.accountType === "Bank")!.Id;
    const calls = async <T>(fn: () => Promise<T>): Promise<[T, Record<string, number>]> => {
      const before = sandbox.requestCounts(DEMO.parent);
      const out = await fn();
      const after = sandbox.requestCounts(DEMO.parent);
      return [out, Object.fromEntries(Object.entries(after).filter(([k, n]) => n !== (before[k] ?? 0)).map(([k, n]) => [k, n - (before[k] ?? 0)]))];
    };
    const cache = new ReferenceCache();
    const entry = { className: "Delta Sub", accountIds: [ar, ap, bank], owner: "Delta Sub" };
    const [first, made] = await calls(() => entryReferences(t.db.database.db, client, DEMO.parent, entry, cache));
    expect(made).toEqual({ "POST batch": 2 });
    expect(first.klass.name).toBe("Delta Sub");
    expect([...first.names].map(([account, e]) => [account, e.type, e.name]).sort((x, y) => x[1]!.localeCompare(y[1]!))).toEqual([
      [ar, "Customer", "Delta Sub (consolidated receivables)"],
      [ap, "Vendor", "Delta Sub (consolidated payables)"],
    ]);
    // The run's next posting of the subsidiary: nothing to ask.
    const [again, none] = await calls(() => entryReferences(t.db.database.db, client, DEMO.parent, entry, cache));
    expect(none).toEqual({});
    expect(again).toEqual(first);
    // Without the cache (a posting of its own): one call finds all three.
    const [found, one] = await calls(() => entryReferences(t.db.database.db, client, DEMO.parent, entry));
    expect(one).toEqual({ "POST batch": 1 });
    expect(found).toEqual(first);
    // Cleared (a posting failed): asked again.
    cache.clear();
    expect((await calls(() => entryReferences(t.db.database.db, client, DEMO.parent, entry, cache)))[1]).toEqual({ "POST batch": 1 });
  });
});
