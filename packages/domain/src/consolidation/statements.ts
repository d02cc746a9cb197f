import type { WorksheetRows } from "./mapping.ts";
import type { ConsolidationOutput } from "./output-schema.ts";

type Statements = Pick<ConsolidationOutput, "trialBalance" | "balanceSheet" | "incomeStatement">;

/**
 * Consolidated trial balance, balance sheet and P&L from the worksheet's consolidated column.
 * The period's profit attributable to the parent is shown inside equity (the TB's retained
 * earnings are as at the start of the period) so that assets = liabilities + equity + NCI.
 */
export function buildStatements(rows: WorksheetRows, consolidated: Float64Array, nciRow: number | undefined): Statements {
  const trialBalance: Statements["trialBalance"] = [];
  const assets: { account: string; name: string; amount: number }[] = [];
  const liabilities: typeof assets = [];
  const equity: typeof assets = [];
  const revenue: typeof assets = [];
  const expenses: typeof assets = [];
  let attributableToNci = 0;
  let nci = 0;
  for (let r = 0; r < rows.size; r++) {
    const amount = consolidated[r]!;
    const account = rows.ids[r]!;
    const name = rows.names[r]!;
    const classification = rows.classifications[r]!;
    if (amount !== 0) trialBalance.push({ account, name, classification, amount });
    if (rows.roles[r] === "nciShareOfProfit") {
      attributableToNci += amount;
      continue;
    }
    if (r === nciRow) {
      nci -= amount;
      continue;
    }
    if (amount === 0) continue;
    switch (classification) {
      case "Asset": assets.push({ account, name, amount }); break;
      case "Liability": liabilities.push({ account, name, amount: -amount }); break;
      case "Equity": equity.push({ account, name, amount: -amount }); break;
      case "Revenue": revenue.push({ account, name, amount: -amount }); break;
      case "Expense": expenses.push({ account, name, amount }); break;
    }
  }
  const sum = (xs: readonly { amount: number }[]) => xs.reduce((s, x) => s + x.amount, 0);
  const netIncome = sum(revenue) - sum(expenses);
  const attributableToParent = netIncome - attributableToNci;
  equity.push({ account: "(period profit)", name: "Net income for the period attributable to owners of the parent", amount: attributableToParent });
  const totalAssets = sum(assets);
  const totalLiabilities = sum(liabilities);
  const totalEquity = sum(equity);
  return {
    trialBalance,
    balanceSheet: {
      assets,
      liabilities,
      equity,
      totalAssets,
      totalLiabilities,
      totalEquity,
      nonControllingInterests: nci,
      balanced: totalAssets === totalLiabilities + totalEquity + nci,
    },
    incomeStatement: { revenue, expenses, netIncome, attributableToNci, attributableToParent },
  };
}
