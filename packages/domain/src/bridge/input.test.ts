import { describe, expect, it } from "vitest";
import { chartAccount } from "../../test/chart.ts";
import { consolidate, parseConsolidationInput } from "../consolidation/consolidate.ts";
import { acquisitionRateNeeds } from "./acquisitions.ts";
import type { GroupCompany, GroupSnapshot, IntercompanyPair } from "./group.ts";
import { pairNames } from "./intercompany.ts";
import { type AssembleRequest, assembleConsolidationInput, balancesReadFrom } from "./input.ts";

/**
 * The bridge's rules without a database (issue 16): a small group's synced books, as the server
 * reads them, assembled into the engine's input and consolidated.
 *
 * Northwind US (USD) bought 80% of Northwind UK (GBP) on 31 December 2025 for $1,200.00, when the
 * UK company's equity was £500 capital + £500 retained earnings and GBP closed at 1.25. In
 * January 2026 the UK company sold £100 (average 1.26) and GBP closed at 1.27. By hand:
 *   net assets at acquisition £1,000 × 1.25 = $1,250.00; NCI 20% = $250.00;
 *   goodwill = 1,200 + 250 − 1,250 = $200.00 = £160, at the closing rate 1.27 = $203.20 (IAS 21.47);
 *   bank $800 + £1,100 × 1.27 = $2,197.00;
 *   NCI = 20% × £1,100 × 1.27 = $279.40; profit £100 × 1.26 = $126.00, the parent's 80% $100.80;
 *   CTA = net assets 1,397 − 1,250 − 126 = $21.00, the parent's 80% $16.80, + goodwill's $3.20 = $20.00.
 */

const acct = chartAccount;

const company = (realmId: string, companyName: string, homeCurrency: string, ownershipPercent: string, isParent: boolean): GroupCompany => ({
  realmId,
  companyName,
  homeCurrency,
  fiscalYearStartMonth: 1,
  isParent,
  ownershipPercent,
  syncedThrough: "2026-01",
  syncState: "succeeded",
  syncMessage: null,
});

const parent = company("us", "Northwind US", "USD", "100", true);
const uk = company("uk", "Northwind UK", "GBP", "80", false);

const parentChart = [
  acct("1", "Checking", "Asset", "Bank", "Checking"),
  acct("2", "Investment in Northwind UK", "Asset", "Other Asset", "OtherLongTermAssets"),
  acct("3", "Goodwill", "Asset", "Other Asset", "Goodwill"),
  acct("4", "Common Stock", "Equity", "Equity", "CommonStock"),
  acct("5", "Retained Earnings", "Equity", "Equity", "RetainedEarnings"),
  acct("6", "Accumulated OCI", "Equity", "Equity", "AccumulatedAdjustment"),
  acct("7", "Non-controlling Interests", "Equity", "Equity", "OtherEquity"),
  acct("8", "Sales", "Revenue", "Income", "SalesOfProductIncome"),
  acct("9", "Exchange Gain or Loss", "Expense", "Other Expense", "ExchangeGainOrLoss"),
  acct("10", "Loan to Northwind UK", "Asset", "Other Current Asset", "LoansToOthers"),
];
const ukChart = [
  acct("b", "Bank", "Asset", "Bank", "Checking"),
  acct("c", "Share Capital", "Equity", "Equity", "CommonStock"),
  acct("r", "Retained Earnings", "Equity", "Equity", "RetainedEarnings"),
  acct("s", "Sales", "Revenue", "Income", "SalesOfProductIncome"),
  acct("l", "Loan from Northwind US", "Liability", "Other Current Liability", "LoanPayable"),
];

type Amounts = Record<string, Record<string, number>>;
const parentBooks: Amounts = { "1": { "2025-12": 800_00, "2026-01": 800_00 }, "2": { "2025-12": 1_200_00, "2026-01": 1_200_00 }, "4": { "2025-12": -2_000_00, "2026-01": -2_000_00 } };
const ukBooks: Amounts = {
  b: { "2025-12": 1_000_00, "2026-01": 1_100_00 },
  c: { "2025-12": -500_00, "2026-01": -500_00 },
  r: { "2025-12": -500_00, "2026-01": -500_00 },
  s: { "2026-01": -100_00 },
};
const rows = (realmId: string, books: Amounts) => Object.entries(books).flatMap(([account, months]) => Object.entries(months).map(([month, amount]) => ({ realmId, account, month, amount })));

function snapshot(over: Partial<GroupSnapshot> = {}): GroupSnapshot {
  return {
    charts: new Map([
      ["us", parentChart],
      ["uk", ukChart],
    ]),
    balances: [...rows("us", parentBooks), ...rows("uk", ukBooks)],
    firstSynced: new Map([
      ["us", "2025-01"],
      ["uk", "2025-01"],
    ]),
    maps: [
      { realmId: "uk", subAccountId: "b", parentAccountId: "1" },
      { realmId: "uk", subAccountId: "c", parentAccountId: "4" },
      { realmId: "uk", subAccountId: "r", parentAccountId: "5" },
      { realmId: "uk", subAccountId: "s", parentAccountId: "8" },
    ],
    ctaAccountId: "6",
    settings: [{ realmId: "uk", method: "currentRate", dividendRatePolicy: "declarationDate" }],
    historical: [{ realmId: "uk", accountId: "c", rate: "1.25", amountMinor: null }],
    rates: [
      { currency: "GBP", month: "2025-12", average: "1.25", closing: "1.25" },
      { currency: "GBP", month: "2026-01", average: "1.26", closing: "1.27" },
    ],
    names: [],
    nameBalances: [],
    acquisitions: [
      {
        realmId: "uk",
        acquiredOn: "2025-12-31",
        consideration: 1_200_00,
        investmentAccountId: "2",
        nciMeasurement: "proportionateShare",
        nciFairValue: null,
        equityAtAcquisition: [
          { accountId: "c", localAmount: -500_00 },
          { accountId: "r", localAmount: -500_00 },
        ],
        fairValueAdjustments: [],
        ownershipChanges: [],
      },
    ],
    stock: [],
    dividendSettings: [],
    ...over,
  };
}

const january: AssembleRequest = { from: "2026-01", to: "2026-01", opening: "2025-12", single: true, groupAdjustments: true };
const line = (lines: readonly { account: string; amount: number }[], account: string) => lines.find((l) => l.account === account)?.amount ?? 0;

describe("assembleConsolidationInput: synced books into the engine's input", () => {
  it("eliminates the investment against the equity at acquisition, with goodwill at the closing rate and the NCI, to the cent", () => {
    const built = assembleConsolidationInput(parent, [uk], january, snapshot());
    expect(built.problems).toEqual([]);
    expect(built.warnings).toEqual([]);
    expect(built.chosen).toEqual({ cta: "6", fxDifference: "9", nci: "7", openingMonth: "2025-12", from: "2026-01", to: "2026-01" });
    expect(built.input.designatedAccounts).toEqual({ cta: "6", fxDifference: "9", goodwill: "3", nci: "7" });
    // Opening retained earnings are the balancing figure at CTA 0 (the fresh-start convention).
    expect(built.input.entities[1]!.opening).toEqual({ month: "2025-12", retainedEarnings: -(1_000_00 * 1.25 - 500_00 * 1.25), cta: 0 });

    const out = consolidate(parseConsolidationInput(built.input));
    const bs = out.balanceSheet;
    expect(bs.balanced).toBe(true);
    expect(line(bs.assets, "2")).toBe(0); // no investment in a subsidiary
    expect(line(bs.assets, "3")).toBe(203_20);
    expect(line(bs.assets, "1")).toBe(2_197_00);
    expect(line(bs.equity, "4")).toBe(2_000_00); // only the parent's share capital
    expect(bs.nonControllingInterests).toBe(279_40);
    expect(line(bs.equity, "6")).toBe(20_00);
    expect(out.incomeStatement.netIncome).toBe(126_00);
    expect(out.incomeStatement.attributableToParent).toBe(100_80);
    expect(bs.totalAssets).toBe(2_400_20);
  });

  it("takes a sub-account on its own (issue #20): its own map and amounts, named by its full name in problems and in the engine's accounts", () => {
    // The UK's January sales: 100.00 on Sales itself, 40.00 more on its sub-account Sales:Online (banked).
    const online = acct("so", "Online", "Revenue", "Income", "SalesOfProductIncome", { fullyQualifiedName: "Sales:Online" });
    const books = { ...ukBooks, b: { "2025-12": 1_000_00, "2026-01": 1_140_00 }, so: { "2026-01": -40_00 } };
    const snap = snapshot({ charts: new Map([["us", parentChart], ["uk", [...ukChart, online]]]), balances: [...rows("us", parentBooks), ...rows("uk", books)] });
    const unmapped = assembleConsolidationInput(parent, [uk], january, snap);
    expect(unmapped.problems.map((p) => [p.code, p.accountId])).toEqual([["unmapped_account", "so"]]);
    expect(unmapped.problems[0]?.message).toContain('account "Sales:Online" has amounts');
    const built = assembleConsolidationInput(parent, [uk], january, { ...snap, maps: [...snap.maps, { realmId: "uk", subAccountId: "so", parentAccountId: "8" }] });
    expect(built.problems).toEqual([]);
    expect(built.input.entities[1]!.accounts.find((a) => a.id === "so")?.name).toBe("Sales:Online");
    // Its amount counts once, beside the parent account's own: the group sells 140.00 in January.
    const out = consolidate(parseConsolidationInput(built.input));
    expect(line(out.incomeStatement.revenue, "8")).toBe(Math.round(140_00 * 1.26));
  });

  it("without the group's adjustments (a subsidiary's own translation) leaves the investment and says nothing of acquisitions", () => {
    const built = assembleConsolidationInput(parent, [uk], { ...january, groupAdjustments: false }, snapshot());
    expect(built.input.eliminations?.investments).toEqual([]);
    expect(built.input.designatedAccounts.goodwill).toBeUndefined();
    const out = consolidate(parseConsolidationInput(built.input));
    expect(line(out.balanceSheet.assets, "2")).toBe(1_200_00);
  });

  it("sends every translated subsidiary's CTA to the group's one CTA account, and names a missing or unusable one once", () => {
    const ca = company("ca", "Northwind Canada", "CAD", "100", false);
    const charts = new Map([...snapshot().charts, ["ca", ukChart]]);
    const group = snapshot({ charts, firstSynced: new Map([...snapshot().firstSynced, ["ca", "2025-01"]]), settings: [] });
    expect(assembleConsolidationInput(parent, [uk, ca], january, group).chosen.cta).toBe("6");

    const none = assembleConsolidationInput(parent, [uk, ca], january, { ...group, ctaAccountId: null }).problems.filter((p) => p.code.includes("cta"));
    expect(none).toEqual([
      { code: "missing_cta_account", message: "Choose the parent's account that receives the group's CTA (translation differences of Northwind UK, Northwind Canada) at the top of the CTA & Historical page." },
    ]);
    const retained = assembleConsolidationInput(parent, [uk, ca], january, { ...group, ctaAccountId: "5" }).problems.filter((p) => p.code.includes("cta"));
    expect(retained).toEqual([{ code: "invalid_cta_account", accountId: "5", message: expect.stringContaining('"Retained Earnings" holds retained earnings') }]);

    // Nothing translated: the chosen account if it can hold a CTA, else the best suggestion; never a problem.
    const usd = { ...uk, homeCurrency: "USD" };
    expect(assembleConsolidationInput(parent, [usd], january, { ...group, ctaAccountId: "7" }).chosen.cta).toBe("7");
    const fallback = assembleConsolidationInput(parent, [usd], january, { ...group, ctaAccountId: "5" });
    expect(fallback.chosen.cta).toBe("6");
    expect(fallback.problems.filter((p) => p.code.includes("cta"))).toEqual([]);
  });

  it("warns, without moving a number, when no acquisition is recorded", () => {
    const built = assembleConsolidationInput(parent, [uk], january, snapshot({ acquisitions: [] }));
    expect(built.problems).toEqual([]);
    expect(built.warnings).toEqual([expect.stringContaining("No acquisition is recorded for Northwind UK")]);
  });

  it("names each thing that stops a consolidation, with the company, account, currency or month", () => {
    const built = assembleConsolidationInput(
      parent,
      [{ ...uk, syncedThrough: "2025-12" }],
      january,
      snapshot({
        rates: [{ currency: "GBP", month: "2025-12", average: "1.25", closing: "1.25" }],
        maps: [{ realmId: "uk", subAccountId: "b", parentAccountId: "8" }],
        settings: [],
        ctaAccountId: null,
        acquisitions: [{ ...snapshot().acquisitions[0]!, acquiredOn: "2026-03-31" }],
      }),
    );
    const codes = built.problems.map((p) => `${p.code}${p.accountId ? `:${p.accountId}` : ""}${p.month ? `@${p.month}` : ""}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        "months_not_synced@2026-01",
        "missing_rate@2026-01",
        "invalid_map:b",
        "unmapped_account:s",
        "missing_cta_account",
        "acquired_after_period@2026-03",
      ]),
    );
    expect(built.problems.find((p) => p.code === "invalid_map")!.message).toContain('map of "Bank" is not valid');
    expect(built.problems.find((p) => p.code === "acquired_after_period")!.message).toContain("acquired on 2026-03-31, after 2026-01");
  });

  it("refuses an acquisition whose investment account is not an asset, naming it", () => {
    const built = assembleConsolidationInput(parent, [uk], january, snapshot({ acquisitions: [{ ...snapshot().acquisitions[0]!, investmentAccountId: "4" }] }));
    expect(built.problems).toEqual([expect.objectContaining({ code: "invalid_acquisition", accountId: "4", message: expect.stringContaining('"Common Stock" for the investment, which is not an asset') })]);
  });

  it("limits a pair's side to one customer's balances, and names a side whose balances were not fetched", () => {
    const pair: IntercompanyPair = {
      id: "p1",
      name: "Loan to UK",
      kind: "receivablePayable",
      left: { entity: "us", account: "10", name: { kind: "Customer", id: "77" } },
      right: { entity: "uk", account: "l" },
      differenceTo: "fx",
    };
    expect(pairNames([pair])).toEqual([{ realmId: "us", kind: "Customer", id: "77" }]);
    const names = [{ realmId: "us", kind: "Customer" as const, qboId: "77", displayName: "Northwind UK", balancesFrom: "2025-01", balancesThrough: "2026-01" }];
    const nameBalances = [
      { realmId: "us", nameKind: "Customer" as const, nameId: "77", qboAccountId: "10", month: "2025-12-31", amountMinor: 40_00 },
      { realmId: "us", nameKind: "Customer" as const, nameId: "77", qboAccountId: "10", month: "2026-01-31", amountMinor: 50_00 },
    ];
    const built = assembleConsolidationInput(parent, [uk], { ...january, intercompany: [pair] }, snapshot({ names, nameBalances }));
    expect(built.input.eliminations?.intercompany).toEqual([
      { id: "p1", kind: "receivablePayable", left: { entity: "us", account: "10", portion: { name: "Northwind UK", from: "2025-12", amounts: [40_00, 50_00] } }, right: { entity: "uk", account: "l" }, differenceTo: "fx", tolerance: 0 },
    ]);

    const stale = assembleConsolidationInput(parent, [uk], { ...january, intercompany: [pair] }, snapshot({ names: [{ ...names[0]!, balancesThrough: "2025-12" }], nameBalances }));
    expect(stale.input.eliminations?.intercompany).toEqual([]);
    expect(stale.problems).toEqual([expect.objectContaining({ code: "name_not_synced", message: expect.stringContaining("are fetched through 2025-12 only") })]);
  });

  it("gives every pair the group's tolerance; within it the pair counts as matched and posts the same lines, the difference to FX", () => {
    // The parent lent the UK £100 and booked $127.03; the UK's £100 at January's closing 1.27 is
    // $127.00: three cents apart, rounding-sized, the kind of difference issue 18 met.
    const charts = new Map([
      ["us", [...parentChart, acct("11", "Due to Northwind UK", "Liability", "Other Current Liability", "OtherCurrentLiabilities")]],
      ["uk", ukChart],
    ]);
    const balances = [
      ...rows("us", { ...parentBooks, "1": { "2025-12": 672_97, "2026-01": 672_97 }, "10": { "2025-12": 127_03, "2026-01": 127_03 } }),
      ...rows("uk", { ...ukBooks, b: { "2025-12": 1_100_00, "2026-01": 1_200_00 }, l: { "2025-12": -100_00, "2026-01": -100_00 } }),
    ];
    const maps = [...snapshot().maps, { realmId: "uk", subAccountId: "l", parentAccountId: "11" }];
    const pair: IntercompanyPair = { id: "loan", name: "UK loan", kind: "receivablePayable", left: { entity: "us", account: "10" }, right: { entity: "uk", account: "l" }, differenceTo: "fx" };
    const run = (eliminationTolerance: number | undefined) => {
      const built = assembleConsolidationInput(parent, [uk], { ...january, intercompany: [pair] }, snapshot({ charts, balances, maps, ...(eliminationTolerance === undefined ? {} : { eliminationTolerance }) }));
      expect(built.problems).toEqual([]);
      return { rule: built.input.eliminations!.intercompany![0]!, out: consolidate(parseConsolidationInput(built.input)) };
    };
    const within = run(100);
    expect(within.rule.tolerance).toBe(100);
    const elimination = within.out.eliminations.find((e) => e.id === "loan")!;
    expect(elimination.details).toMatchObject({ leftTranslated: 127_03, rightTranslated: -127_00, difference: 3, tolerance: 100, match: "withinTolerance" });
    // Both sides reversed in full, the three cents to the FX account (9): the entry balances.
    expect(elimination.lines.map((l) => [l.account, l.amount])).toEqual([
      ["10", -127_03],
      ["11", 127_00],
      ["9", 3],
    ]);
    // Exact matching (0, and a snapshot that says nothing) flags the pair but changes no line:
    // reports and posted entries are the same whatever the tolerance.
    for (const exact of [run(0), run(undefined)]) {
      expect(exact.rule.tolerance).toBe(0);
      const e = exact.out.eliminations.find((x) => x.id === "loan")!;
      expect(e.details).toMatchObject({ difference: 3, tolerance: 0, match: "unmatched" });
      expect(e.lines).toEqual(elimination.lines);
      expect(exact.out.incomeStatement).toEqual(within.out.incomeStatement);
      expect(exact.out.balanceSheet).toEqual(within.out.balanceSheet);
    }
    expect(line(within.out.incomeStatement.expenses, "9")).toBe(3);
  });

  it("asks for the rates an acquisition's fair-value releases need before the opening month", () => {
    const record = { ...snapshot().acquisitions[0]!, acquiredOn: "2025-09-30", fairValueAdjustments: [{ description: "Brand", kind: "intangible" as const, assetAccountId: "3", amount: 120_00, usefulLifeMonths: 12, expenseAccountId: "9" }] };
    expect(acquisitionRateNeeds([record], parent, [uk], "2025-12").map((n) => n.month)).toEqual(["2025-09", "2025-10", "2025-11"]);
    expect(acquisitionRateNeeds([{ ...record, fairValueAdjustments: [] }], parent, [uk], "2025-12").map((n) => n.month)).toEqual(["2025-09"]);
    expect(acquisitionRateNeeds([record], parent, [{ ...uk, homeCurrency: "USD" }], "2025-12")).toEqual([]);
    const built = assembleConsolidationInput(parent, [uk], january, snapshot({ acquisitions: [record] }));
    expect(built.problems).toEqual([expect.objectContaining({ code: "missing_rate", currency: "GBP", message: expect.stringContaining("for 2025-09") })]);
  });

  it("states a later purchase of shares as an equity transaction: the NCI leaves at its carrying amount, the CTA re-attributed, no gain", () => {
    // At the end of January 2026 the parent buys another 10% for $150.00 (Dr investment, Cr bank in its books).
    // NCI before = 20% × £1,100 × 1.27 = $279.40; it falls by 279.40 × 10/20 = $139.70 (IFRS 10 B96);
    // the NCI's CTA share of the change, 10% × $21.00 = $2.10, moves to the parent (IAS 21.48C);
    // equity is debited 150 + 2.10 − 139.70 = $12.40.
    const books = { ...parentBooks, "1": { "2025-12": 800_00, "2026-01": 650_00 }, "2": { "2025-12": 1_200_00, "2026-01": 1_350_00 } };
    const record = { ...snapshot().acquisitions[0]!, ownershipChanges: [{ effectiveOn: "2026-01-31", ownershipPercent: "90", consideration: 150_00, accountId: null }] };
    const built = assembleConsolidationInput(parent, [uk], january, snapshot({ balances: [...rows("us", books), ...rows("uk", ukBooks)], acquisitions: [record] }));
    expect(built.problems).toEqual([]);
    expect(built.input.eliminations?.investments?.[0]?.ownershipChanges).toEqual([{ month: "2026-01", ownership: "0.9", consideration: 150_00 }]);
    const out = consolidate(parseConsolidationInput(built.input));
    const bs = out.balanceSheet;
    expect(bs.balanced).toBe(true);
    expect(line(bs.assets, "2")).toBe(0);
    expect(line(bs.assets, "1")).toBe(2_047_00);
    expect(bs.nonControllingInterests).toBe(139_70);
    expect(line(bs.equity, "6")).toBe(22_10);
    expect(bs.totalAssets).toBe(2_250_20);
    const change = out.eliminations.find((e) => e.kind === "ownershipChange")!;
    expect(change.details).toMatchObject({ direction: "bought", nciAdjustmentCreditPositive: -139_70, ctaReattributedToNciCreditPositive: -2_10, differenceToEquityCreditPositive: -12_40 });

    // A change after the period is not in it; the same acquisition, reported for December, has no change yet.
    const before = assembleConsolidationInput(parent, [uk], { from: "2025-12", to: "2025-12", opening: "2025-11", single: true, groupAdjustments: true }, snapshot({ acquisitions: [{ ...record, ownershipChanges: [{ ...record.ownershipChanges[0]!, effectiveOn: "2026-02-28" }] }] }));
    expect(before.input.eliminations?.investments?.[0]?.ownershipChanges).toEqual([]);
  });

  it("needs an NCI account once a change leaves the parent short of 100%, even from a wholly owned start", () => {
    const whole = { ...uk, ownershipPercent: "100" };
    const record = { ...snapshot().acquisitions[0]!, ownershipChanges: [{ effectiveOn: "2026-01-31", ownershipPercent: "75", consideration: 300_00, accountId: null }] };
    const noNci = new Map([["us", parentChart.filter((a) => a.id !== "7")], ["uk", ukChart]]);
    const built = assembleConsolidationInput(parent, [whole], january, snapshot({ charts: noNci, acquisitions: [record] }));
    expect(built.problems).toEqual([expect.objectContaining({ code: "missing_nci_account", message: expect.stringContaining("Northwind UK (75%)") })]);
  });

  it("refuses to eliminate the parent's dividend income twice: by the dividend rule and by a pair on the same account", () => {
    const chart = new Map([
      ["us", [...parentChart, acct("11", "Dividend Income", "Revenue", "Other Income", "DividendIncome")]],
      ["uk", [...ukChart, acct("d", "Dividends Paid", "Equity", "Equity", "DividendDisbursed")]],
    ]);
    // The UK company declares £50 in January; the parent books $63 of dividend income.
    const declared = { ...ukBooks, d: { "2026-01": 50_00 }, b: { "2025-12": 1_000_00, "2026-01": 1_050_00 } };
    const books = { ...parentBooks, "1": { "2025-12": 800_00, "2026-01": 863_00 }, "11": { "2026-01": -63_00 } };
    const snap = snapshot({
      charts: chart,
      balances: [...rows("us", books), ...rows("uk", declared)],
      maps: [...snapshot().maps, { realmId: "uk", subAccountId: "d", parentAccountId: "5" }],
      dividendSettings: [{ realmId: "uk", incomeAccountId: "11", nameId: "" }],
    });
    const alone = assembleConsolidationInput(parent, [uk], january, snap);
    expect(alone.problems).toEqual([]);
    expect(alone.input.eliminations?.dividends).toEqual([{ id: "dividends:uk", subsidiary: "uk", incomeAccount: "11" }]);

    const pair: IntercompanyPair = { id: "p2", name: "Dividends", kind: "revenueExpense", left: { entity: "us", account: "11" }, right: { entity: "uk", account: "s" }, differenceTo: "fx" };
    const twice = assembleConsolidationInput(parent, [uk], { ...january, intercompany: [pair] }, snap);
    expect(twice.problems).toEqual([
      expect.objectContaining({ code: "invalid_intragroup", accountId: "11", message: expect.stringContaining('which the intercompany pair "Dividends" eliminates too') }),
    ]);
  });

  it("reads balances from the start of each company's fiscal year holding the opening month", () => {
    expect(balancesReadFrom([parent, { ...uk, fiscalYearStartMonth: 4 }], "2025-12")).toBe("2025-01");
    expect(balancesReadFrom([{ ...uk, fiscalYearStartMonth: 4 }], "2025-12")).toBe("2025-04");
    expect(balancesReadFrom([], "2025-12")).toBe("2025-12");
  });
});
