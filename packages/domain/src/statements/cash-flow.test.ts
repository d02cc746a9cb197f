import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";
import { consolidate, parseConsolidationInput } from "../consolidation/consolidate.ts";
import type { ConsolidationInputJson } from "../consolidation/input-schema.ts";
import { shiftMonth } from "../periods/month.ts";
import { defaultCashFlowClass, type CashFlowClass } from "./cash-flow-classes.ts";
import { consolidatedCashFlow, type ConsolidatedCashFlow } from "./cash-flow.ts";

/** The statement for the example's period: the engine run for it and for the month before, from one opening month. */
function cashFlowOf(json: ConsolidationInputJson, classes: Record<string, CashFlowClass>): ConsolidatedCashFlow {
  const input = parseConsolidationInput(json);
  const closing = consolidate(input);
  const opening = consolidate(parseConsolidationInput({ ...json, period: { month: shiftMonth(closing.period.from, -1) } }));
  return consolidatedCashFlow({ input, opening, closing, classOf: (a) => classes[a] });
}
const line = (lines: readonly { account: string; amount: number }[], account: string) => lines.find((l) => l.account === account)?.amount;

describe("PwC, Financial statement presentation guide (US), 6.11 'Foreign currency cash flows': a UK subsidiary (GBP) of a US reporting entity", () => {
  // Published (viewpoint.pwc.com, FSP 6.11): "B Current rate, beginning of year GBP 1 = USD 1.45;
  // E Current rate, end of year GBP 1 = USD 1.55; A Average rate for the year GBP 1 = USD 1.50"; the
  // functional-currency (GBP) balance sheets at 12/31/20X1 and 12/31/20X2 (cash 256,000 → 457,000,
  // change 201,000; receivables 225,000 → 250,000; inventory 478,000 → 500,000; PP&E, net 1,000,000 →
  // 1,050,000; payables 300,000 → 340,000; accrued 120,000 → 190,000; debt in USD 413,000 → 387,000,
  // in GBP 50,000, intercompany 138,000 → 129,000; deferred taxes 100,000 → 80,000; common stock
  // 500,000; retained earnings 338,000 → 581,000); and the rule: the effect of exchange rate changes on
  // cash "is not a 'plug'" and is "the net cash flow activity for the period measured in the functional
  // currency multiplied by the difference between the exchange rates used in translating functional
  // currency cash flows and the exchange rate at year end + the fluctuation in the exchange rates from
  // the beginning of the year to the end of the year multiplied by the beginning cash balance".
  // The guide's own dollar figures were not in the pages read: the dollar amounts below are the
  // published GBP figures at the published rates by the published rule (implied), each shown.
  const classes: Record<string, CashFlowClass> = { cash: "cash", ppe: "investing", "debt-usd": "financing", "debt-gbp": "financing", "debt-ic": "financing", dtl: "operating" };
  const cf = cashFlowOf(loadExample("pwc-fsp-6-11-foreign-cash-flow"), classes);
  const uk = cf.exchangeEffect.entities.find((e) => e.entity === "ukco")!;

  it("computes the effect of exchange rate changes on cash from the subsidiary's cash, by the guide's rule: $35,650", () => {
    // 256,000 × (1.55 − 1.45) = 25,600 on the opening cash; 201,000 × (1.55 − 1.50) = 10,050 on the year's flows.
    expect(uk).toMatchObject({ openingCashLocal: 256_000_00, closingCashLocal: 457_000_00, openingRate: "1.45", closingRate: "1.55" });
    expect(uk.onOpeningCash).toBe(25_600_00);
    expect(uk.onCashFlows).toBe(10_050_00);
    expect(uk.total).toBe(35_650_00);
    expect(cf.exchangeEffect.total).toBe(35_650_00);
  });

  it("reconciles opening to closing cash to the cent: $371,200 + $301,500 + $35,650 = $708,350", () => {
    expect(cf.openingCash).toBe(371_200_00); // 256,000 × 1.45
    expect(cf.closingCash).toBe(708_350_00); // 457,000 × 1.55
    expect(cf.netCashFlow).toBe(301_500_00); // 201,000 × 1.50
    expect(uk.netCashFlow).toBe(301_500_00);
    expect(cf.reconciliation).toEqual({ computedClosingCash: 708_350_00, difference: 0, reconciles: true });
  });

  it("translates each line's movement at the average rate, so no translation difference reaches the operating, investing or financing lines", () => {
    expect(cf.operating.profit).toBe(364_500_00); // 243,000 × 1.50
    expect(line(cf.operating.workingCapital, "ar")).toBe(-37_500_00); // 25,000 × 1.50
    expect(line(cf.operating.workingCapital, "inv")).toBe(-33_000_00);
    expect(line(cf.operating.workingCapital, "ap")).toBe(60_000_00);
    expect(line(cf.operating.workingCapital, "accrued")).toBe(105_000_00);
    expect(line(cf.operating.workingCapital, "dtl")).toBe(-30_000_00);
    expect(cf.operating.total).toBe(429_000_00);
    expect(cf.investing).toEqual({ lines: [{ account: "ppe", name: "Property, plant and equipment, net", amount: -75_000_00 }], total: -75_000_00 });
    expect(line(cf.financing.lines, "debt-usd")).toBe(-39_000_00);
    expect(line(cf.financing.lines, "debt-ic")).toBe(-13_500_00);
    expect(line(cf.financing.lines, "debt-gbp")).toBeUndefined();
    // The parent's investment and the subsidiary's capital are eliminated: no flow, no dividend.
    expect(cf.financing.total).toBe(-52_500_00);
  });
});

describe("a group whose subsidiary's cash moves month by month: the IAS 7.28 effect summed over the months (derived, hand-checked)", () => {
  // Derived from the PwC example: the same subsidiary over two months, the cash flows falling in
  // different months at different average rates. Hand-checked: opening cash 256,000 at 1.45 = 371,200;
  // month 1: +100,000 at 1.48 = 148,000; month 2: +101,000 at 1.52 = 153,520; closing 457,000 at 1.55 =
  // 708,350. Effect = 256,000 × (1.55 − 1.45) + 100,000 × (1.55 − 1.48) + 101,000 × (1.55 − 1.52)
  // = 25,600 + 7,000 + 3,030 = 35,630; 371,200 + 301,520 + 35,630 = 708,350.
  const json = loadExample("pwc-fsp-6-11-foreign-cash-flow");
  const sub = json.entities[1]!;
  // Month 1: cash +100,000 and receivables +21,500 against the month's profit of 121,500; month 2: the rest.
  const firstMonth: Record<string, number> = { cash: 356_000_00, re: -459_500_00, ar: 246_500_00 };
  const twoMonths: ConsolidationInputJson = {
    ...json,
    period: { from: "2021-01", to: "2021-02" },
    entities: [
      { ...json.entities[0]!, balances: json.entities[0]!.balances.map((s) => ({ ...s, amounts: [...s.amounts, s.amounts.at(-1)!] })) },
      {
        ...sub,
        balances: sub.balances.map((s) => {
          if (s.from === "2021-01") return { ...s, amounts: s.account === "revenue" ? [-1_000_000_00, -1_000_000_00] : s.account === "cos" ? [500_000_00, 500_000_00] : [378_500_00, 378_500_00] };
          const [a, , c] = s.amounts as [number, number, number];
          return { ...s, amounts: [a, a, firstMonth[s.account] ?? a, c] };
        }),
      },
    ],
    rates: { GBP: { ...json.rates!.GBP!, "2021-01": { average: "1.48", closing: "1.50" }, "2021-02": { average: "1.52", closing: "1.55" } } },
  };
  const classes: Record<string, CashFlowClass> = { cash: "cash", ppe: "investing", "debt-usd": "financing", "debt-gbp": "financing", "debt-ic": "financing", dtl: "operating" };

  it("is opening cash × (closing − opening rate) plus each month's flow × (closing rate − that month's rate)", () => {
    const input = parseConsolidationInput(twoMonths);
    const closing = consolidate(input);
    const opening = consolidate(parseConsolidationInput({ ...twoMonths, period: { month: "2020-12" } }));
    const cf = consolidatedCashFlow({ input, opening, closing, classOf: (a) => classes[a] });
    const uk = cf.exchangeEffect.entities[0]!;
    expect(uk.netCashFlow).toBe(301_520_00);
    expect(uk.onOpeningCash).toBe(25_600_00);
    expect(uk.onCashFlows).toBe(10_030_00);
    expect(cf.exchangeEffect.total).toBe(35_630_00);
    expect(cf.reconciliation).toEqual({ computedClosingCash: 708_350_00, difference: 0, reconciles: true });
  });
});

describe("default cash-flow class from the QuickBooks account type", () => {
  it.each([
    ["Asset", "Bank", "Checking", "cash"],
    ["Asset", "Accounts Receivable", "AccountsReceivable", "operating"],
    ["Asset", "Other Current Asset", "Inventory", "operating"],
    ["Asset", "Fixed Asset", "MachineryAndEquipment", "investing"],
    ["Asset", "Fixed Asset", "AccumulatedDepreciation", "nonCash"],
    ["Asset", "Other Asset", "Goodwill", "investing"],
    ["Liability", "Credit Card", "CreditCard", "operating"],
    ["Liability", "Other Current Liability", "LoanPayable", "operating"],
    ["Liability", "Long Term Liability", "NotesPayable", "financing"],
    ["Equity", "Equity", "CommonStock", "financing"],
  ] as const)("%s / %s / %s → %s", (classification, type, subtype, expected) => {
    expect(defaultCashFlowClass(classification, type, subtype)).toBe(expected);
  });
  it("has no class for profit and loss accounts", () => {
    expect(defaultCashFlowClass("Expense", "Expense", "Depreciation")).toBeUndefined();
  });
});

describe("an intra-group loan in the subsidiary's currency (derived from the PwC example, hand-checked)", () => {
  // The UK's intercompany debt (GBP 138,000 → 129,000) is owed to the parent, which carries it in
  // dollars at the closing rate: $200,100 → $199,950. The UK repays GBP 9,000 ($13,500 at 1.50), the
  // parent receives it and books a $13,350 exchange gain on the loan (IAS 21.32: in profit, also in
  // the consolidated statements, IAS 21.45). Intra-group: the repayment is no cash flow of the group
  // and the gain is not cash. Expected: profit 364,500 + 13,350 = 377,850, the gain taken out (−13,350),
  // no line for the loan on either side, financing −39,000 (the USD debt only); net cash flow
  // 315,000 (the UK's 301,500 without its 13,500 to the parent); closing cash 708,350 + 13,500.
  const json = loadExample("pwc-fsp-6-11-foreign-cash-flow");
  const parent = json.entities[0]!;
  const withLoan = (differenceTo: "fx" | "cta"): ConsolidationInputJson => ({
    ...json,
    entities: [
      {
        ...parent,
        accounts: [...parent.accounts, { id: "loan-uk", name: "Loan to UK Subsidiary", classification: "Asset" }],
        balances: [
          { account: "investment", from: "2020-11", amounts: [121_510_000, 121_510_000, 121_510_000] },
          { account: "loan-uk", from: "2020-11", amounts: [200_100_00, 200_100_00, 199_950_00] },
          { account: "cash", from: "2020-11", amounts: [0, 0, 13_500_00] },
          { account: "capital", from: "2020-11", amounts: [-141_520_000, -141_520_000, -141_520_000] },
          { account: "re", from: "2020-11", amounts: [0, 0, -13_350_00] },
          { account: "fx", from: "2021-01", amounts: [-13_350_00] },
        ],
      },
      json.entities[1]!,
    ],
    eliminations: {
      ...json.eliminations,
      intercompany: [{ id: "loan", kind: "receivablePayable", left: { entity: "usco", account: "loan-uk" }, right: { entity: "ukco", account: "debt-ic" }, differenceTo }],
    },
  });
  const classes: Record<string, CashFlowClass> = { cash: "cash", ppe: "investing", "debt-usd": "financing", "debt-gbp": "financing", "debt-ic": "financing", "loan-uk": "investing", dtl: "operating" };

  it.each(["fx", "cta"] as const)("eliminates the loan's flows and takes the exchange gain out of the profit (difference to %s)", (differenceTo) => {
    const cf = cashFlowOf(withLoan(differenceTo), classes);
    expect(cf.operating.profit).toBe(377_850_00);
    expect(cf.operating.adjustments).toEqual([{ account: "(intra-group differences)", name: "Exchange differences on intra-group balances, not cash", amount: -13_350_00 }]);
    expect(cf.operating.total).toBe(429_000_00);
    expect(line(cf.investing.lines, "loan-uk")).toBeUndefined();
    expect(line(cf.financing.lines, "debt-ic")).toBeUndefined();
    expect(cf.financing.total).toBe(-39_000_00);
    expect(cf.netCashFlow).toBe(315_000_00);
    expect(cf.exchangeEffect.total).toBe(35_650_00);
    expect(cf.closingCash).toBe(721_850_00);
    expect(cf.reconciliation).toEqual({ computedClosingCash: 721_850_00, difference: 0, reconciles: true });
  });

  it("takes a difference already booked at the opening month-end out of the opening retained earnings, not into dividends (difference to fx)", () => {
    // The parent carried the loan at $200,000 at the opening (a $100 difference the engine put in that
    // month's profit) and books a $13,450 gain: consolidated profit 364,500 + 13,450, none of it cash.
    const base = withLoan("fx");
    const p = base.entities[0]!;
    const shifted: ConsolidationInputJson = {
      ...base,
      entities: [
        {
          ...p,
          balances: p.balances.map((b) =>
            b.account === "loan-uk" ? { ...b, amounts: [200_000_00, 200_000_00, 199_950_00] }
            : b.account === "capital" ? { ...b, amounts: [-141_510_000, -141_510_000, -141_510_000] }
            : b.account === "re" ? { ...b, amounts: [0, 0, -13_450_00] }
            : b.account === "fx" ? { ...b, amounts: [-13_450_00] }
            : b,
          ),
        },
        base.entities[1]!,
      ],
    };
    const cf = cashFlowOf(shifted, classes);
    expect(cf.operating.profit).toBe(377_950_00);
    expect(line(cf.operating.adjustments, "(intra-group differences)")).toBe(-13_450_00);
    expect(cf.operating.total).toBe(429_000_00);
    expect(cf.financing.lines.map((l) => l.account)).toEqual(["debt-usd"]);
    expect(cf.netCashFlow).toBe(315_000_00);
    expect(cf.reconciliation.reconciles).toBe(true);
  });
});
