import type { ConsolidatedReport } from "@groupledger/contract";

/**
 * A small consolidated report that is right by construction: the USD parent and its 80%-owned UK
 * subsidiary, each entity column balancing on its cash, intercompany and investment eliminations,
 * the NCI's 20% of the subsidiary's equity and profit, and the statements drawn from the
 * consolidated column the way the engine does (packages/domain consolidation/statements.ts).
 */

export const PARENT_ID = "9341453172384015";
export const UK_ID = "9341453172384023";
const NCI_PROFIT = "(nci share of profit)";
const UNMAPPED = `unmapped:${UK_ID}:77`;

type Role = "account" | "unmapped" | "nciShareOfProfit";
const CHART: { account: string; name: string; classification: string; role?: Role }[] = [
  { account: "1", name: "Cash", classification: "Asset" },
  { account: "2", name: "Accounts receivable", classification: "Asset" },
  { account: "3", name: "Intercompany receivable", classification: "Asset" },
  { account: "4", name: "Investment in Northwind UK", classification: "Asset" },
  { account: "5", name: "Prepaid insurance", classification: "Asset" },
  { account: "10", name: "Accounts payable", classification: "Liability" },
  { account: "11", name: "Intercompany payable", classification: "Liability" },
  { account: "20", name: "Share capital", classification: "Equity" },
  { account: "21", name: "Retained earnings", classification: "Equity" },
  { account: "22", name: "Accumulated OCI", classification: "Equity" },
  { account: "23", name: "Non-controlling interests", classification: "Equity" },
  { account: "30", name: "Sales", classification: "Revenue" },
  { account: "40", name: "Cost of sales", classification: "Expense" },
  { account: "41", name: "Rent", classification: "Expense" },
  { account: UNMAPPED, name: "UNMAPPED Northwind UK Ltd: Sundry", classification: "Expense", role: "unmapped" },
  { account: NCI_PROFIT, name: "Net income attributable to non-controlling interests", classification: "Expense", role: "nciShareOfProfit" },
];

type Column = Record<string, number>;

/** Cash is each entity's balancing figure, so every column sums to zero. */
function balanced(col: Column): Column {
  const rest = Object.entries(col).reduce((s, [k, v]) => (k === "1" ? s : s + v), 0);
  return { ...col, "1": -rest };
}

export interface Figures {
  sales: [number, number];
  cogs: [number, number];
  receivables: [number, number];
}

const CURRENT: Figures = { sales: [4_000_000, 2_600_000], cogs: [2_200_000, 1_100_000], receivables: [3_000_000, 1_500_000] };
export const PRIOR: Figures = { sales: [3_600_000, 2_300_000], cogs: [2_000_000, 1_000_000], receivables: [2_700_000, 1_200_000] };

export function statementsFor(f: Figures) {
  const parent = balanced({ "2": f.receivables[0], "3": 500_000, "4": 1_600_000, "10": -1_800_000, "20": -5_000_000, "21": -2_100_000, "30": -f.sales[0], "40": f.cogs[0], "41": 600_000 });
  const uk = balanced({ "2": f.receivables[1], "10": -700_000, "11": -500_000, "20": -2_000_000, "21": -800_000, "22": -100_000, "30": -f.sales[1], "40": f.cogs[1], "41": 200_000 });
  const eliminations: Column = { "11": 500_000, "3": -500_000, "20": 1_600_000, "4": -1_600_000 };
  const ukProfit = f.sales[1] - f.cogs[1] - 200_000;
  const share = (n: number) => Math.round(n * 0.2);
  const nciParts = { "20": share(2_000_000), "21": share(800_000), "22": share(100_000), [NCI_PROFIT]: share(ukProfit) };
  const nci: Column = { ...nciParts, "23": -Object.values(nciParts).reduce((s, v) => s + v, 0) };
  const columns = [parent, uk, eliminations, nci];
  const rows = CHART.map((a) => {
    const amounts = columns.map((c) => c[a.account] ?? 0);
    return { account: a.account, name: a.name, classification: a.classification, role: a.role ?? ("account" as Role), amounts: [...amounts, amounts.reduce((s, v) => s + v, 0)] };
  });

  const assets: { account: string; name: string; amount: number }[] = [];
  const liabilities: typeof assets = [];
  const equity: typeof assets = [];
  const revenue: typeof assets = [];
  const expenses: typeof assets = [];
  let attributableToNci = 0;
  let nonControllingInterests = 0;
  for (const r of rows) {
    const amount = r.amounts.at(-1)!;
    if (r.role === "nciShareOfProfit") {
      attributableToNci += amount;
      continue;
    }
    if (r.account === "23") {
      nonControllingInterests -= amount;
      continue;
    }
    if (amount === 0) continue;
    const line = { account: r.account, name: r.name };
    if (r.classification === "Asset") assets.push({ ...line, amount });
    if (r.classification === "Liability") liabilities.push({ ...line, amount: -amount });
    if (r.classification === "Equity") equity.push({ ...line, amount: -amount });
    if (r.classification === "Revenue") revenue.push({ ...line, amount: -amount });
    if (r.classification === "Expense") expenses.push({ ...line, amount });
  }
  const sum = (xs: { amount: number }[]) => xs.reduce((s, x) => s + x.amount, 0);
  const netIncome = sum(revenue) - sum(expenses);
  const attributableToParent = netIncome - attributableToNci;
  equity.push({ account: "(period profit)", name: "Net income for the period attributable to owners of the parent", amount: attributableToParent });
  const totalAssets = sum(assets);
  const totalLiabilities = sum(liabilities);
  const totalEquity = sum(equity);
  return {
    worksheet: {
      columns: [
        { id: PARENT_ID, label: "Northwind Holdings Inc. (USD)" },
        { id: UK_ID, label: "Northwind UK Ltd (GBP → USD)" },
        { id: "eliminations", label: "Eliminations" },
        { id: "nci", label: "Non-controlling interests" },
        { id: "consolidated", label: "Consolidated" },
      ],
      rows,
    },
    trialBalance: rows.filter((r) => r.amounts.at(-1) !== 0).map((r) => ({ account: r.account, name: r.name, classification: r.classification, amount: r.amounts.at(-1)! })),
    balanceSheet: {
      assets,
      liabilities,
      equity,
      totalAssets,
      totalLiabilities,
      totalEquity,
      nonControllingInterests,
      balanced: totalAssets === totalLiabilities + totalEquity + nonControllingInterests,
    },
    incomeStatement: { revenue, expenses, netIncome, attributableToNci, attributableToParent },
    nciClosing: nonControllingInterests,
    nciProfit: share(ukProfit),
    ukProfit,
  };
}

type Over = Partial<Omit<ConsolidatedReport, "report">> & { report?: ConsolidatedReport["report"] };

/** Q1 2026 compared with Q1 2025, unless `over` says otherwise. */
export function reportFixture(over: Over = {}): ConsolidatedReport {
  const s = statementsFor(CURRENT);
  const p = statementsFor(PRIOR);
  return {
    ok: true,
    problems: [],
    warnings: [],
    period: { from: "2026-01", to: "2026-03", label: "2026-01 to 2026-03" },
    parentCurrency: "USD",
    exponent: 2,
    openingMonth: "2025-12",
    report: {
      worksheet: s.worksheet,
      trialBalance: s.trialBalance,
      balanceSheet: s.balanceSheet,
      incomeStatement: s.incomeStatement,
      eliminations: [
        { id: "ic-1", kind: "receivablePayable", description: "Intercompany balance, parent and UK", lines: [], details: {} },
        { id: "inv-1", kind: "investment", description: "Investment in Northwind UK against its equity at acquisition", lines: [], details: {} },
      ],
      nci: [
        {
          entity: UK_ID,
          share: "0.2",
          atAcquisition: 400_000,
          retainedEarningsSinceAcquisition: 160_000,
          capitalSinceAcquisition: 0,
          netIncome: s.nciProfit,
          dividends: 0,
          cta: 20_000,
          goodwillImpairmentBeforePeriod: 0,
          goodwillCta: 0,
          closing: s.nciClosing,
        },
      ],
      unmapped: [],
      entities: [
        { id: PARENT_ID, name: "Northwind Holdings Inc.", currency: "USD", method: "none", netIncome: { local: 1_200_000, translated: 1_200_000 }, ctaChange: 0, ctaExplanation: { months: [], total: { openingNetAssets: 0, netIncome: 0, dividends: 0, equityMovements: 0, rounding: 0, change: 0 } } },
        { id: UK_ID, name: "Northwind UK Ltd", currency: "GBP", method: "currentRate", netIncome: { local: 1_026_000, translated: s.ukProfit }, ctaChange: -35_000, ctaExplanation: { months: [], total: { openingNetAssets: 0, netIncome: 0, dividends: 0, equityMovements: 0, rounding: 0, change: 0 } } },
      ],
    },
    comparison: {
      kind: "prior_year",
      period: { from: "2025-01", to: "2025-03", label: "2025-01 to 2025-03" },
      ok: true,
      problems: [],
      balanceSheet: p.balanceSheet,
      incomeStatement: p.incomeStatement,
    },
    generatedAt: "2026-11-21T10:00:00.000Z",
    ...over,
  };
}

/** A report for one month with nothing compared, its figures scaled so a chart has something to draw. */
export function monthFixture(month: string, factor = 1): ConsolidatedReport {
  const base = { sales: [4_000_000, 2_600_000], cogs: [2_200_000, 1_100_000], receivables: [3_000_000, 1_500_000] } as const;
  const scale = (pair: readonly [number, number]): [number, number] => [Math.round(pair[0] * factor), Math.round(pair[1] * factor)];
  const s = statementsFor({ sales: scale(base.sales), cogs: scale(base.cogs), receivables: scale(base.receivables) });
  return reportFixture({
    period: { from: month, to: month, label: month },
    comparison: null,
    report: { ...reportFixture().report!, worksheet: s.worksheet, trialBalance: s.trialBalance, balanceSheet: s.balanceSheet, incomeStatement: s.incomeStatement },
  });
}

/** A report the server could not compute: rates missing and an intercompany pair in the wrong place. */
export function blockedFixture(): ConsolidatedReport {
  return reportFixture({
    ok: false,
    problems: [
      { code: "missing_rate", message: "No GBP closing rate for 2026-03: enter it in FOREX Management." },
      { code: "invalid_pair", message: "The intercompany pair 'UK loan' names an account Northwind UK Ltd no longer has." },
      { code: "engine_refused", message: "The consolidation engine refused the input: books of Northwind UK Ltd do not balance in 2026-02." },
    ],
    report: null,
    comparison: null,
  });
}
