/**
 * Generates the demo group's books: opening balances on 2023-01-01, then every month to 2026-10
 * the trading of each company (sales, purchases, payroll, rent, overheads, depreciation, taxes,
 * bank movements) and the group's intercompany life (loans and interest, management fees, a
 * German-to-UK trade with stock left at the year end, dividends), booked on both sides. The
 * parent buys its subsidiaries on the dates of demo/structure.ts and books each purchase; a
 * subsidiary deals with the group only from the month after its acquisition. Foreign-currency
 * intercompany balances are revalued at each month-end closing rate by the side that does not
 * hold the currency, so both sides agree exactly after FX at every month-end.
 * Names (demo/names.ts): every line of the parent's postings with subsidiary X names the customer
 * X; every line of X's postings with the parent names the vendor "Northwind Holdings Inc."; the
 * German-to-UK trade names the customer "Northwind UK Ltd" in Germany and the vendor "Northwind
 * Deutschland GmbH" in the UK. Any other A/R or A/P line names the trade customer or supplier.
 */
import { addMonths, daysInMonth, fiscalYearStart, monthRange, parts, ymd } from "../calendar.ts";
import { convert, convertCross, formatRate, parseRate, RATE_SCALE } from "../money.ts";
import type { Random } from "../rng.ts";
import { seededRandom, seedOf } from "../rng.ts";
import { Books } from "./books.ts";
import type { Posting } from "./books.ts";
import type { DemoCode, DemoCompanyProfile } from "./companies.ts";
import { DEMO_COMPANIES } from "./companies.ts";
import type { FxTable } from "./fx.ts";
import { DEMO_FIRST_MONTH, DEMO_LAST_MONTH, OPENING_RATES } from "./fx.ts";
import { PARENT_CHART } from "./charts.ts";
import type { AcquisitionTerms, DemoAcquisition, DemoIntragroupStock, SubsidiaryCode } from "./structure.ts";
import { ACQUISITION_TERMS, acquisitionTermsOf, firstGroupMonth, INTRAGROUP_HELD_SHARE, INTRAGROUP_MARGIN } from "./structure.ts";
import type { Account, LineEntity } from "../ledger.ts";

export interface GeneratedCompany {
  readonly profile: DemoCompanyProfile;
  readonly books: Books;
}

const cents = (units: number): number => Math.round(units * 100);

/** Loans from the parent, in the borrower's currency (whole units): each in the first month the borrower is in the group. */
const LOANS: readonly { code: SubsidiaryCode; date: string; amount: number }[] = [
  { code: "UK", date: "2023-02-10", amount: 1_500_000 },
  { code: "CA", date: "2023-02-10", amount: 2_000_000 },
  { code: "DE", date: "2023-02-10", amount: 1_200_000 },
  { code: "US2", date: "2024-07-10", amount: 800_000 },
  { code: "CA", date: "2024-07-10", amount: 750_000 },
  { code: "UK", date: "2025-06-12", amount: -500_000 }, // a partial repayment
];
const LOAN_RATE = 0.055;
const MANAGEMENT_FEE: Record<Exclude<DemoCode, "PARENT">, number> = { UK: 24_000, CA: 32_000, DE: 26_000, US2: 15_000 };
const SUBSIDIARIES = ["UK", "CA", "DE", "US2"] as const;
/** The Name keys of demo/names.ts: the parent as the subsidiaries' vendor, a subsidiary as the parent's customer. */
const HOLDINGS = "Vendor:PARENT";
const customer = (code: DemoCode): string => `Customer:${code}`;

const micros = (text: string): bigint => {
  const m = parseRate(text);
  if (m === undefined) throw new Error(`not a rate: ${text}`);
  return m;
};
const MARGIN = micros(INTRAGROUP_MARGIN);
const HELD_SHARE = micros(INTRAGROUP_HELD_SHARE);

/** Is the subsidiary a member of the group in this month ("YYYY-MM")? */
const inGroup = (code: SubsidiaryCode, month: string): boolean => month >= firstGroupMonth(code);

interface Ctx {
  readonly fx: FxTable;
  readonly companies: Map<DemoCode, GeneratedCompany>;
  readonly acquisitions: DemoAcquisition[];
  readonly stock: DemoIntragroupStock[];
}

export interface GeneratedGroup {
  readonly companies: Map<DemoCode, GeneratedCompany>;
  /** In date order, as booked. */
  readonly acquisitions: DemoAcquisition[];
  /** One per December month-end, as booked. */
  readonly stock: DemoIntragroupStock[];
}

export function generateGroupBooks(
  fx: FxTable,
  accountsByCode: Map<DemoCode, { accounts: Account[]; roles: Map<string, string>; names: Map<string, LineEntity> }>,
): GeneratedGroup {
  const companies = new Map<DemoCode, GeneratedCompany>();
  for (const profile of DEMO_COMPANIES) {
    const chart = accountsByCode.get(profile.code);
    if (chart === undefined) throw new Error(`no chart for ${profile.code}`);
    companies.set(profile.code, {
      profile,
      books: new Books(chart.accounts, chart.roles, profile.fiscalYearStartMonth, profile.currency, chart.names),
    });
  }
  const ctx: Ctx = { fx, companies, acquisitions: [], stock: [] };
  const rnds = new Map<DemoCode, Random>([...companies.keys()].map((c) => [c, seededRandom(seedOf(`ops:${c}`))]));

  // The subsidiaries first: the parent's opening cash is sized on what it will pay for them.
  for (const c of [...companies.values()].sort((x, y) => Number(x.profile.isParent) - Number(y.profile.isParent))) openingBalances(c, ctx);
  for (const month of monthRange(DEMO_FIRST_MONTH, DEMO_LAST_MONTH)) {
    const state = new Map<DemoCode, MonthStart>();
    for (const c of companies.values()) state.set(c.profile.code, snapshot(c.books));
    for (const c of companies.values()) trade(c, month, rnds.get(c.profile.code) as Random, state.get(c.profile.code) as MonthStart);
    intercompany(ctx, month, rnds.get("DE") as Random);
    revalue(ctx, month);
    if (Number(month.slice(5)) % 3 === 0) settle(ctx, month);
    for (const c of companies.values()) accrueIncomeTax(c, month);
    // Last: the price rests on each subsidiary's equity once its month is complete.
    for (const terms of ACQUISITION_TERMS) if (terms.date.startsWith(month)) acquire(ctx, terms);
  }
  return { companies, acquisitions: ctx.acquisitions, stock: ctx.stock };
}

function get(ctx: Ctx, code: DemoCode): GeneratedCompany {
  return ctx.companies.get(code) as GeneratedCompany;
}

// ---------------------------------------------------------------------------------------------

function openingBalances(c: GeneratedCompany, ctx: Ctx): void {
  const p = c.profile;
  const b = c.books;
  const S = p.monthlySales;
  const lines: Posting[] = [];
  const addCents = (role: string, amount: number): void => {
    if (b.has(role) && amount !== 0) lines.push([role, amount]);
  };
  const add = (role: string, units: number): void => addCents(role, cents(units));
  const openingRate = (currency: string): bigint => OPENING_RATES[currency] ?? RATE_SCALE;
  let extraCash = 0;
  if (p.isParent) {
    // Holdings keeps the cash it pays for the subsidiaries and lends them, and a little more:
    // each price estimated on the subsidiary's opening equity (already posted) at the opening
    // rate, so the bank never runs dry when Retail is bought and funded in mid-2024.
    for (const terms of ACQUISITION_TERMS) {
      const sub = get(ctx, terms.code);
      extraCash += convertCross(sub.books.equity(), openingRate(sub.profile.currency) * micros(terms.ownership), RATE_SCALE * RATE_SCALE) + terms.goodwill;
    }
    for (const loan of LOANS) {
      if (loan.amount > 0) extraCash += convert(cents(loan.amount), openingRate(get(ctx, loan.code).profile.currency));
    }
    extraCash = Math.round(extraCash * 1.05);
  }
  addCents("bank", cents(Math.round(S * 1.2)) + extraCash);
  add("savings", Math.round(S * 0.8));
  add("pettyCash", Math.round(S * 0.002));
  add("cash2", Math.round(S * 0.05));
  add("ar", Math.round(S * 1.1));
  add("allowance", -Math.round(S * 0.02));
  add("inventory", Math.round(S * 1.4));
  add("prepaid", prepaidAtOpening(p));
  const fixed: [string, number][] = [
    ["fa1", 0.3],
    ["fa2", 0.5],
    ["fa3", 0.25],
    ["fa4", 0.4],
    ["capex", 0.35],
  ];
  for (const [role, share] of fixed) {
    if (!b.has(role)) continue;
    const cost = Math.round(S * share);
    add(role, cost);
    add(accumFor(b, role), -Math.round(cost * 0.25));
  }
  add("deposits", p.monthlyRent * 2);
  if (p.isParent) {
    // No investments yet: the parent books each acquisition on its date (acquire below).
    add("bankLoan", -2_400_000);
    add("apic", -1_500_000);
  }
  add("ap", -Math.round(S * 0.55));
  add("cc", -Math.round(S * 0.02));
  add("accrued", -Math.round(S * 0.05));
  add("payrollLiab", -Math.round(p.monthlyPayroll * 0.28));
  add("vat", -Math.round(S * p.salesTaxRate * 0.6));
  add("taxPayable", -Math.round(S * 0.02));
  add("shareCapital", -p.shareCapital);
  const plug = lines.reduce((s, l) => s + l[1], 0);
  lines.push(["retainedEarnings", -plug]);
  b.post(`${DEMO_FIRST_MONTH}-01`, "Opening balances brought forward", lines);
}

function accumFor(b: Books, role: string): string {
  const specific: Record<string, string> = { fa1: "accumDepr2", fa2: "accumDepr3" };
  const s = specific[role];
  return s !== undefined && b.has(s) ? s : "accumDepr";
}

function annualPremium(p: DemoCompanyProfile, fyIndex: number): number {
  return Math.round(p.monthlyRent * 1.5 * Math.pow(1.05, fyIndex)) * 100; // cents
}

/** Prepaid insurance still unexpired on 2023-01-01 (a fiscal year that began before it). */
function prepaidAtOpening(p: DemoCompanyProfile): number {
  if (p.fiscalYearStartMonth === 1) return 0;
  const remaining = (p.fiscalYearStartMonth - 1) / 12;
  return Math.round((annualPremium(p, -1) / 100) * remaining);
}

// ---------------------------------------------------------------------------------------------

interface MonthStart {
  readonly ar: number;
  readonly ap: number;
  readonly payroll: number;
  readonly cc: number;
  readonly vat: number;
  readonly tax: number;
}

function snapshot(b: Books): MonthStart {
  const bal = (role: string): number => (b.has(role) ? b.balance(role) : 0);
  return { ar: bal("ar"), ap: bal("ap"), payroll: bal("payrollLiab"), cc: bal("cc"), vat: bal("vat"), tax: bal("taxPayable") };
}

function monthsSinceStart(month: string): number {
  const { year, month: m } = parts(`${month}-01`);
  return (year - 2023) * 12 + (m - 1);
}

function vary(rnd: Random, spread: number): number {
  return 1 + (rnd() - 0.5) * 2 * spread;
}

function trade(c: GeneratedCompany, month: string, rnd: Random, start: MonthStart): void {
  const p = c.profile;
  const b = c.books;
  const { year, month: m } = parts(`${month}-01`);
  const last = daysInMonth(year, m);
  const day = (d: number): string => ymd(year, m, Math.min(d, last));
  const end = day(last);
  const idx = monthsSinceStart(month);
  const growth = Math.pow(1.06, idx / 12);
  const season = p.seasonality[m - 1] ?? 1;
  const yearIdx = year - 2023;
  const fyStart = fiscalYearStart(end, p.fiscalYearStartMonth);
  const fyIndex = Number(fyStart.slice(0, 4)) - 2023;
  const fyLastMonth = addMonths(fyStart, 11).slice(0, 7) === month;

  // Rent on the 1st.
  b.post(day(1), "Monthly rent", [
    ["rent", cents(p.monthlyRent * Math.pow(1.03, yearIdx))],
    ["bank", -cents(p.monthlyRent * Math.pow(1.03, yearIdx))],
  ]);

  // Settle last month's liabilities.
  if (start.payroll < 0) b.post(day(15), "Payroll taxes and withholdings remitted", [["payrollLiab", -start.payroll], ["bank", start.payroll]]);
  if (start.cc < 0) b.post(day(20), "Credit card statement paid", [["cc", -start.cc], ["bank", start.cc]]);
  if (start.ar > 0) {
    const collected = Math.round(start.ar * 0.92);
    b.post(day(20), "Customer receipts", [["bank", collected], ["ar", -collected]]);
  }
  if (start.ap < 0) {
    const paid = Math.round(-start.ap * 0.95);
    b.post(day(25), "Supplier payments", [["ap", paid], ["bank", -paid]]);
  }
  if (m % 3 === 1 && b.has("vat") && start.vat < 0) {
    b.post(day(7), p.country === "US" ? "Sales tax return filed and paid" : "VAT/GST return for the quarter paid", [["vat", -start.vat], ["bank", start.vat]]);
  }
  if (m % 3 === 1 && start.tax < 0) {
    b.post(day(15), "Income tax instalment", [["taxPayable", -start.tax], ["bank", start.tax]]);
  }

  // Sales, billed mid-month.
  const product = cents(p.monthlySales * season * growth * vary(rnd, 0.06));
  const online = cents(p.monthlySales * 0.22 * season * growth * vary(rnd, 0.1));
  const services = cents(p.monthlySales * 0.08 * growth * vary(rnd, 0.08));
  const net = product + online + services;
  const tax = Math.round(net * p.salesTaxRate);
  b.post(day(15), "Sales invoices for the month", [
    ["ar", net + tax],
    ["revenue", -product, "Product sales"],
    ["revenue2", -online, "Online sales"],
    ["revenue3", -services, "Services"],
    ...(tax > 0 ? ([["vat", -tax, "Output tax"]] as const) : []),
  ]);
  const discounts = Math.round(product * 0.01);
  b.post(day(16), "Early payment discounts", [["discounts", discounts], ["ar", -discounts]]);

  // Purchases on account, with input tax where the company reclaims it.
  const goods = Math.round((product + online) * 0.5 * vary(rnd, 0.04));
  const freight = Math.round(goods * 0.03);
  const inputTax = p.country === "US" ? 0 : Math.round((goods + freight) * p.salesTaxRate);
  b.post(day(8), "Supplier invoices for stock", [
    ["cogs", goods],
    ["cogsFreight", freight],
    ...(inputTax > 0 ? ([["vat", inputTax, "Input tax"]] as const) : []),
    ["ap", -(goods + freight + inputTax)],
  ]);
  const labour = Math.round(net * 0.04 * vary(rnd, 0.1));
  b.post(day(12), "Contract labour", [["cogsLabor", labour], ["bank", -labour]]);
  const shrink = Math.round(net * 0.003 * (rnd() - 0.35));
  b.post(end, "Stock count adjustment", [["inventoryAdj", shrink], ["inventory", -shrink]]);

  // Payroll at month-end: net pay from the bank, withholdings and employer costs owed until next month.
  const gross = cents(p.monthlyPayroll * Math.pow(1.035, yearIdx) * vary(rnd, 0.02));
  const employer = Math.round(gross * 0.11);
  const benefits = Math.round(gross * 0.07);
  const netPay = Math.round(gross * 0.7);
  b.post(day(28), "Payroll", [
    ["wages", gross],
    ["payrollTax", employer],
    ["benefits", benefits],
    ["bank", -netPay],
    ["payrollLiab", -(gross - netPay + employer + benefits)],
  ]);
  if (fyLastMonth) {
    const bonus = Math.round(gross * 0.5);
    b.post(day(28), "Annual bonuses", [["bonus", bonus], ["bank", -bonus]]);
  }

  // Overheads: alternate between the bank and the company card.
  const chart = p.chart;
  let n = 0;
  for (const acc of chart) {
    if (acc.opex === undefined) continue;
    if (acc.until !== undefined && month > acc.until) continue;
    n++;
    const amount = cents(acc.opex * growth * vary(rnd, 0.15));
    const via = n % 2 === 0 || !b.has("cc") ? "bank" : "cc";
    b.post(day(3 + (n % 24)), acc.name, [[`opex:${acc.number}`, amount], [via, -amount]]);
  }

  // Insurance paid yearly in advance, expensed monthly.
  if (m === p.fiscalYearStartMonth) {
    const premium = annualPremium(p, fyIndex);
    b.post(day(2), "Annual insurance premium", [["prepaid", premium], ["bank", -premium]]);
  }
  const monthly = Math.round(annualPremium(p, fyIndex) / 12);
  const expense = fyLastMonth ? b.balance("prepaid") : Math.min(monthly, b.balance("prepaid"));
  b.post(end, "Insurance expensed", [["insurance", expense], ["prepaid", -expense]]);

  // Fixed assets: purchases in March and September, straight-line depreciation over seven years.
  if (m === 3 || m === 9) {
    const capex = cents(p.monthlySales * 0.04 * vary(rnd, 0.2));
    b.post(day(14), "Equipment purchased", [["capex", capex], ["bank", -capex]]);
  }
  const depreciation: Posting[] = [];
  for (const role of ["fa1", "fa2", "fa3", "fa4", "capex"]) {
    if (!b.has(role)) continue;
    const amount = Math.round(b.balance(role) / 84);
    depreciation.push(["depreciation", amount], [accumFor(b, role), -amount]);
  }
  b.post(end, "Depreciation", depreciation);

  // Credit losses: provide each quarter, write off in the fiscal year's last month.
  if (m % 3 === 0) {
    const provision = Math.round(net * 3 * 0.004);
    b.post(end, "Provision for doubtful debts", [["badDebt", provision], ["allowance", -provision]]);
  }
  if (fyLastMonth) {
    const writeOff = Math.round(-b.balance("allowance") * 0.6);
    b.post(end, "Bad debts written off", [["allowance", writeOff], ["ar", -writeOff]]);
    const gift = cents(p.monthlySales * 0.002);
    b.post(day(20), "Charitable donation", [["donations", gift], ["bank", -gift]]);
  }

  // Interest on the savings balance; the parent's term loan.
  const interest = Math.round((b.balance("savings") * 0.035) / 12);
  b.post(end, "Savings interest", [["savings", interest], ["interestIncome", -interest]]);
  if (b.has("bankLoan") && b.balance("bankLoan") < 0) {
    const principal = Math.min(cents(25_000), -b.balance("bankLoan"));
    const loanInterest = Math.round((-b.balance("bankLoan") * 0.065) / 12);
    b.post(day(5), "Term loan instalment", [["bankLoan", principal], ["interestExpense", loanInterest], ["bank", -(principal + loanInterest)]]);
  }

  // The parent pays its own shareholders each March.
  if (p.isParent && m === 3) {
    const prior = b.profitOfFiscalYear(`${year - 1}-01-01`);
    const dividend = prior > 0 ? Math.round(prior * 0.3) : cents(1_200_000);
    b.post(day(31), "Dividend paid to shareholders", [["dividendsPaid", dividend], ["bank", -dividend]]);
  }
}

// ---------------------------------------------------------------------------------------------

function rateMonth(date: string): string {
  return date.slice(0, 7);
}

function intercompany(ctx: Ctx, month: string, rnd: Random): void {
  const parent = get(ctx, "PARENT").books;
  const { year, month: m } = parts(`${month}-01`);
  const end = ymd(year, m, daysInMonth(year, m));
  const yearIdx = year - 2023;

  for (const loan of LOANS) {
    if (!loan.date.startsWith(month)) continue;
    const sub = get(ctx, loan.code);
    const local = cents(loan.amount);
    const rate = ctx.fx.average(sub.profile.currency, rateMonth(loan.date));
    const what = local > 0 ? `Loan advanced to ${sub.profile.name}` : `Loan repayment from ${sub.profile.name}`;
    if (sub.profile.currency === parent.currency) {
      const usd = convert(local, rate);
      parent.post(loan.date, what, [[`icLoan:${loan.code}`, usd], ["bank", -usd]], customer(loan.code));
    } else {
      // Lent in the borrower's currency: the parent's loan account holds it (demo/charts.ts).
      parent.postForeign(loan.date, what, { currency: sub.profile.currency, rateMicros: rate }, [[`icLoan:${loan.code}`, local], ["bank", -local]], customer(loan.code));
    }
    sub.books.post(
      loan.date,
      local > 0 ? "Loan received from Northwind Holdings" : "Loan repaid to Northwind Holdings",
      [
        ["bank", local],
        ["icLoanPay", -local],
      ],
      HOLDINGS,
    );
  }

  for (const code of SUBSIDIARIES) {
    // Before its acquisition a subsidiary is not in the group: nothing passes between it and the parent.
    if (!inGroup(code, month)) continue;
    const sub = get(ctx, code);
    const currency = sub.profile.currency;
    const avg = ctx.fx.average(currency, month);
    const charge = (local: number, subRole: string, parentRole: string, subMemo: string, parentMemo: string): void => {
      if (local <= 0) return;
      sub.books.post(end, subMemo, [[subRole, local], ["icPay", -local]], HOLDINGS);
      const usd = convert(local, avg);
      parent.post(end, parentMemo, [[`icRecv:${code}`, usd], [parentRole, -usd]], customer(code));
    };
    const interest = Math.round((-sub.books.balance("icLoanPay") * LOAN_RATE) / 12);
    charge(interest, "icInterestExpense", "icInterestIncome", "Interest on loan from Northwind Holdings", `Loan interest charged to ${sub.profile.name}`);
    const fee = cents(MANAGEMENT_FEE[code] * Math.pow(1.03, yearIdx));
    charge(fee, "mgmtFeeExpense", "mgmtFeeIncome", "Management charge from Northwind Holdings", `Management fee charged to ${sub.profile.name}`);

    // Dividends on the prior fiscal year, declared at a quarter-end so they settle with the quarter.
    const dividendMonth = sub.profile.fiscalYearStartMonth === 1 ? 3 : 9;
    if (m === dividendMonth) {
      const priorStart = fiscalYearStart(ymd(year - 1, dividendMonth, 1), sub.profile.fiscalYearStartMonth);
      const prior = sub.books.profitOfFiscalYear(priorStart);
      const floor = cents(sub.profile.monthlySales * 0.6);
      const dividend = Math.max(Math.round(prior * 0.4), floor);
      // The parent receives its share; a minority (Canada's 20%) is paid its share in cash.
      const toParent = convert(dividend, micros(acquisitionTermsOf(code).ownership));
      sub.books.post(end, "Dividend declared to Northwind Holdings", [["dividendsPaid", toParent], ["icPay", -toParent]], HOLDINGS);
      sub.books.post(end, "Dividend paid to minority shareholders", [["dividendsPaid", dividend - toParent], ["bank", -(dividend - toParent)]]);
      const usd = convert(toParent, avg);
      parent.post(end, `Dividend declared by ${sub.profile.name}`, [[`icRecv:${code}`, usd], ["dividendIncome", -usd]], customer(code));
    }
  }

  germanyToUk(ctx, month, rnd);
}

/**
 * Germany ships goods to the UK every month, invoiced in euros, at a margin of INTRAGROUP_MARGIN
 * of the transfer price: it buys them in from its own suppliers at the rest. The UK expenses its
 * purchases (periodic stock) and, at each December month-end, takes INTRAGROUP_HELD_SHARE of
 * December's delivery back into stock at transfer price, released when sold in January.
 */
function germanyToUk(ctx: Ctx, month: string, rnd: Random): void {
  if (!inGroup("DE", month) || !inGroup("UK", month)) return;
  const { year, month: m } = parts(`${month}-01`);
  const de = get(ctx, "DE");
  const uk = get(ctx, "UK");

  const last = ctx.stock.at(-1);
  if (m === 1 && last !== undefined && last.reversedOn.startsWith(month)) {
    uk.books.post(last.reversedOn, "Stock from Northwind Deutschland GmbH held at year end, sold", [["icPurchases", last.heldGbp], ["inventory", -last.heldGbp]], "Vendor:DE");
  }

  const season = de.profile.seasonality[m - 1] ?? 1;
  const eur = cents(52_000 * season * Math.pow(1.06, monthsSinceStart(month) / 12) * vary(rnd, 0.1));
  const date = ymd(year, m, 18);
  const cost = eur - convert(eur, MARGIN);
  const inputTax = Math.round(cost * de.profile.salesTaxRate);
  de.books.post(date, "Supplier invoices for goods shipped to Northwind UK Ltd", [
    ["cogs", cost],
    ["vat", inputTax, "Input tax"],
    ["ap", -(cost + inputTax)],
  ]);
  de.books.post(date, "Intercompany sale to Northwind UK Ltd", [["icRecvSub:UK", eur], ["icSales", -eur]], customer("UK"));
  const gbp = convertCross(eur, ctx.fx.average("EUR", month), ctx.fx.average("GBP", month));
  uk.books.post(date, "Goods purchased from Northwind Deutschland GmbH", [["icPurchases", gbp], ["icPaySub:DE", -gbp]], "Vendor:DE");

  if (m === 12) {
    const heldEur = convert(eur, HELD_SHARE);
    const heldGbp = convert(gbp, HELD_SHARE);
    const yearEnd = ymd(year, 12, 31);
    uk.books.post(yearEnd, "Stock from Northwind Deutschland GmbH on hand at year end (transfer price)", [["inventory", heldGbp], ["icPurchases", -heldGbp]], "Vendor:DE");
    ctx.stock.push({
      yearEnd,
      reversedOn: ymd(year + 1, 1, 1),
      sellerRealmId: de.profile.realmId,
      buyerRealmId: uk.profile.realmId,
      margin: INTRAGROUP_MARGIN,
      heldShare: INTRAGROUP_HELD_SHARE,
      decemberInvoiceEur: eur,
      decemberInvoiceGbp: gbp,
      heldEur,
      heldGbp,
      unrealisedProfitEur: convert(heldEur, MARGIN),
      unrealisedProfitGbp: convert(heldGbp, MARGIN),
    });
  }
}

/**
 * The parent buys `terms.code` at the end of its acquisition month: ownership x the subsidiary's
 * total equity then x the month's closing rate, rounded once, plus goodwill (demo/structure.ts).
 */
function acquire(ctx: Ctx, terms: AcquisitionTerms): void {
  const sub = get(ctx, terms.code);
  const month = terms.date.slice(0, 7);
  const equity = sub.books.equity();
  const closing = ctx.fx.closing(sub.profile.currency, month);
  const share = convertCross(equity, closing * micros(terms.ownership), RATE_SCALE * RATE_SCALE);
  const cost = share + terms.goodwill;
  const role = `invest:${terms.code}`;
  get(ctx, "PARENT").books.post(terms.date, `Acquisition of ${sub.profile.name}`, [[role, cost], ["bank", -cost]]);
  const account = PARENT_CHART.find((a) => a.role === role);
  if (account === undefined) throw new Error(`no ${role} in the parent's chart`);
  ctx.acquisitions.push({
    realmId: sub.profile.realmId,
    name: sub.profile.name,
    currency: sub.profile.currency,
    date: terms.date,
    month,
    ownership: terms.ownership,
    equityAtAcquisition: equity,
    closingRate: formatRate(closing),
    shareOfNetAssets: share,
    goodwill: terms.goodwill,
    cost,
    investmentAccount: { number: account.number, name: account.name },
  });
}

/** Brings the non-currency side of each intercompany balance to the month-end closing rate. */
function revalue(ctx: Ctx, month: string): void {
  const { year, month: m } = parts(`${month}-01`);
  const end = ymd(year, m, daysInMonth(year, m));
  const parent = get(ctx, "PARENT").books;
  const lines: Posting[] = [];
  for (const code of SUBSIDIARIES) {
    const sub = get(ctx, code);
    const closing = ctx.fx.closing(sub.profile.currency, month);
    // A loan in the subsidiary's currency is not revalued: QuickBooks keeps it at the rates of
    // the day (only the home-currency loan to Northwind Retail needs nothing either way).
    const balances = sub.profile.currency === parent.currency ? ([[`icLoan:${code}`, "icLoanPay"]] as const) : [];
    for (const [parentRole, subRole] of [...balances, [`icRecv:${code}`, "icPay"] as const]) {
      const target = convert(-sub.books.balance(subRole), closing);
      const diff = target - parent.balance(parentRole);
      if (diff !== 0) lines.push([parentRole, diff, undefined, customer(code)], ["fxGainLoss", -diff, undefined, customer(code)]);
    }
  }
  parent.post(end, "Revaluation of intercompany balances at month-end rates", lines);

  const uk = get(ctx, "UK").books;
  const de = get(ctx, "DE").books;
  const target = -convertCross(de.balance("icRecvSub:UK"), ctx.fx.closing("EUR", month), ctx.fx.closing("GBP", month));
  const diff = target - uk.balance("icPaySub:DE");
  uk.post(end, "Revaluation of euro payable to Northwind Deutschland", [["icPaySub:DE", diff], ["fxGainLoss", -diff]], "Vendor:DE");
}

/** Quarter-end cash settlement of the current intercompany balances. */
function settle(ctx: Ctx, month: string): void {
  const { year, month: m } = parts(`${month}-01`);
  const end = ymd(year, m, daysInMonth(year, m));
  const parent = get(ctx, "PARENT").books;
  for (const code of SUBSIDIARIES) {
    const sub = get(ctx, code);
    const owed = -sub.books.balance("icPay");
    if (owed <= 0) continue;
    sub.books.post(end, "Quarterly settlement with Northwind Holdings", [["icPay", owed], ["bank", -owed]], HOLDINGS);
    const usd = parent.balance(`icRecv:${code}`);
    parent.post(end, `Quarterly settlement from ${sub.profile.name}`, [["bank", usd], [`icRecv:${code}`, -usd]], customer(code));
  }
  const uk = get(ctx, "UK").books;
  const de = get(ctx, "DE").books;
  const gbp = -uk.balance("icPaySub:DE");
  const eur = de.balance("icRecvSub:UK");
  if (gbp > 0) uk.post(end, "Payment to Northwind Deutschland GmbH", [["icPaySub:DE", gbp], ["bank", -gbp]], "Vendor:DE");
  if (eur > 0) de.post(end, "Receipt from Northwind UK Ltd", [["bank", eur], ["icRecvSub:UK", -eur]], customer("UK"));
}

function accrueIncomeTax(c: GeneratedCompany, month: string): void {
  const b = c.books;
  const profit = b.profitOfMonth(month);
  if (profit <= 0) return;
  const { year, month: m } = parts(`${month}-01`);
  const tax = Math.round(profit * c.profile.incomeTaxRate);
  b.post(ymd(year, m, daysInMonth(year, m)), "Income tax provision", [["incomeTax", tax], ["taxPayable", -tax]]);
}
