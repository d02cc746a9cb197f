/**
 * Generated groups for benchmarks and simulations (issue #21): any number of companies with a few
 * years of plain trading books, built in milliseconds and the same on every call with the same
 * options. Unlike the demo group (demo/), nothing here is tuned to tell a story: one chart shared
 * by every company (so mapping is one account onto the same-numbered one), no multicurrency, no
 * intercompany, no acquisitions. What it is for is size: how many companies, months and entries a
 * product run has to read, post and verify.
 *
 * Each month a company books sales and services on account (with output tax), cost of sales,
 * purchases, collections and supplier payments, payroll and its remittance, rent, overheads on a
 * card and the card's payment, depreciation, insurance released from a prepayment (bought each
 * January), loan interest, savings interest and income tax; each quarter's sales tax and each
 * April the last year's income tax are paid: about fifteen journal entries. The first day of the first month carries the opening balances.
 * Receivable lines name the customer "Trade customers", payable lines the vendor "Trade suppliers".
 */
import { addMonths, daysInMonth, monthEnd, parts, ymd } from "../calendar.ts";
import type { AccountType } from "../accountTypes.ts";
import type { Account, CompanyData, LineEntity, Party } from "../ledger.ts";
import { seededRandom, seedOf } from "../rng.ts";
import { Books, type Posting } from "../demo/books.ts";
import { TRADE_CUSTOMERS, TRADE_SUPPLIERS } from "../demo/names.ts";

export interface GeneratedGroupOptions {
  /** How many companies; the first is the parent. */
  readonly companies: number;
  /** The first month of the books ("YYYY-MM"): the opening balances are dated on its first day, which is also CompanyStartDate. */
  readonly firstMonth: string;
  /** How many months of trading from `firstMonth`. */
  readonly months: number;
  /** Nothing dated after this day ("YYYY-MM-DD") is booked: books that reach today stop at today. */
  readonly until?: string | undefined;
  /** Realm ids are this prefix followed by the company's index, 16 digits in all. Default "48151623". */
  readonly realmPrefix?: string | undefined;
  /** Company names start with this. Default "Meridian". */
  readonly name?: string | undefined;
  /** Home currencies taken in turn, the parent's first. Default USD only. */
  readonly currencies?: readonly string[] | undefined;
  /** Varies the amounts; default 1. */
  readonly seed?: number | undefined;
}

type Row = readonly [number: string, name: string, type: AccountType, subType: string, role?: string];

/** One chart for every generated company; a role is what the month's bookings post to. */
const CHART: readonly Row[] = [
  ["1000", "Operating Account", "Bank", "Checking", "bank"],
  ["1010", "Savings Account", "Bank", "Savings", "savings"],
  ["1100", "Accounts Receivable", "Accounts Receivable", "AccountsReceivable", "ar"],
  ["1200", "Inventory", "Other Current Asset", "Inventory", "inventory"],
  ["1250", "Prepaid Insurance", "Other Current Asset", "PrepaidExpenses", "prepaid"],
  ["1500", "Equipment", "Fixed Asset", "MachineryAndEquipment", "equipment"],
  ["1590", "Accumulated Depreciation", "Fixed Asset", "AccumulatedDepreciation", "accumDepr"],
  ["1700", "Security Deposits", "Other Asset", "SecurityDeposits", "deposits"],
  ["2000", "Accounts Payable", "Accounts Payable", "AccountsPayable", "ap"],
  ["2100", "Company Credit Card", "Credit Card", "CreditCard", "cc"],
  ["2200", "Accrued Liabilities", "Other Current Liability", "OtherCurrentLiabilities"],
  ["2210", "Payroll Liabilities", "Other Current Liability", "PayrollTaxPayable", "payrollLiab"],
  ["2230", "Sales Tax Payable", "Other Current Liability", "SalesTaxPayable", "salesTax"],
  ["2240", "Income Tax Payable", "Other Current Liability", "OtherCurrentLiabilities", "taxPayable"],
  ["2700", "Term Loan", "Long Term Liability", "NotesPayable", "loan"],
  ["3000", "Share Capital", "Equity", "CommonStock", "capital"],
  ["3200", "Opening Balance Equity", "Equity", "OpeningBalanceEquity"],
  ["3300", "Retained Earnings", "Equity", "RetainedEarnings", "retained"],
  ["3400", "Dividends Paid", "Equity", "DividendDisbursed"],
  ["3600", "Accumulated Other Comprehensive Income", "Equity", "AccumulatedAdjustment"],
  ["4000", "Product Sales", "Income", "SalesOfProductIncome", "sales"],
  ["4200", "Service Revenue", "Income", "ServiceFeeIncome", "services"],
  ["5000", "Cost of Goods Sold", "Cost of Goods Sold", "SuppliesMaterialsCogs", "cogs"],
  ["6000", "Salaries and Wages", "Expense", "PayrollExpenses", "wages"],
  ["6010", "Payroll Taxes", "Expense", "PayrollExpenses", "payrollTax"],
  ["6100", "Rent Expense", "Expense", "RentOrLeaseOfBuildings", "rent"],
  ["6110", "Utilities", "Expense", "Utilities", "opex"],
  ["6200", "Advertising and Marketing", "Expense", "AdvertisingPromotional", "opex"],
  ["6300", "Travel", "Expense", "Travel", "opex"],
  ["6400", "Office Supplies", "Expense", "OfficeGeneralAdministrativeExpenses", "opex"],
  ["6410", "Software Subscriptions", "Expense", "DuesSubscriptions", "opex"],
  ["6500", "Professional Fees", "Expense", "LegalProfessionalFees", "opex"],
  ["6600", "Insurance Expense", "Expense", "Insurance", "insurance"],
  ["6700", "Bank Service Charges", "Expense", "BankCharges", "opex"],
  ["7100", "Interest Expense", "Expense", "InterestPaid", "interestExpense"],
  ["8000", "Interest Income", "Other Income", "InterestEarned", "interestIncome"],
  ["9000", "Depreciation Expense", "Other Expense", "Depreciation", "depreciation"],
  ["9100", "Foreign Exchange Gain/Loss", "Other Expense", "ExchangeGainOrLoss"],
  ["9200", "Income Tax Expense", "Other Expense", "OtherMiscellaneousExpense", "incomeTax"],
];

const COUNTRY: Record<string, { country: string; suffix: string; tax: number }> = {
  USD: { country: "US", suffix: "Inc.", tax: 0 },
  GBP: { country: "GB", suffix: "Ltd", tax: 0.2 },
  CAD: { country: "CA", suffix: "Inc.", tax: 0.13 },
  EUR: { country: "DE", suffix: "GmbH", tax: 0.19 },
};

const cents = (units: number): number => Math.round(units * 100);

/** The companies of a generated group, parent first, as the emulator serves them (`new Sandbox({ companies })`). */
export function generatedGroup(options: GeneratedGroupOptions): CompanyData[] {
  if (!Number.isInteger(options.companies) || options.companies < 1) throw new RangeError("a generated group has at least one company");
  if (!Number.isInteger(options.months) || options.months < 1) throw new RangeError("a generated group has at least one month");
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(options.firstMonth)) throw new RangeError(`firstMonth is a month like 2024-01, not ${options.firstMonth}`);
  const prefix = options.realmPrefix ?? "48151623";
  if (!/^\d{1,12}$/.test(prefix)) throw new RangeError("realmPrefix is 1 to 12 digits");
  const currencies = options.currencies ?? ["USD"];
  const name = options.name ?? "Meridian";
  return Array.from({ length: options.companies }, (_, index) => {
    const currency = currencies[index % currencies.length] ?? "USD";
    const realmId = `${prefix}${String(index).padStart(16 - prefix.length, "0")}`;
    const companyName = index === 0 ? `${name} Holdings ${COUNTRY[currency]?.suffix ?? "Inc."}` : `${name} ${String(index).padStart(2, "0")} ${COUNTRY[currency]?.suffix ?? "Ltd"}`;
    return generatedCompany({ ...options, realmId, companyName, currency, isParent: index === 0 });
  });
}

function generatedCompany(o: GeneratedGroupOptions & { realmId: string; companyName: string; currency: string; isParent: boolean }): CompanyData {
  const start = `${o.firstMonth}-01`;
  const created = Date.parse(`${start}T09:00:00.000Z`) - 14 * 86_400_000;
  const accounts: Account[] = [];
  const roles = new Map<string, string>();
  const opex: string[] = [];
  CHART.forEach(([number, accountName, type, subType, role], i) => {
    const id = String(i + 1);
    accounts.push({ id, number, name: accountName, type, subType, active: true, createTime: created, updateTime: created, syncToken: 0 });
    if (role === "opex") opex.push(`opex:${number}`);
    roles.set(role === "opex" ? `opex:${number}` : (role ?? `acct:${number}`), id);
  });
  const names = new Map<string, LineEntity>([
    [TRADE_CUSTOMERS, { type: "Customer", id: "1" }],
    [TRADE_SUPPLIERS, { type: "Vendor", id: "2" }],
  ]);
  const parties: Party[] = [
    { id: "1", kind: "Customer", displayName: "Trade customers", active: true, createTime: created, updateTime: created, syncToken: 0 },
    { id: "2", kind: "Vendor", displayName: "Trade suppliers", active: true, createTime: created, updateTime: created, syncToken: 0 },
  ];
  const books = new Books(accounts, roles, 1, o.currency, names);
  bookActivity(books, o, opex);
  const locale = COUNTRY[o.currency] ?? { country: "US", suffix: "Inc." };
  return {
    profile: {
      realmId: o.realmId,
      name: o.companyName,
      legalName: o.companyName,
      country: locale.country,
      currency: o.currency,
      isParent: o.isParent,
      fiscalYearStartMonth: 1,
      startDate: start,
      address: { line1: "1 Market Street", city: "Springfield", region: "", postalCode: "00000", country: locale.country },
      phone: "(555) 010-0000",
      email: `books-${o.realmId}@generated.example`,
      multiCurrency: false,
      createTime: created,
    },
    accounts,
    classes: [],
    departments: [],
    parties,
    entries: books.entries,
    exchangeRates: [],
  };
}

/** The opening balances and every month's trading, skipping anything dated after `until`. */
function bookActivity(books: Books, o: GeneratedGroupOptions & { realmId: string; currency: string }, opex: readonly string[]): void {
  const random = seededRandom(seedOf(`${o.realmId}:${o.seed ?? 1}`));
  const scale = 0.5 + 2.5 * random();
  const taxRate = COUNTRY[o.currency]?.tax ?? 0;
  const post = (date: string, memo: string, postings: readonly Posting[]) => {
    if (o.until === undefined || date <= o.until) books.post(date, memo, postings);
  };
  const first = `${o.firstMonth}-01`;
  const opening: Posting[] = [
    ["bank", cents(250_000 * scale)],
    ["inventory", cents(180_000 * scale)],
    ["equipment", cents(600_000 * scale)],
    ["deposits", cents(40_000 * scale)],
    ["loan", -cents(400_000 * scale)],
    ["capital", -cents(500_000 * scale)],
  ];
  post(first, "Opening balances", [...opening, ["retained", -opening.reduce((sum, p) => sum + p[1], 0)]]);
  for (let m = 0; m < o.months; m++) {
    const monthStart = addMonths(first, m);
    const { year, month } = parts(monthStart);
    const day = (d: number) => ymd(year, month, Math.min(d, daysInMonth(year, month)));
    const last = monthEnd(monthStart);
    const growth = 1 + 0.01 * m;
    const sales = cents(120_000 * scale * growth * (0.85 + 0.3 * random()));
    const services = cents(30_000 * scale * (0.8 + 0.4 * random()));
    const wages = cents(45_000 * scale);

    post(day(1), "Rent", [["rent", cents(9_000 * scale)], ["bank", -cents(9_000 * scale)]]);
    if (month === 1) post(day(3), "Insurance premium for the year", [["prepaid", cents(24_000 * scale)], ["bank", -cents(24_000 * scale)]]);
    post(day(5), "Card payment", [["cc", -books.balance("cc")], ["bank", books.balance("cc")]]);
    post(day(10), "Purchases", [["inventory", Math.round(sales * 0.55)], ["ap", -Math.round(sales * 0.55)]]);
    post(day(12), "Payroll remittance", [["payrollLiab", -books.balance("payrollLiab")], ["bank", books.balance("payrollLiab")]]);
    const tax = Math.round(sales * taxRate);
    post(day(15), "Sales on account", [["ar", sales + tax], ["sales", -sales], ["salesTax", -tax]]);
    const overheads = opex.map((role, i): Posting => [role, cents((600 + 400 * i) * scale * (0.7 + 0.6 * random()))]);
    post(day(18), "Overheads on the card", [...overheads, ["cc", -overheads.reduce((sum, p) => sum + p[1], 0)]]);
    post(day(20), "Services on account", [["ar", services], ["services", -services]]);
    if (month === 4) post(day(15), "Income tax for the last year", [["taxPayable", -books.balance("taxPayable")], ["bank", books.balance("taxPayable")]]);
    if (month % 3 === 1 && m > 0) post(day(20), "Sales tax for the quarter", [["salesTax", -books.balance("salesTax")], ["bank", books.balance("salesTax")]]);
    const collected = Math.round(books.balance("ar") * 0.85);
    post(day(25), "Collections", [["bank", collected], ["ar", -collected]]);
    const paid = -Math.round(books.balance("ap") * 0.8);
    post(day(27), "Supplier payments", [["ap", paid], ["bank", -paid]]);
    const employer = Math.round(wages * 0.08);
    const withheld = Math.round(wages * 0.22);
    post(day(28), "Payroll", [["wages", wages], ["payrollTax", employer], ["bank", -(wages - withheld)], ["payrollLiab", -(withheld + employer)]]);
    post(last, "Cost of sales", [["cogs", Math.round(sales * 0.55)], ["inventory", -Math.round(sales * 0.55)]]);
    post(last, "Depreciation", [["depreciation", cents(5_000 * scale)], ["accumDepr", -cents(5_000 * scale)]]);
    post(last, "Insurance for the month", [["insurance", cents(2_000 * scale)], ["prepaid", -cents(2_000 * scale)]]);
    const interest = Math.round((-books.balance("loan") * 0.06) / 12);
    post(last, "Loan interest", [["interestExpense", interest], ["bank", -interest]]);
    const earned = Math.round((Math.max(0, books.balance("savings")) * 0.02) / 12) + cents(50 * scale);
    post(last, "Savings interest", [["savings", earned], ["interestIncome", -earned]]);
    const incomeTax = Math.max(0, Math.round(books.profitOfMonth(monthStart.slice(0, 7)) * 0.25));
    post(last, "Income tax", [["incomeTax", incomeTax], ["taxPayable", -incomeTax]]);
  }
}
