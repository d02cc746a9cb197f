import type { AcquisitionBody, Acquisitions, AcquisitionSubsidiary } from "@groupledger/contract";
import { PARENT_CO, UK_CO } from "../../../test/fixtures.ts";

export const RETAIL_CO = { ...UK_CO, realmId: "9341453172384056", companyName: "Northwind Retail LLC", homeCurrency: "USD", country: "US", ownershipPercent: "100" };

export const UK_EQUITY_ACCOUNTS = [
  { accountId: "60", name: "Ordinary Shares", acctNum: "3000" },
  { accountId: "61", name: "Share Premium", acctNum: "3010" },
  { accountId: "62", name: "Retained Earnings", acctNum: "3200" },
];

/**
 * What GroupLedger reads from the UK books: bought at the end of January 2023 for $150,000.00,
 * 80%, with £100,000.00 of share capital and £25,000.00 of retained earnings (credits, so negative).
 */
export const UK_PROPOSAL: AcquisitionBody = {
  acquiredOn: "2023-01-31",
  ownershipPercent: "80",
  consideration: 15_000_000,
  investmentAccountId: "15",
  nciMeasurement: "proportionateShare",
  nciFairValue: null,
  equityAtAcquisition: [
    { accountId: "60", name: "Ordinary Shares", acctNum: "3000", localAmount: -10_000_000 },
    { accountId: "62", name: "Retained Earnings", acctNum: "3200", localAmount: -2_500_000 },
  ],
  fairValueAdjustments: [],
  ownershipChanges: [],
};

/** The PUT body that confirms UK_PROPOSAL unchanged: equity as account and local amount only. */
export const UK_PROPOSAL_PUT = {
  ...UK_PROPOSAL,
  equityAtAcquisition: [
    { accountId: "60", localAmount: -10_000_000 },
    { accountId: "62", localAmount: -2_500_000 },
  ],
};

export const UK_REASONS = [
  "Investment account: 1500 · Investment in Northwind UK Ltd, the parent's asset account named after Northwind UK Ltd.",
  "Acquisition date: 2023-01-31, the end of the first month that account holds a balance (the books are monthly, so the acquisition takes effect at a month-end).",
  "Consideration: $150,000.00, that account's balance at 2023-01-31.",
];

/** £125,000.00 × 1.25 = $156,250.00 of net assets; NCI 20% = $31,250.00; goodwill 150,000 + 31,250 − 156,250 = $25,000.00. */
export const UK_ACQ: AcquisitionSubsidiary = {
  realmId: UK_CO.realmId,
  companyName: UK_CO.companyName,
  currency: "GBP",
  translated: true,
  saved: null,
  savedFigures: null,
  proposal: UK_PROPOSAL,
  proposalFigures: { acquisitionMonth: "2023-01", closingRate: "1.25", netAssets: 15_625_000, fairValueAdjustments: 0, nciAtAcquisition: 3_125_000, goodwill: 2_500_000 },
  reasons: UK_REASONS,
  problems: [],
  equityAccounts: UK_EQUITY_ACCOUNTS,
};

/** UK_ACQ's proposal figures as the screen lists them, label and value, in the parent's USD. */
export const UK_PROPOSAL_FIGURES = [
  ["Acquisition month", "Jan 2023"],
  ["Closing rate", "1 GBP = 1.25 USD"],
  ["Net assets acquired", "$156,250.00"],
  ["Fair-value adjustments", "$0.00"],
  ["NCI at acquisition", "$31,250.00"],
  ["Goodwill", "$25,000.00"],
];

/** Retail: nothing could be read from the books, wholly owned. */
export const RETAIL_ACQ: AcquisitionSubsidiary = {
  realmId: RETAIL_CO.realmId,
  companyName: RETAIL_CO.companyName,
  currency: "USD",
  translated: false,
  saved: null,
  savedFigures: null,
  proposal: null,
  proposalFigures: null,
  reasons: [],
  problems: [
    'Northwind Holdings Inc. has no asset account named like an investment in Northwind Retail LLC (for example "Investment in Northwind Retail LLC"); enter the acquisition by hand.',
  ],
  equityAccounts: [
    { accountId: "80", name: "Common Stock", acctNum: null },
    { accountId: "81", name: "Retained Earnings", acctNum: null },
  ],
};

/** Retail saved: $40,000.00 paid for $45,000.00 of net assets, a bargain purchase gain of $5,000.00. */
export const RETAIL_SAVED: AcquisitionSubsidiary = {
  ...RETAIL_ACQ,
  saved: {
    acquiredOn: "2024-06-30",
    ownershipPercent: "100",
    consideration: 4_000_000,
    investmentAccountId: "16",
    nciMeasurement: "proportionateShare",
    nciFairValue: null,
    equityAtAcquisition: [
      { accountId: "80", name: "Common Stock", acctNum: null, localAmount: -3_000_000 },
      { accountId: "81", name: "Retained Earnings", acctNum: null, localAmount: -1_500_000 },
    ],
    fairValueAdjustments: [],
    ownershipChanges: [],
  },
  savedFigures: { acquisitionMonth: "2024-06", closingRate: "1", netAssets: 4_500_000, fairValueAdjustments: 0, nciAtAcquisition: 0, goodwill: -500_000 },
  problems: [],
};

export const ACQUISITIONS: Acquisitions = {
  parentRealmId: PARENT_CO.realmId,
  parentCurrency: "USD",
  assetAccounts: [
    { accountId: "1", name: "Chase Operating", acctNum: "1000" },
    { accountId: "15", name: "Investment in Northwind UK Ltd", acctNum: "1500" },
    { accountId: "16", name: "Investment in Northwind Retail LLC", acctNum: "1510" },
    { accountId: "17", name: "Customer Relationships", acctNum: "1600" },
  ],
  expenseAccounts: [
    { accountId: "71", name: "Amortisation", acctNum: "6100" },
    { accountId: "72", name: "Depreciation", acctNum: "6200" },
  ],
  subsidiaries: [UK_ACQ, RETAIL_ACQ],
};
