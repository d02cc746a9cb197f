/**
 * Cash-flow classes of the parent's balance-sheet accounts (issue 23, IAS 7.6 and 7.10, ASC 230-10-45):
 * where the movement of each consolidated balance-sheet line goes in the statement of cash flows,
 * indirect method. The profit and loss accounts are the period's profit, retained earnings and
 * dividends accounts are rolled forward (profit, dividends paid), the CTA account's movement is not a
 * cash flow, and the NCI account's is the NCI's profit, translation and transactions with it: those
 * four are fixed by their nature, every other balance-sheet account has a class the user may change.
 */
export const CASH_FLOW_CLASSES = ["cash", "operating", "nonCash", "investing", "financing"] as const;
export type CashFlowClass = (typeof CASH_FLOW_CLASSES)[number];

export const CASH_FLOW_CLASS_LABELS: Readonly<Record<CashFlowClass, string>> = {
  cash: "Cash and cash equivalents",
  operating: "Operating: working capital",
  nonCash: "Operating: non-cash item",
  investing: "Investing",
  financing: "Financing",
};

export function isCashFlowClass(value: string): value is CashFlowClass {
  return (CASH_FLOW_CLASSES as readonly string[]).includes(value);
}

/** QBO account subtypes whose movement is a non-cash item of operating activities (IAS 7.20(b)). */
const NON_CASH_SUBTYPES = new Set(["AccumulatedDepreciation", "AccumulatedAmortization", "AccumulatedAmortizationOfOtherAsset", "AccumulatedDepletion"]);

/**
 * The default class of a parent account from its QuickBooks AccountType and AccountSubType
 * (IAS 7.8: bank overdrafts repayable on demand are part of cash; here only Bank accounts are,
 * a credit card is a liability of operating activities).
 * - Bank → cash;
 * - Accounts receivable, Other Current Asset, Accounts payable, Other Current Liability, Credit
 *   Card → operating (working capital, IAS 7.20(a));
 * - accumulated depreciation, amortisation or depletion → non-cash (added back, IAS 7.20(b));
 * - Fixed Asset, Other Asset → investing (IAS 7.16);
 * - Long Term Liability, Equity (share capital, other reserves) → financing (IAS 7.17);
 * - anything else of the balance sheet → operating. Undefined for profit and loss accounts.
 */
export function defaultCashFlowClass(classification: string, accountType: string, accountSubType: string | null): CashFlowClass | undefined {
  if (classification === "Revenue" || classification === "Expense") return undefined;
  if (accountSubType && NON_CASH_SUBTYPES.has(accountSubType)) return "nonCash";
  switch (accountType.replaceAll(" ", "").toLowerCase()) {
    case "bank":
      return "cash";
    case "fixedasset":
    case "otherasset":
      return "investing";
    case "longtermliability":
    case "equity":
      return "financing";
    default:
      return classification === "Equity" ? "financing" : "operating";
  }
}
