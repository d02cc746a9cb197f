/** Who is in the demo group: fixed realm ids, names, currencies, fiscal years and trading scale. */
import type { ChartAccount } from "./charts.ts";
import { CA_CHART, DE_CHART, PARENT_CHART, UK_CHART, US2_CHART } from "./charts.ts";

export type DemoCode = "PARENT" | "UK" | "CA" | "DE" | "US2";

export interface Address {
  readonly line1: string;
  readonly city: string;
  readonly region: string;
  readonly postalCode: string;
  readonly country: string;
}

export interface DemoCompanyProfile {
  readonly code: DemoCode;
  readonly realmId: string;
  readonly name: string;
  readonly legalName: string;
  /** ISO 3166 alpha-2, as QBO's CompanyInfo.Country. */
  readonly country: string;
  readonly currency: string;
  readonly isParent: boolean;
  /** 1 = January. */
  readonly fiscalYearStartMonth: number;
  readonly address: Address;
  readonly phone: string;
  readonly email: string;
  readonly chart: readonly ChartAccount[];
  /** Monthly product sales in whole local units before seasonality and growth. */
  readonly monthlySales: number;
  /** Monthly gross payroll in whole local units. */
  readonly monthlyPayroll: number;
  readonly monthlyRent: number;
  /** Output tax on sales (VAT, GST/HST, sales tax); 0 when the company charges none. */
  readonly salesTaxRate: number;
  readonly incomeTaxRate: number;
  /** Share capital at the start of 2023, whole local units. */
  readonly shareCapital: number;
  /** Fourth-quarter weighting of sales: retail peaks harder than wholesale. */
  readonly seasonality: readonly number[];
  /**
   * QuickBooks' "Close the books" date: the parent closed its audited FY2023, the UK its year to
   * March 2024, Canada and Germany 2024; Retail keeps its books open (no BookCloseDate at all).
   */
  readonly bookCloseDate?: string;
  /**
   * QuickBooks' "Enable account numbers" (Preferences AccountingInfoPrefs.UseAccountNumbers), on
   * unless false: Retail keeps it off, as the recorded companies do, so its accounts carry no AcctNum.
   */
  readonly useAccountNumbers?: false;
}

const WHOLESALE = [0.86, 0.84, 0.97, 0.98, 1.02, 1.0, 0.94, 0.97, 1.05, 1.1, 1.15, 1.12];
const RETAIL = [0.72, 0.74, 0.86, 0.9, 0.96, 0.95, 0.93, 0.98, 0.96, 1.06, 1.38, 1.56];

export const DEMO_COMPANIES: readonly DemoCompanyProfile[] = [
  {
    code: "PARENT",
    bookCloseDate: "2023-12-31",
    realmId: "9341453172384015",
    name: "Northwind Holdings Inc.",
    legalName: "Northwind Holdings, Inc.",
    country: "US",
    currency: "USD",
    isParent: true,
    fiscalYearStartMonth: 1,
    address: { line1: "1200 Westlake Ave N", city: "Seattle", region: "WA", postalCode: "98109", country: "US" },
    phone: "(206) 555-0142",
    email: "finance@northwind-holdings.example",
    chart: PARENT_CHART,
    monthlySales: 920_000,
    monthlyPayroll: 185_000,
    monthlyRent: 46_000,
    salesTaxRate: 0,
    incomeTaxRate: 0.25,
    shareCapital: 2_000_000,
    seasonality: WHOLESALE,
  },
  {
    code: "UK",
    bookCloseDate: "2024-03-31",
    realmId: "9341453172384023",
    name: "Northwind UK Ltd",
    legalName: "Northwind UK Limited",
    country: "GB",
    currency: "GBP",
    isParent: false,
    fiscalYearStartMonth: 4,
    address: { line1: "14 Bishopsgate", city: "London", region: "", postalCode: "EC2N 4AJ", country: "GB" },
    phone: "+44 20 7946 0381",
    email: "accounts@northwind-uk.example",
    chart: UK_CHART,
    monthlySales: 440_000,
    monthlyPayroll: 72_000,
    monthlyRent: 21_000,
    salesTaxRate: 0.2,
    incomeTaxRate: 0.25,
    shareCapital: 1_000_000,
    seasonality: WHOLESALE,
  },
  {
    code: "CA",
    bookCloseDate: "2024-12-31",
    realmId: "9341453172384031",
    name: "Northwind Canada Inc.",
    legalName: "Northwind Canada Inc.",
    country: "CA",
    currency: "CAD",
    isParent: false,
    fiscalYearStartMonth: 1,
    address: { line1: "220 Bay Street, Suite 700", city: "Toronto", region: "ON", postalCode: "M5J 2W4", country: "CA" },
    phone: "(416) 555-0177",
    email: "ap@northwind-canada.example",
    chart: CA_CHART,
    monthlySales: 510_000,
    monthlyPayroll: 98_000,
    monthlyRent: 27_500,
    salesTaxRate: 0.13,
    incomeTaxRate: 0.265,
    shareCapital: 1_500_000,
    seasonality: WHOLESALE,
  },
  {
    code: "DE",
    bookCloseDate: "2024-12-31",
    realmId: "9341453172384049",
    name: "Northwind Deutschland GmbH",
    legalName: "Northwind Deutschland GmbH",
    country: "DE",
    currency: "EUR",
    isParent: false,
    fiscalYearStartMonth: 1,
    address: { line1: "Mainzer Landstraße 50", city: "Frankfurt am Main", region: "HE", postalCode: "60325", country: "DE" },
    phone: "+49 69 5550 1234",
    email: "buchhaltung@northwind-de.example",
    chart: DE_CHART,
    monthlySales: 430_000,
    monthlyPayroll: 88_000,
    monthlyRent: 24_000,
    salesTaxRate: 0.19,
    incomeTaxRate: 0.3,
    shareCapital: 800_000,
    seasonality: WHOLESALE,
  },
  {
    code: "US2",
    useAccountNumbers: false,
    realmId: "9341453172384056",
    name: "Northwind Retail LLC",
    legalName: "Northwind Retail, LLC",
    country: "US",
    currency: "USD",
    isParent: false,
    fiscalYearStartMonth: 1,
    address: { line1: "455 Market Street", city: "San Francisco", region: "CA", postalCode: "94105", country: "US" },
    phone: "(415) 555-0119",
    email: "books@northwind-retail.example",
    chart: US2_CHART,
    monthlySales: 260_000,
    monthlyPayroll: 52_000,
    monthlyRent: 18_500,
    salesTaxRate: 0.0863,
    incomeTaxRate: 0.0884,
    shareCapital: 600_000,
    seasonality: RETAIL,
  },
];

export interface DemoGroupCompany {
  readonly realmId: string;
  readonly name: string;
  readonly country: string;
  readonly currency: string;
  readonly isParent: boolean;
  /** 1 = January. */
  readonly fiscalYearStartMonth: number;
}

/** The demo group as the product's tests see it: parent first. */
export function demoGroup(): DemoGroupCompany[] {
  return DEMO_COMPANIES.map((c) => ({
    realmId: c.realmId,
    name: c.name,
    country: c.country,
    currency: c.currency,
    isParent: c.isParent,
    fiscalYearStartMonth: c.fiscalYearStartMonth,
  }));
}

export function profileByCode(code: DemoCode): DemoCompanyProfile {
  const p = DEMO_COMPANIES.find((c) => c.code === code);
  if (p === undefined) throw new Error(`unknown demo company ${code}`);
  return p;
}
