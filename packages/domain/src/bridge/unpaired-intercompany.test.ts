import { describe, expect, it } from "vitest";
import type { ChartRow } from "./books.ts";
import type { GroupCompany, IntercompanyPair } from "./group.ts";
import { unpairedIntercompany } from "./unpaired-intercompany.ts";

const company = (realmId: string, companyName: string, isParent = false): GroupCompany => ({
  realmId,
  companyName,
  homeCurrency: "USD",
  fiscalYearStartMonth: 1,
  isParent,
  ownershipPercent: "100",
  syncedThrough: "2026-03",
  syncState: "succeeded",
  syncMessage: null,
});
const account = (id: string, name: string, classification: string, accountType: string, acctNum: string | null = null): ChartRow => ({
  id,
  name,
  acctNum,
  classification,
  accountType,
  accountSubType: null,
  active: true,
});

const parent = company("p", "Northwind Holdings Inc.", true);
const uk = company("uk", "Northwind UK Ltd");
const charts = new Map<string, ChartRow[]>([
  [
    "p",
    [
      account("1", "Operating Checking", "Asset", "Bank", "1000"),
      account("2", "Intercompany Receivable - Northwind UK", "Asset", "Other Current Asset", "1400"),
      // A sister company outside this consolidation: not eliminated here by design.
      account("3", "Intercompany Receivable - Northwind Canada", "Asset", "Other Current Asset", "1401"),
      account("4", "Management Fee Income - Intercompany", "Revenue", "Income", "4500"),
      account("5", "Investment in Northwind UK Ltd", "Asset", "Other Asset", "1700"),
      account("6", "Dividend Income - Subsidiaries", "Revenue", "Other Income", "8020"),
    ],
  ],
  [
    "uk",
    [
      account("u1", "Amounts Owed to Northwind Holdings", "Liability", "Other Current Liability", "2120"),
      account("u2", "Loan from Northwind Holdings", "Liability", "Long Term Liability", "2410"),
      account("u3", "Share Capital - Northwind Holdings", "Equity", "Equity", "3000"),
      account("u4", "Management Charges - Group", "Expense", "Expense", "7603"),
    ],
  ],
]);
const amounts = (entries: Record<string, number>) => {
  const byKey = new Map(Object.entries(entries));
  return (realmId: string, account: string, month: string) => byKey.get(`${realmId}|${account}|${month}`) ?? 0;
};
const pair = (left: [string, string], right: [string, string]): IntercompanyPair => ({
  id: `${left.join("/")}-${right.join("/")}`,
  name: "pair",
  kind: "receivablePayable",
  left: { entity: left[0], account: left[1] },
  right: { entity: right[0], account: right[1] },
  differenceTo: "fx",
});
const run = (over: { pairs?: IntercompanyPair[]; handled?: string[]; amounts: ReturnType<typeof amounts> }) =>
  unpairedIntercompany({ parent, group: [parent, uk], charts, amount: over.amounts, pairs: over.pairs ?? [], handled: new Set(over.handled ?? []), from: "2026-01", to: "2026-03" });

describe("intercompany accounts left out of the eliminations", () => {
  const moves = {
    "p|1|2026-01": 500,
    "p|2|2026-02": 99_089_13,
    "p|3|2026-02": 34_190_44,
    "p|4|2026-03": -12_000_00,
    "p|5|2026-03": 1_000_000_00,
    "p|6|2026-03": -50_000_00,
    "uk|u1|2026-02": -78_000_00,
    "uk|u2|2026-02": -950_000_00,
    "uk|u3|2026-02": -1_000_000_00,
    "uk|u4|2026-03": 9_500_00,
  };
  const everyAccountMoves = amounts(moves);

  it("names each unpaired intercompany account that holds an amount in the period, company by company, and where to pair it", () => {
    expect(run({ amounts: everyAccountMoves })).toEqual([
      'Northwind Holdings Inc.\'s intercompany accounts 1400 "Intercompany Receivable - Northwind UK", 4500 "Management Fee Income - Intercompany", 8020 "Dividend Income - Subsidiaries" ' +
        "hold amounts in 2026-01 to 2026-03 but are in no intercompany pair, so they are not eliminated and stay in the consolidated statements. Pair them on Interco Eliminations.",
      'Northwind UK Ltd\'s intercompany accounts 2120 "Amounts Owed to Northwind Holdings", 2410 "Loan from Northwind Holdings", 7603 "Management Charges - Group" ' +
        "hold amounts in 2026-01 to 2026-03 but are in no intercompany pair, so they are not eliminated and stay in the consolidated statements. Pair them on Interco Eliminations.",
    ]);
  });

  it("says it of one account in the singular", () => {
    expect(run({ amounts: amounts({ "uk|u1|2026-03": -5 }) })).toEqual([
      'Northwind UK Ltd\'s intercompany account 2120 "Amounts Owed to Northwind Holdings" holds an amount in 2026-01 to 2026-03 but is in no intercompany pair, so it is not eliminated and stays in the consolidated statements. Pair it on Interco Eliminations.',
    ]);
  });

  it("leaves out the sides of pairs, accounts another rule eliminates, accounts with nothing in the period, equity, investments, other companies' balances and ordinary accounts", () => {
    const warnings = run({
      amounts: amounts({ ...moves, "uk|u2|2026-02": 0, "uk|u2|2025-12": -950_000_00 }),
      pairs: [pair(["p", "2"], ["uk", "u1"]), pair(["p", "4"], ["uk", "u4"])],
      handled: ["p|6"],
    });
    expect(warnings).toEqual([]);
  });

  it("says nothing when every intercompany account is paired", () => {
    expect(run({ amounts: amounts({ "p|2|2026-01": 1 }), pairs: [pair(["p", "2"], ["uk", "u1"])] })).toEqual([]);
  });
});
