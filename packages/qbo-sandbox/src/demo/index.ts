/** Builds the demo group's companies (chart, classes, departments, customers and vendors, books, FX) from scratch. */
import type { Account, CompanyData, ExchangeRateRow, LineEntity, Party, Tag } from "../ledger.ts";
import { generateGroupBooks } from "./activity.ts";
import { demoBudgets } from "./budgets.ts";
import type { DemoAcquisition, DemoIntragroupStock } from "./structure.ts";
import type { DemoCode, DemoCompanyProfile } from "./companies.ts";
import { DEMO_COMPANIES } from "./companies.ts";
import { demoFxRates, FxTable } from "./fx.ts";
import { demoParties } from "./names.ts";
import { splitIntoSubAccounts } from "./subAccounts.ts";
import { type SegmentPlan, tagSegments } from "./segments.ts";
import { monthEnd } from "../calendar.ts";

/** When the demo companies were "created" in QBO: before their first transaction. */
const CREATED = Date.parse("2022-12-15T17:30:00.000Z");
/** When the retired accounts were made inactive. */
const RETIRED = Date.parse("2025-01-06T16:45:00.000Z");

/**
 * Classes and locations (Departments). The classes a company's sales and direct costs carry
 * (`sales`) share their names across the group, so a statement by class matches them into one
 * segment; `overheads` carries head-office costs (demo/segments.ts).
 */
const TAGS: Record<DemoCode, { classes: string[]; inactiveClass: string; departments: string[]; segments: SegmentPlan }> = {
  PARENT: {
    classes: ["Wholesale", "Online", "Services", "Corporate"],
    inactiveClass: "Trade Shows 2022",
    departments: ["Seattle HQ", "Reno Warehouse"],
    segments: { sales: ["Wholesale", "Online", "Services"], overheads: "Corporate" },
  },
  UK: { classes: ["Wholesale", "Retail"], inactiveClass: "Export", departments: ["London", "Manchester"], segments: { sales: ["Wholesale", "Retail"] } },
  CA: { classes: ["Wholesale", "Services"], inactiveClass: "Pilot", departments: ["Toronto", "Vancouver"], segments: { sales: ["Wholesale", "Services"] } },
  DE: { classes: ["Wholesale", "Retail"], inactiveClass: "Messe", departments: ["Frankfurt"], segments: { sales: ["Wholesale", "Retail"] } },
  US2: { classes: ["Retail", "Online"], inactiveClass: "Pop-up", departments: ["Market Street", "Union Square"], segments: { sales: ["Retail", "Online"] } },
};

interface DemoChart {
  accounts: Account[];
  roles: Map<string, string>;
  parties: Party[];
  names: Map<string, LineEntity>;
}

/** A demo account's id: its place in the chart (ids follow creation order, as in QBO). */
function idByNumber(profile: DemoCompanyProfile): (number: string) => string {
  return (number) => {
    const i = profile.chart.findIndex((c) => c.number === number);
    if (i < 0) throw new Error(`${profile.code} has no account ${number}`);
    return String(i + 1);
  };
}

function accountsOf(profile: DemoCompanyProfile): DemoChart {
  const accounts: Account[] = [];
  const roles = new Map<string, string>();
  const idOf = idByNumber(profile);
  profile.chart.forEach((c, i) => {
    const id = String(i + 1);
    const retired = c.inactive === true;
    accounts.push({
      id,
      // With account numbers off QuickBooks keeps none: the chart's numbers stay the demo's keys.
      number: profile.useAccountNumbers === false ? "" : c.number,
      name: c.name,
      type: c.type,
      subType: c.subType,
      ...(c.parent === undefined ? {} : { parentId: idOf(c.parent) }),
      ...(c.currency === undefined ? {} : { currency: c.currency }),
      active: !retired,
      createTime: CREATED,
      updateTime: retired ? RETIRED : CREATED,
      syncToken: retired ? 1 : 0,
    });
    if (c.role !== undefined) roles.set(c.role, id);
    if (c.opex !== undefined) roles.set(`opex:${c.number}`, id);
  });
  const { parties, byKey } = demoParties(profile.code, CREATED);
  return { accounts, roles, parties, names: byKey };
}

function tags(names: readonly string[], inactive: string | undefined): Tag[] {
  const out: Tag[] = names.map((name, i) => ({ id: String(i + 1), name, active: true, createTime: CREATED, updateTime: CREATED, syncToken: 0 }));
  if (inactive !== undefined) {
    out.push({ id: String(out.length + 1), name: inactive, active: false, createTime: CREATED, updateTime: RETIRED, syncToken: 1 });
  }
  return out;
}

function parentExchangeRates(): ExchangeRateRow[] {
  return demoFxRates().map((r) => {
    const asOfDate = monthEnd(`${r.month}-01`);
    return {
      source: r.currency,
      target: "USD",
      asOfDate,
      rate: r.closing,
      updateTime: Date.parse(`${asOfDate}T23:00:00.000Z`),
    };
  });
}

let facts: { acquisitions: readonly DemoAcquisition[]; stock: readonly DemoIntragroupStock[] } | undefined;

/** Fresh, mutable data for every demo company, parent first. Deterministic. */
export function buildDemoCompanies(): CompanyData[] {
  const fx = new FxTable(demoFxRates());
  const charts = new Map(DEMO_COMPANIES.map((p) => [p.code, accountsOf(p)] as const));
  const group = generateGroupBooks(fx, charts);
  facts ??= { acquisitions: Object.freeze(group.acquisitions), stock: Object.freeze(group.stock) };
  const books = group.companies;
  return DEMO_COMPANIES.map((p) => {
    const chart = charts.get(p.code) as DemoChart;
    const generated = books.get(p.code);
    if (generated === undefined) throw new Error(`no books for ${p.code}`);
    const t = TAGS[p.code];
    const classes = tags(t.classes, t.inactiveClass);
    const departments = tags(t.departments, undefined);
    const entries = tagSegments(splitIntoSubAccounts(p.code, generated.books.entries, idByNumber(p)), chart.accounts, classes, departments, t.segments);
    return {
      profile: {
        realmId: p.realmId,
        name: p.name,
        legalName: p.legalName,
        country: p.country,
        currency: p.currency,
        isParent: p.isParent,
        fiscalYearStartMonth: p.fiscalYearStartMonth,
        startDate: "2023-01-01",
        address: p.address,
        phone: p.phone,
        email: p.email,
        multiCurrency: p.isParent,
        createTime: CREATED,
        bookCloseDate: p.bookCloseDate,
        useAccountNumbers: p.useAccountNumbers ?? true,
      },
      accounts: chart.accounts,
      classes,
      departments,
      parties: chart.parties,
      entries,
      exchangeRates: p.isParent ? parentExchangeRates() : [],
      budgets: demoBudgets(p.code, chart.accounts, entries, chart.roles),
    };
  });
}

function groupFacts(): { acquisitions: readonly DemoAcquisition[]; stock: readonly DemoIntragroupStock[] } {
  if (facts === undefined) buildDemoCompanies();
  return facts as { acquisitions: readonly DemoAcquisition[]; stock: readonly DemoIntragroupStock[] };
}

/** The parent's acquisitions of its subsidiaries as booked (demo/structure.ts), in date order. */
export function demoAcquisitions(): DemoAcquisition[] {
  return groupFacts().acquisitions.map((a) => ({ ...a, investmentAccount: { ...a.investmentAccount } }));
}

/** The German goods in the UK's stock at each December month-end of the demo period, as booked. */
export function demoIntragroupStock(): DemoIntragroupStock[] {
  return groupFacts().stock.map((s) => ({ ...s }));
}
