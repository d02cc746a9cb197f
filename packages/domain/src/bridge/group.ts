import { type ChartRow, type CompanyBooksInfo, type EngineBooksArgs, equityKindOf, type LocalBooks } from "./books.ts";
import { NCI_NAME } from "../coa/cta-account.ts";
import type { IntercompanyPairKind } from "../eliminations/pair-kinds.ts";

/**
 * What the bridge knows of a group and its synced books: plain rows as the server reads them,
 * no database types. `assembleConsolidationInput` (input.ts) turns them into the engine's input.
 */

/** One company of the group as the bridge needs it. */
export interface GroupCompany extends CompanyBooksInfo {
  isParent: boolean;
  /** Percent as exact decimal text, e.g. "80.0000". */
  ownershipPercent: string;
  /** The last month a sync covered (YYYY-MM), or null when it was never synced. */
  syncedThrough: string | null;
  syncState: "never" | "queued" | "running" | "succeeded" | "failed";
  syncMessage: string | null;
}

export type NameKind = "Customer" | "Vendor";

export interface PairSide {
  entity: string;
  account: string;
  /** Only what the account holds against this customer or vendor; absent: the whole account. */
  name?: { kind: NameKind; id: string } | undefined;
}

export interface IntercompanyPair {
  id: string;
  name: string;
  kind: IntercompanyPairKind;
  left: PairSide;
  right: PairSide;
  differenceTo: "fx" | "cta";
}

/** A recorded acquisition (Setup → Acquisitions). */
export interface AcquisitionRecord {
  realmId: string;
  /** YYYY-MM-DD. */
  acquiredOn: string;
  /** Parent's currency, minor units. */
  consideration: number;
  investmentAccountId: string;
  nciMeasurement: "proportionateShare" | "fairValue";
  nciFairValue: number | null;
  /** Local minor units, debit positive. */
  equityAtAcquisition: readonly { accountId: string; localAmount: number }[];
  fairValueAdjustments: readonly FairValueAdjustmentRecord[];
  /** Later changes in the parent's share that keep control, in date order; the company's ownership is the share at acquisition. */
  ownershipChanges: readonly OwnershipChangeRecord[];
}

/** A fair-value adjustment at acquisition: an uplift (or write-down) of one of the subsidiary's identifiable assets. */
export interface FairValueAdjustmentRecord {
  description: string;
  kind: "intangible" | "inventory" | "ppe" | "other";
  /** The parent's Asset account the uplift shows on in the consolidated balance sheet. */
  assetAccountId: string;
  /** In the subsidiary's currency, minor units, debit positive (an uplift is positive). */
  amount: number;
  usefulLifeMonths: number;
  /** The parent's Expense account its amortisation, depreciation or release goes to. */
  expenseAccountId: string;
}

/** A change in the parent's holding after the acquisition that keeps control (IFRS 10.23, ASC 810-10-45-23). */
export interface OwnershipChangeRecord {
  /** YYYY-MM-DD; takes effect at that month's end. */
  effectiveOn: string;
  /** The parent's share after the change, percent text ("90"). */
  ownershipPercent: string;
  /** Paid for the shares bought or received for those sold, parent's currency, minor units. */
  consideration: number;
  /** The parent's account it booked the consideration on; null: the investment account. */
  accountId: string | null;
}

/** Intra-group stock a buyer held at a month-end. */
export interface StockRecord {
  sellerRealmId: string;
  buyerRealmId: string;
  month: string;
  inventory: number;
  margin: string;
  inventoryAccountId: string;
  cogsAccountId: string;
}

/** Where the parent books a subsidiary's dividends ('' nameId: the whole account). */
export interface DividendSetting {
  realmId: string;
  incomeAccountId: string;
  nameId: string;
}

export interface NameRow {
  realmId: string;
  kind: NameKind;
  qboId: string;
  displayName: string;
  balancesFrom: string | null;
  balancesThrough: string | null;
}

export interface NameBalanceRow {
  realmId: string;
  nameKind: NameKind;
  nameId: string;
  qboAccountId: string;
  /** YYYY-MM (or a date whose first 7 characters are the month). */
  month: string;
  amountMinor: number;
}

export interface RateRow {
  currency: string;
  month: string;
  average: string | null;
  closing: string | null;
}

/** Everything read from the database for one consolidation (the server's reads, input.ts). */
export interface GroupSnapshot {
  /** Every group company's chart, in QBO id order. */
  charts: ReadonlyMap<string, readonly ChartRow[]>;
  /** Synced amounts, debit-positive minor units, month YYYY-MM. Not read when `books` is given. */
  balances: readonly { realmId: string; account: string; month: string; amount: number }[];
  /**
   * The same synced amounts from a caller that keeps each company's books in memory (the server's
   * consolidation/books-cache.ts), read instead of `balances`: `amount` is one account's amount in
   * a month (0 when none) and `local` is engineBooks over those amounts, which the caller may keep
   * and give again for equal arguments, so a change elsewhere (a map, a rate, a pair) does not
   * derive every company's books again. Both answer exactly as `balances` would.
   */
  books?: {
    amount(realmId: string, accountId: string, month: string): number;
    local(realmId: string, args: Omit<EngineBooksArgs, "amount">): LocalBooks;
  };
  /** Each company's first synced month (YYYY-MM). */
  firstSynced: ReadonlyMap<string, string | undefined>;
  maps: readonly { realmId: string; subAccountId: string; parentAccountId: string }[];
  /** The group's CTA account: the parent's equity account chosen once on CTA & Historical; null until chosen. */
  ctaAccountId: string | null;
  settings: readonly { realmId: string; method: "currentRate" | "temporal"; dividendRatePolicy: "declarationDate" | "profitPeriod" }[];
  historical: readonly { realmId: string; accountId: string; rate: string | null; amountMinor: number | null }[];
  /** Rates of the translated currencies: opening month to period end, and the months acquisitions need (acquisitionRateNeeds). */
  rates: readonly RateRow[];
  /** Customers and vendors the intercompany pairs and dividend settings name, with their per-account balances. */
  names: readonly NameRow[];
  nameBalances: readonly NameBalanceRow[];
  acquisitions: readonly AcquisitionRecord[];
  /** Intra-group stock held at the month before the period and at its end. */
  stock: readonly StockRecord[];
  dividendSettings: readonly DividendSetting[];
  /**
   * The group's elimination tolerance, parent-currency minor units (pair-match.ts): pairs whose
   * sides differ by no more count as matched; absent: 0, exact matching.
   */
  eliminationTolerance?: number;
}

/** Chart order: QBO ids compared as numbers ("9" before "10"). */
export const byQboId = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

/** "80.0000" (percent) → "0.8" (fraction), exactly. */
export function ownershipFraction(percent: string): string {
  const [whole = "0", fraction = ""] = percent.trim().split(".");
  const scale = fraction.length + 2;
  const digits = BigInt(`${whole}${fraction}`).toString().padStart(scale + 1, "0");
  const int = digits.slice(0, -scale);
  const frac = digits.slice(-scale).replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
}

/**
 * FX_DIFFERENCE_RULE: the parent's P&L account that receives exchange differences (intercompany
 * pair differences, temporal remeasurement). Nothing stores a choice yet, so: an active Expense
 * account of QBO detail type ExchangeGainOrLoss (what QBO multicurrency creates as "Exchange Gain or
 * Loss"), else an active Expense account named like "exchange gain/loss", "foreign exchange",
 * "FX" or "currency"; ties by the lowest QBO id. Otherwise a Problem asks the user to choose one.
 * Expense rather than Revenue because QBO files exchange results under Other Expense.
 */
const FX_NAME = /\b(exchange gains?|exchange loss(es)?|exchange gain or loss|exchange gains? and loss(es)?|foreign exchange|fx|currency|kursdifferenz\w*)\b/i;
export function fxDifferenceAccountOf(parentChart: readonly ChartRow[]): ChartRow | undefined {
  const pl = parentChart.filter((a) => a.active && a.classification === "Expense").sort((a, b) => byQboId(a.id, b.id));
  return pl.find((a) => a.accountSubType === "ExchangeGainOrLoss") ?? pl.find((a) => FX_NAME.test(a.name));
}

/** NCI: an active "other" equity account named like non-controlling / minority interest(s) (NCI_NAME). */
export function nciAccountOf(parentChart: readonly ChartRow[]): ChartRow | undefined {
  return parentChart
    .filter((a) => a.active && a.classification === "Equity" && equityKindOf(a) === "other" && NCI_NAME.test(a.name))
    .sort((a, b) => byQboId(a.id, b.id))[0];
}

/** The parent's account for a bargain purchase gain: an active Revenue account named like one. */
export function bargainPurchaseAccountOf(parentChart: readonly ChartRow[]): ChartRow | undefined {
  return parentChart.find((a) => a.active && a.classification === "Revenue" && /bargain purchase|negative goodwill/i.test(a.name));
}

/** The parent's goodwill account: an active Asset of QBO detail type Goodwill, else one named "goodwill"; the lowest id first. */
export function goodwillAccountOf(parentChart: readonly ChartRow[]): ChartRow | undefined {
  const assets = parentChart.filter((a) => a.active && a.classification === "Asset");
  return assets.find((a) => a.accountSubType === "Goodwill") ?? assets.find((a) => /\bgoodwill\b|geschäfts- oder firmenwert|firmenwert/i.test(a.name));
}
