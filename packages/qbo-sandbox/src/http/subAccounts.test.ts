/**
 * Sub-accounts (issue #20 item 3): created with SubAccount + ParentRef as Intuit documents it,
 * echoed on read, refused as QuickBooks refuses them, and nested in BalanceSheet, ProfitAndLoss and
 * GeneralLedger as the recordings nest "Truck" > "Original Cost".
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { harness, q, testClock } from "../testing/harness.ts";
import { findRow as find, type WireRow as Row } from "../testing/reportRows.ts";
import { sample } from "../testing/shape.ts";

type Wire = Record<string, unknown> & { Id: string; SyncToken: string; Name: string };
type Fault = { Fault: { Error: { code: string; Message: string; Detail: string }[] } };

let h: Harness;
let realm: string;
let token: string;

beforeEach(async () => {
  h = await harness({ now: testClock().now });
  realm = h.realms[0] as string;
  token = (await h.tokens(realm)).access_token;
});

async function create(body: Record<string, unknown>): Promise<Wire> {
  const res = await h.post(realm, "account?minorversion=75", token, body);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Account: Wire }).Account;
}

async function refused(body: Record<string, unknown>, path = "account"): Promise<Fault["Fault"]["Error"][number]> {
  const res = await h.post(realm, path, token, body);
  expect(res.statusCode, res.body).toBe(400);
  return (res.json() as Fault).Fault.Error[0] as Fault["Fault"]["Error"][number];
}

const read = async (id: string): Promise<Wire> => ((await h.get(realm, `account/${id}`, token)).json() as { Account: Wire }).Account;
const under = (parent: Wire) => ({ SubAccount: true, ParentRef: { value: parent.Id } });

let entries = 0;
/** A balanced entry numbered SUB-<n>: `amount` (whole dollars) debited to `debit`, credited to account 1 (the parent's checking account). */
async function post(date: string, debit: string, amount: number, credit = "1"): Promise<void> {
  const line = (posting: string, account: string) => ({ DetailType: "JournalEntryLineDetail", Amount: amount, JournalEntryLineDetail: { PostingType: posting, AccountRef: { value: account } } });
  const res = await h.post(realm, "journalentry", token, { DocNumber: `SUB-${++entries}`, TxnDate: date, Line: [line("Debit", debit), line("Credit", credit)] });
  expect(res.statusCode, res.body).toBe(200);
}

async function report(name: string, query: string): Promise<Row[]> {
  const res = await h.get(realm, `reports/${name}?${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Rows: { Row?: Row[] } }).Rows.Row ?? [];
}


const sectionOf = (rows: readonly Row[], id: string) => find(rows, (r) => r.Header?.ColData[0]?.id === id);
const summaryOf = (rows: readonly Row[], group: string) => find(rows, (r) => r.group === group)?.Summary?.ColData.map((c) => c.value);
/** The Data rows anywhere below, as [name, id, first amount]. */
function dataRows(rows: readonly Row[]): [string, string | undefined, string | undefined][] {
  return rows.flatMap((r) => (r.ColData !== undefined ? [[r.ColData[0]?.value ?? "", r.ColData[0]?.id, r.ColData[1]?.value] as [string, string | undefined, string | undefined]] : dataRows(r.Rows?.Row ?? [])));
}

describe("Account create with SubAccount and ParentRef", () => {
  it("makes a sub-account: SubAccount, ParentRef and FullyQualifiedName echoed on create, read and query; the parent's balance with sub-accounts adds it", async () => {
    const parent = await create({ Name: "Occupancy", AccountType: "Expense", AccountSubType: "RentOrLeaseOfBuildings" });
    const child = await create({ Name: "Seattle office", AccountType: "Expense", AccountSubType: "RentOrLeaseOfBuildings", ...under(parent) });
    expect(Object.keys(child).slice(0, 4)).toEqual(["Name", "SubAccount", "ParentRef", "FullyQualifiedName"]);
    expect(child).toMatchObject({ Name: "Seattle office", SubAccount: true, ParentRef: { value: parent.Id }, FullyQualifiedName: "Occupancy:Seattle office", AccountType: "Expense" });
    expect(parent).toMatchObject({ SubAccount: false, FullyQualifiedName: "Occupancy" });
    expect(parent).not.toHaveProperty("ParentRef");
    expect(await read(child.Id)).toEqual(child);
    const found = (await h.get(realm, q("SELECT * FROM Account WHERE SubAccount = true"), token)).json() as { QueryResponse: { Account: Wire[] } };
    expect(found.QueryResponse.Account.map((a) => a.FullyQualifiedName)).toEqual(["Occupancy:Seattle office"]);

    // A third level; the balance-sheet kind shows CurrentBalanceWithSubAccounts.
    const fixed = await create({ Name: "Vans", AccountType: "Fixed Asset", AccountSubType: "Vehicles" });
    const cost = await create({ Name: "Original Cost", AccountType: "Fixed Asset", AccountSubType: "Vehicles", ...under(fixed) });
    const van1 = await create({ Name: "Van 1", AccountType: "Fixed Asset", AccountSubType: "Vehicles", ...under(cost) });
    expect(van1.FullyQualifiedName).toBe("Vans:Original Cost:Van 1");
    await post("2026-10-05", fixed.Id, 100);
    await post("2026-10-06", van1.Id, 250);
    expect(await read(fixed.Id)).toMatchObject({ CurrentBalance: 100, CurrentBalanceWithSubAccounts: 350 });
    expect(await read(cost.Id)).toMatchObject({ CurrentBalance: 0, CurrentBalanceWithSubAccounts: 250 });
    // References name a sub-account by its FullyQualifiedName.
    const found2 = (await h.get(realm, q(`SELECT * FROM JournalEntry WHERE DocNumber = 'SUB-${entries}'`), token)).json() as {
      QueryResponse: { JournalEntry: { Line: { JournalEntryLineDetail: { AccountRef: { value: string; name: string } } }[] }[] };
    };
    expect(found2.QueryResponse.JournalEntry[0]?.Line[0]?.JournalEntryLineDetail.AccountRef).toEqual({ value: van1.Id, name: "Vans:Original Cost:Van 1" });
  });

  it("goes five levels deep and refuses a sixth", async () => {
    let parent = await create({ Name: "Level 1", AccountType: "Expense" });
    for (let level = 2; level <= 5; level++) parent = await create({ Name: `Level ${level}`, AccountType: "Expense", ...under(parent) });
    expect(parent.FullyQualifiedName).toBe("Level 1:Level 2:Level 3:Level 4:Level 5");
    expect(await refused({ Name: "Level 6", AccountType: "Expense", ...under(parent) })).toMatchObject({
      code: "6000",
      Detail: 'Business Validation Error: Sub-accounts go at most 5 levels deep; under "Level 1:Level 2:Level 3:Level 4:Level 5" this account would make 6.',
    });
  });

  it("refuses what QuickBooks refuses, creating nothing: an unknown or inactive parent, another type, detail types that take no sub-accounts, a missing or malformed ParentRef", async () => {
    const ledger = h.sandbox.ledger(realm) ?? expect.unreachable("the parent's books");
    const before = ledger.accounts.length;
    const expense = ledger.accounts.find((a) => a.active && a.type === "Expense") ?? expect.unreachable("an expense account");
    const inactive = ledger.accounts.find((a) => !a.active && a.type === "Expense") ?? expect.unreachable("an inactive expense account");
    const obe = ledger.accounts.find((a) => a.subType === "OpeningBalanceEquity") ?? expect.unreachable("Opening Balance Equity");

    expect(await refused({ Name: "X", AccountType: "Expense", SubAccount: true, ParentRef: { value: "9999" } })).toMatchObject({
      code: "2500",
      Message: "Invalid Reference Id",
      Detail: "Invalid Reference Id : Accounts element id 9999 not found",
    });
    expect(await refused({ Name: "X", AccountType: "Expense", SubAccount: true, ParentRef: { value: inactive.id } })).toMatchObject({ code: "610", Message: "Object Not Found" });
    expect(await refused({ Name: "X", AccountType: "Other Expense", SubAccount: true, ParentRef: { value: expense.id } })).toMatchObject({
      code: "6000",
      Message: "A business validation error has occurred while processing your request",
      Detail: `Business Validation Error: A sub-account must have its parent account's type: "${expense.name}" is Expense, not Other Expense.`,
    });
    expect(await refused({ Name: "X", AccountType: "Equity", AccountSubType: "CommonStock", SubAccount: true, ParentRef: { value: obe.id } })).toMatchObject({
      code: "6000",
      Detail: "Business Validation Error: Accounts with detail type Opening Balance Equity cannot have sub-accounts.",
    });
    expect(await refused({ Name: "X", AccountType: "Other Current Asset", AccountSubType: "UndepositedFunds", SubAccount: true, ParentRef: { value: "7" } })).toMatchObject({
      code: "6000",
      Detail: "Business Validation Error: Accounts with detail type Undeposited Funds cannot be sub-accounts.",
    });
    expect(await refused({ Name: "X", AccountType: "Expense", SubAccount: true })).toMatchObject({ code: "2020", Detail: "Required parameter ParentRef is missing in the request" });
    expect(await refused({ Name: "X", AccountType: "Expense", SubAccount: true, ParentRef: expense.id })).toMatchObject({ code: "2010", Detail: expect.stringMatching(/^Property Name:ParentRef must be a reference/) });
    expect(await refused({ Name: "X", AccountType: "Expense", SubAccount: "yes", ParentRef: { value: expense.id } })).toMatchObject({ code: "2010" });
    expect(await refused({ Name: "X", AccountType: "Expense", SubAccount: false, ParentRef: { value: expense.id } })).toMatchObject({ code: "2010" });
    expect(ledger.accounts.length).toBe(before);
  });

  it("keeps names unique under one parent only: the same name under two parents is fine, twice under one is the recorded 6240", async () => {
    const crew = await create({ Name: "Film Crew", AccountType: "Expense", AccountSubType: "PayrollExpenses" });
    const actors = await create({ Name: "Acting Staff", AccountType: "Expense", AccountSubType: "PayrollExpenses" });
    const a = await create({ Name: "Salaries", AccountType: "Expense", AccountSubType: "PayrollExpenses", ...under(crew) });
    const b = await create({ Name: "Salaries", AccountType: "Expense", AccountSubType: "PayrollExpenses", ...under(actors) });
    expect([a.FullyQualifiedName, b.FullyQualifiedName]).toEqual(["Film Crew:Salaries", "Acting Staff:Salaries"]);
    const res = await h.post(realm, "account", token, { Name: "SALARIES", AccountType: "Expense", ...under(crew) });
    expect((res.json() as { Fault: unknown }).Fault).toEqual((sample("errors/400_ValidationFault_6240_duplicate_name__minimul-qbo_api.json") as { body: { Fault: unknown } }).body.Fault);
  });
});

describe("Account update and sub-accounts", () => {
  it("a read-modify-write keeps a sub-account; ParentRef moves it, SubAccount false or a full update without it lifts it to the top; loops and type changes under sub-accounts are refused", async () => {
    const rent = await create({ Name: "Rent", AccountType: "Expense", AccountSubType: "RentOrLeaseOfBuildings" });
    const other = await create({ Name: "Facilities", AccountType: "Expense", AccountSubType: "RentOrLeaseOfBuildings" });
    const office = await create({ Name: "Office", AccountType: "Expense", AccountSubType: "RentOrLeaseOfBuildings", ...under(rent) });

    const same = await h.post(realm, "account", token, { ...office, Description: "HQ lease" });
    expect(same.json()).toMatchObject({ Account: { SubAccount: true, ParentRef: { value: rent.Id }, FullyQualifiedName: "Rent:Office", Description: "HQ lease" } });
    let current = (same.json() as { Account: Wire }).Account;

    const moved = await h.post(realm, "account", token, { Id: office.Id, SyncToken: current.SyncToken, sparse: true, Name: "Office", ParentRef: { value: other.Id } });
    expect(moved.json()).toMatchObject({ Account: { FullyQualifiedName: "Facilities:Office", ParentRef: { value: other.Id } } });
    current = (moved.json() as { Account: Wire }).Account;

    // Rent cannot go under its own sub-account... once it has one.
    const desk = await create({ Name: "Desk", AccountType: "Expense", AccountSubType: "RentOrLeaseOfBuildings", ...under(rent) });
    expect(await refused({ Id: rent.Id, SyncToken: rent.SyncToken, sparse: true, Name: "Rent", ParentRef: { value: desk.Id } })).toMatchObject({
      code: "6000",
      Detail: 'Business Validation Error: "Rent" cannot be a sub-account of itself or of one of its sub-accounts.',
    });
    expect(await refused({ Id: rent.Id, SyncToken: rent.SyncToken, sparse: true, Name: "Rent", AccountType: "Other Expense", AccountSubType: "OtherMiscellaneousExpense" })).toMatchObject({
      code: "6000",
      Detail: 'Business Validation Error: "Rent" has sub-accounts of type Expense; its type cannot change while they are under it.',
    });

    const lifted = await h.post(realm, "account", token, { Id: office.Id, SyncToken: current.SyncToken, sparse: true, Name: "Office", SubAccount: false });
    expect(lifted.json()).toMatchObject({ Account: { SubAccount: false, FullyQualifiedName: "Office" } });
    expect((lifted.json() as { Account: Wire }).Account).not.toHaveProperty("ParentRef");

    const full = await h.post(realm, "account", token, { Id: desk.Id, SyncToken: desk.SyncToken, Name: "Desk", AccountType: "Expense" });
    expect(full.json()).toMatchObject({ Account: { SubAccount: false, FullyQualifiedName: "Desk" } });
  });
});

describe("reports nest sub-accounts as the recordings do", () => {
  it("BalanceSheet and ProfitAndLoss: a Section headed by the parent (with its id), its own amount, its sub-accounts, Total <parent>; the statement's totals do not move", async () => {
    const month = "start_date=2026-10-01&end_date=2026-10-31";
    const assetsBefore = summaryOf(await report("BalanceSheet", month), "TotalAssets");
    const profitBefore = summaryOf(await report("ProfitAndLoss", month), "NetIncome");

    const vans = await create({ Name: "Vans", AccountType: "Fixed Asset", AccountSubType: "Vehicles" });
    const cost = await create({ Name: "Original Cost", AccountType: "Fixed Asset", AccountSubType: "Vehicles", ...under(vans) });
    const depreciation = await create({ Name: "Depreciation", AccountType: "Fixed Asset", AccountSubType: "AccumulatedDepreciation", ...under(vans) });
    await post("2026-10-05", vans.Id, 100);
    await post("2026-10-06", cost.Id, 5000);
    await post("2026-10-07", "1", 1200, depreciation.Id);
    const bs = await report("BalanceSheet", month);
    const section = sectionOf(bs, vans.Id) ?? expect.unreachable("a Vans section");
    expect(section.Header?.ColData).toEqual([{ value: "Vans", id: vans.Id }, { value: "" }]);
    expect(section).not.toHaveProperty("group");
    // Its own amount first, then the sub-accounts in chart order (without numbers: by name).
    expect(section.Rows?.Row.map((r) => r.ColData?.map((c) => c.value))).toEqual([
      ["Vans", "100.00"],
      ["Depreciation", "-1200.00"],
      ["Original Cost", "5000.00"],
    ]);
    expect(section.Rows?.Row.map((r) => r.ColData?.[0]?.id)).toEqual([vans.Id, depreciation.Id, cost.Id]);
    expect(section.Summary?.ColData).toEqual([{ value: "Total Vans" }, { value: "3900.00" }]);
    // Moving cash into the vans leaves total assets where they were.
    expect(summaryOf(bs, "TotalAssets")).toEqual(assetsBefore);

    // ProfitAndLoss, with a parent that has no amount of its own: header, sub-accounts, total (as "Truck" in the recordings).
    const occupancy = await create({ Name: "Occupancy", AccountType: "Expense", AccountSubType: "RentOrLeaseOfBuildings" });
    const seattle = await create({ Name: "Seattle", AccountType: "Expense", AccountSubType: "RentOrLeaseOfBuildings", ...under(occupancy) });
    const reno = await create({ Name: "Reno", AccountType: "Expense", AccountSubType: "RentOrLeaseOfBuildings", ...under(occupancy) });
    await post("2026-10-08", seattle.Id, 300);
    await post("2026-10-09", reno.Id, 200);
    const pl = await report("ProfitAndLoss", `${month}&summarize_column_by=Month`);
    const occ = sectionOf(pl, occupancy.Id) ?? expect.unreachable("an Occupancy section");
    expect(occ.Rows?.Row.map((r) => r.ColData?.map((c) => c.value))).toEqual([
      ["Reno", "200.00", "200.00"],
      ["Seattle", "300.00", "300.00"],
    ]);
    expect(occ.Summary?.ColData.map((c) => c.value)).toEqual(["Total Occupancy", "500.00", "500.00"]);
    const expenses = find(pl, (r) => r.group === "Expenses") ?? expect.unreachable("Expenses");
    // The section sits among the expense accounts; every amount is counted once in Total Expenses.
    const leaves = dataRows(expenses.Rows?.Row ?? []);
    const total = leaves.reduce((s, [, , v]) => s + Math.round(Number(v || "0") * 100), 0);
    expect(total).toBe(Math.round(Number(expenses.Summary?.ColData[1]?.value) * 100));
    const net = (values: string[] | undefined) => Math.round(Number(values?.[1]) * 100);
    expect(net(summaryOf(pl, "NetIncome"))).toBe(net(profitBefore) - 50000);
  });

  it("TrialBalance stays flat, naming a sub-account by its FullyQualifiedName; GeneralLedger nests its section in the parent's", async () => {
    const vans = await create({ Name: "Vans", AccountType: "Fixed Asset", AccountSubType: "Vehicles" });
    const cost = await create({ Name: "Original Cost", AccountType: "Fixed Asset", AccountSubType: "Vehicles", ...under(vans) });
    await post("2026-10-05", vans.Id, 100);
    await post("2026-10-06", cost.Id, 5000);
    const tb = await report("TrialBalance", "start_date=2026-10-01&end_date=2026-10-31");
    expect(tb.filter((r) => [vans.Id, cost.Id].includes(r.ColData?.[0]?.id ?? "")).map((r) => r.ColData?.map((c) => c.value))).toEqual([
      ["Vans", "100.00", ""],
      ["Vans:Original Cost", "5000.00", ""],
    ]);
    const gl = await report("GeneralLedger", "start_date=2026-10-01&end_date=2026-10-31");
    const outer = sectionOf(gl, vans.Id) ?? expect.unreachable("a Vans section");
    const inner = outer.Rows?.Row.find((r) => r.Header?.ColData[0]?.id === cost.Id) ?? expect.unreachable("Original Cost inside Vans");
    expect(outer.Rows?.Row.map((r) => r.ColData?.[0]?.value ?? `section ${r.Header?.ColData[0]?.value}`)).toEqual(["Beginning Balance", "2026-10-05", "section Original Cost"]);
    expect(inner.Rows?.Row.map((r) => r.ColData?.[0]?.value)).toEqual(["Beginning Balance", "2026-10-06"]);
    expect(inner.Summary?.ColData[0]?.value).toBe("Total for Original Cost");
    expect(outer.Summary?.ColData.map((c) => c.value)).toEqual(["Total for Vans", "", "", "", "", "", "5100.00", ""]);
  });
});
