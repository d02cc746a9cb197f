import type { Company, ObalState, ObalTrialBalance } from "@groupledger/contract";
import { OBAL, PARENT_CO, UK_CO } from "../../../test/fixtures.ts";

/** A parent whose fiscal year starts in April, so fiscal and calendar months differ. */
export const PARENT_APRIL: Company = { ...PARENT_CO, fiscalYearStartMonth: 4 };
export const CA_CO: Company = { ...UK_CO, realmId: "9341453172384031", companyName: "Northwind Canada Ltd", homeCurrency: "CAD", country: "CA" };
export const JP_CO: Company = {
  ...UK_CO,
  realmId: "9341453172384049",
  companyName: "Northwind Japan KK",
  homeCurrency: "JPY",
  country: "JP",
  earliestTransactionDate: "2026-05-01",
};

export const LOCKED: ObalState = { ...OBAL, year: 2026, month: 12, naturalYear: 2026, naturalMonth: 3 };

/**
 * UK's trial balance at 2026-03, translated into USD: balance-sheet lines at the closing rate,
 * income at the average rate, equity historical; the CTA balances it (debit 300.00 USD). The CTA
 * parts (credit positive) add up to the change of -300.00.
 */
export const UK_TB: ObalTrialBalance = {
  realmId: UK_CO.realmId,
  eligible: true,
  reason: null,
  ok: true,
  problems: [],
  view: {
    companyName: UK_CO.companyName,
    currency: "GBP",
    parentCurrency: "USD",
    month: "2026-03",
    openingMonth: "2025-03",
    period: { from: "2025-04", to: "2026-03" },
    lines: [
      { account: "35", special: null, name: "Bank", classification: "Asset", local: 1_000_000, translated: 1_250_000, basis: "closing", rate: "1.25", parentAccount: "10", parentAccountName: "Cash" },
      { account: "60", special: null, name: "Share capital", classification: "Equity", local: -500_000, translated: -650_000, basis: "historical", rate: "1.30", parentAccount: "30", parentAccountName: "Common stock" },
      { account: "61", special: null, name: "Retained earnings", classification: "Equity", local: -300_000, translated: -390_000, basis: "retainedEarningsRollForward", rate: null, parentAccount: "31", parentAccountName: "Retained earnings" },
      { account: "70", special: null, name: "Sales", classification: "Revenue", local: -400_000, translated: -480_000, basis: "average", rate: "1.20", parentAccount: "40", parentAccountName: "Revenue" },
      { account: "80", special: null, name: "Rent", classification: "Expense", local: 200_000, translated: 240_000, basis: "average", rate: "1.20", parentAccount: "50", parentAccountName: "Operating expenses" },
      { account: null, special: "cta", name: "Cumulative translation adjustment", classification: "Equity", local: 0, translated: 30_000, basis: "cta", rate: null, parentAccount: "39", parentAccountName: "CTA" },
    ],
    byParentAccount: [
      { account: "10", name: "Cash", amount: 1_250_000 },
      { account: "30", name: "Common stock", amount: -650_000 },
      { account: "31", name: "Retained earnings", amount: -390_000 },
      { account: "40", name: "Revenue", amount: -480_000 },
      { account: "50", name: "Operating expenses", amount: 240_000 },
      { account: "39", name: "CTA", amount: 30_000 },
    ],
    cta: {
      account: "39",
      opening: 0,
      change: -30_000,
      closing: -30_000,
      explanation: {
        months: [],
        total: { openingNetAssets: -20_000, netIncome: -12_000, dividends: 0, equityMovements: 0, rounding: 2_000, change: -30_000 },
      },
    },
    totals: { localDebit: 1_200_000, localCredit: 1_200_000, debit: 1_520_000, credit: 1_520_000, balanced: true },
  },
};

export const CA_TB: ObalTrialBalance = {
  ...UK_TB,
  realmId: CA_CO.realmId,
  view: UK_TB.view && { ...UK_TB.view, companyName: CA_CO.companyName, currency: "CAD" },
};

export const JP_TB: ObalTrialBalance = {
  realmId: JP_CO.realmId,
  eligible: false,
  reason: "Northwind Japan KK's books start in May 2026 (first transaction on 2026-05-01), after the opening month, March 2026: it has no balances to open with.",
  ok: false,
  problems: [],
  view: null,
};

export const UK_BLOCKED_PROBLEMS = [
  { code: "missing_rate", message: "No GBP closing rate for 2026-03." },
  { code: "unmapped_account", message: "Northwind UK Ltd account 72 Consulting income (balance 1,200.00 GBP) is not mapped." },
];
