import type { CompanyAccount, CtaSettings, CtaSubsidiary } from "@groupledger/contract";
import { PARENT_CO, UK_CO } from "../../../test/fixtures.ts";

export const CA_CO = { ...UK_CO, realmId: "9341453172384031", companyName: "Northwind Canada Inc.", homeCurrency: "CAD", country: "CA" };
export const RETAIL_CO = { ...UK_CO, realmId: "9341453172384056", companyName: "Northwind Retail LLC", homeCurrency: "USD", country: "US" };

const account = (Id: string, acctNum: string | null, name: string, accountSubType: string | null, over: Partial<CompanyAccount> = {}): CompanyAccount => ({
  Id,
  name,
  fullyQualifiedName: name,
  acctNum,
  accountType: "Equity",
  accountSubType,
  classification: "Equity",
  currency: "USD",
  active: true,
  everHadBalance: true,
  latestAmount: null,
  latestMonth: null,
  ...over,
});

/** The demo parent's equity (and one asset, which the picker must leave out). */
export const PARENT_ACCOUNTS: CompanyAccount[] = [
  account("1", "1000", "Chase Operating", "Checking", { accountType: "Bank", classification: "Asset" }),
  account("30", "3000", "Common Stock", "CommonStock"),
  account("33", "3300", "Retained Earnings", "RetainedEarnings"),
  account("35", "3500", "Treasury Stock", "TreasuryStock"),
  account("36", "3600", "Accumulated Other Comprehensive Income", "AccumulatedAdjustment"),
  account("37", "3700", "Revaluation Reserve", "AccumulatedAdjustment", { active: false }),
  account("38", "3800", "Other Reserves", "OwnersEquity"),
  account("39", "3900", "General Reserve", null),
];

export const AOCI_REASON = "Named as accumulated other comprehensive income, where translation differences are reported; QuickBooks detail type Accumulated adjustment.";

/** What a subsidiary still needs while the group has no CTA account (apps/server cta routes). */
export const GROUP_CTA_MISSING = "Choose the group's CTA account at the top of this page: the parent's equity account that receives the CTA of every foreign subsidiary.";

/** UK: share capital of £100,000.00 (a credit) with nothing entered yet; a premium account with no balance. The group's CTA account is Accumulated OCI. */
export const UK_CTA: CtaSubsidiary = {
  realmId: UK_CO.realmId,
  companyName: UK_CO.companyName,
  currency: "GBP",
  ownershipPercent: "100",
  dividendRatePolicy: "declarationDate",
  translationMethod: "currentRate",
  ctaAccountId: "36",
  equity: [
    { accountId: "60", name: "Ordinary Shares", acctNum: "3000", localAmount: -10_000_000, historicalRate: "", historicalAmount: null },
    { accountId: "61", name: "Share Premium", acctNum: "3010", localAmount: 0, historicalRate: "", historicalAmount: null },
  ],
  nonMonetary: [],
  missing: ['Enter the historical rate or translated amount of "Ordinary Shares".'],
};

/** Canada: everything set, share capital by its translated amount. */
export const CA_CTA: CtaSubsidiary = {
  realmId: CA_CO.realmId,
  companyName: CA_CO.companyName,
  currency: "CAD",
  ownershipPercent: "80",
  dividendRatePolicy: "profitPeriod",
  translationMethod: "currentRate",
  ctaAccountId: "36",
  equity: [{ accountId: "70", name: "Share Capital", acctNum: null, localAmount: -5_000_000, historicalAmount: -3_712_500, historicalRate: "" }],
  nonMonetary: [],
  missing: [],
};

/** The UK subsidiary remeasured by the temporal method: its inventory and plant at historical rates. */
export const UK_TEMPORAL: CtaSubsidiary = {
  ...UK_CTA,
  translationMethod: "temporal",
  nonMonetary: [
    { accountId: "12", name: "Inventory", acctNum: "1200", localAmount: 2_500_000, historicalRate: "1.31", historicalAmount: null },
    { accountId: "15", name: "Plant and Machinery", acctNum: "1500", localAmount: 8_000_000, historicalRate: "", historicalAmount: null },
  ],
  missing: [...UK_CTA.missing, 'Enter the historical rate or translated amount of "Plant and Machinery".'],
};

export const CTA_SETTINGS: CtaSettings = {
  parentRealmId: PARENT_CO.realmId,
  parentCurrency: "USD",
  ctaAccountId: "36",
  ctaAccountSuggestions: [{ accountId: "36", name: "Accumulated Other Comprehensive Income", score: 1, reason: AOCI_REASON }],
  subsidiaries: [UK_CTA, CA_CTA],
};

/** The same group before its CTA account is chosen: every foreign subsidiary lists it as missing. */
export const NO_GROUP_CTA: CtaSettings = {
  ...CTA_SETTINGS,
  ctaAccountId: null,
  subsidiaries: CTA_SETTINGS.subsidiaries.map((sub) => ({ ...sub, ctaAccountId: null, missing: [GROUP_CTA_MISSING, ...sub.missing] })),
};
