/**
 * How the demo group came together (issue #16): when Northwind Holdings bought each subsidiary,
 * how much of it, for how much goodwill, and the terms of the German-to-UK trade.
 *
 * Acquisitions. Each is booked by the parent on its date as "Acquisition of <name>": Dr Investment
 * in <name>, Cr bank, at
 *   cost = round(ownership x the subsidiary's total equity at the acquisition month-end in local
 *          currency x that month's closing rate of the demo FX table) + goodwill (USD),
 * one rounding half away from zero (money.ts). Total equity is the balance-sheet figure: share
 * capital + retained earnings + the fiscal year's profit to date - dividends. Book values stand
 * for fair values (no fair-value adjustments), so the difference between cost and the parent's
 * share of net assets is exactly the goodwill below, and a minority's share (Canada) is measured
 * at its proportionate share of net assets (IFRS 3.19).
 *
 *   Northwind UK Ltd            100%  2023-01-31  goodwill $250,000
 *   Northwind Canada Inc.        80%  2023-01-31  goodwill $300,000 (the cost buys 80%)
 *   Northwind Deutschland GmbH  100%  2023-01-31  goodwill $120,000
 *   Northwind Retail LLC        100%  2024-06-30  goodwill $180,000 (bought part-way through 2024)
 *
 * A company is in the group from the month after its acquisition month-end: intercompany loans,
 * interest, management fees, dividends and the German-to-UK trade only start then (February 2023
 * for the first three, July 2024 for Retail). Every company's own books still run from 2023-01 so
 * a consolidation can read its equity before and at acquisition.
 *
 * Intra-group trade. Germany sells goods to the UK every month, invoiced in euros, at a margin of
 * 25% of the transfer price: Germany buys the goods in at 75% of what it invoices. At each December
 * month-end (the group's year end; the UK's own fiscal year starts in April) 40% of December's
 * delivery is still in the UK's stock: the UK posts "Stock from Northwind Deutschland GmbH on hand
 * at year end (transfer price)", Dr Stock, Cr Purchases - Group Companies, and reverses it on
 * 1 January when the goods are sold. The profit in that stock the group has not yet earned is the
 * margin on what is held.
 */
import { addMonths, monthStart } from "../calendar.ts";
import type { DemoCode } from "./companies.ts";

export type SubsidiaryCode = Exclude<DemoCode, "PARENT">;

export interface AcquisitionTerms {
  readonly code: SubsidiaryCode;
  /** A month-end, "YYYY-MM-DD". */
  readonly date: string;
  /** The parent's share, exact decimal text ("1", "0.8"). */
  readonly ownership: string;
  /** USD cents. */
  readonly goodwill: number;
}

export const ACQUISITION_TERMS: readonly AcquisitionTerms[] = [
  { code: "UK", date: "2023-01-31", ownership: "1", goodwill: 250_000_00 },
  { code: "CA", date: "2023-01-31", ownership: "0.8", goodwill: 300_000_00 },
  { code: "DE", date: "2023-01-31", ownership: "1", goodwill: 120_000_00 },
  { code: "US2", date: "2024-06-30", ownership: "1", goodwill: 180_000_00 },
];

export function acquisitionTermsOf(code: SubsidiaryCode): AcquisitionTerms {
  const t = ACQUISITION_TERMS.find((a) => a.code === code);
  if (t === undefined) throw new Error(`no acquisition for ${code}`);
  return t;
}

/** "YYYY-MM": the first month a subsidiary deals with the group as a member of it. */
export function firstGroupMonth(code: SubsidiaryCode): string {
  return addMonths(monthStart(acquisitionTermsOf(code).date), 1).slice(0, 7);
}

/** Germany's margin on its sales to the UK, as a share of the transfer price. */
export const INTRAGROUP_MARGIN = "0.25";
/** The share of December's delivery from Germany still in the UK's stock at the December month-end. */
export const INTRAGROUP_HELD_SHARE = "0.4";

/** One acquisition as booked, for the product's tests to check what it proposes against. */
export interface DemoAcquisition {
  readonly realmId: string;
  readonly name: string;
  readonly currency: string;
  /** The acquisition date, a month-end "YYYY-MM-DD". */
  readonly date: string;
  /** "YYYY-MM" */
  readonly month: string;
  /** The parent's share, exact decimal text. */
  readonly ownership: string;
  /** The subsidiary's total equity at the acquisition month-end, local minor units, credit positive. */
  readonly equityAtAcquisition: number;
  /** The month's closing rate, USD per one unit of `currency`, six decimals ("1" for USD). */
  readonly closingRate: string;
  /** round(ownership x equityAtAcquisition x closingRate), USD cents. */
  readonly shareOfNetAssets: number;
  /** USD cents. */
  readonly goodwill: number;
  /** shareOfNetAssets + goodwill, USD cents: the parent's Investment in <name>. */
  readonly cost: number;
  /** The parent's investment account, by number and name. */
  readonly investmentAccount: { readonly number: string; readonly name: string };
}

/** The German goods in the UK's stock at one December month-end. */
export interface DemoIntragroupStock {
  /** "YYYY-12-31" */
  readonly yearEnd: string;
  /** The January day the UK reverses it (sold). */
  readonly reversedOn: string;
  readonly sellerRealmId: string;
  readonly buyerRealmId: string;
  /** Germany's margin as a share of the transfer price, exact decimal text. */
  readonly margin: string;
  /** Share of December's delivery held, exact decimal text. */
  readonly heldShare: string;
  /** December's delivery as invoiced by Germany (EUR cents) and booked by the UK (GBP pence, at December's average cross rate). */
  readonly decemberInvoiceEur: number;
  readonly decemberInvoiceGbp: number;
  /** The stock held at transfer price: round(heldShare x December's invoice), each currency rounded once. */
  readonly heldEur: number;
  readonly heldGbp: number;
  /** round(margin x held): the profit in the UK's stock the group has not yet earned. */
  readonly unrealisedProfitEur: number;
  readonly unrealisedProfitGbp: number;
}
