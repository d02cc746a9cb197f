/**
 * How the demo group came together (demo/structure.ts, issue #16), read back from the books the
 * API serves: each acquisition at ownership x equity at the acquisition month-end x the closing
 * rate + goodwill, nothing intercompany before a company joins the group, the UK's year-end stock
 * from Germany and its reversal, and every entry balanced.
 */
import { qboEquityKind } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import type { Json } from "../entities.ts";
import type { JournalEntry } from "../ledger.ts";
import { CompanyLedger } from "../ledger.ts";
import { parseAmount } from "../money.ts";
import { runReport } from "../reports/index.ts";
import type { ChartAccount } from "./charts.ts";
import { CA_CHART, DE_CHART, PARENT_CHART, UK_CHART, US2_CHART } from "./charts.ts";
import type { DemoCode } from "./companies.ts";
import { DEMO_COMPANIES, profileByCode } from "./companies.ts";
import { demoFxRates } from "./fx.ts";
import { buildDemoCompanies, demoAcquisitions, demoIntragroupStock } from "./index.ts";
import { firstGroupMonth } from "./structure.ts";

const NOW = new Date("2026-11-02T17:00:00.000Z");
const ledgers = buildDemoCompanies().map((d) => new CompanyLedger(d));
const byCode = new Map(DEMO_COMPANIES.map((p, i) => [p.code, ledgers[i] as CompanyLedger]));
const CHARTS: Record<DemoCode, readonly ChartAccount[]> = { PARENT: PARENT_CHART, UK: UK_CHART, CA: CA_CHART, DE: DE_CHART, US2: US2_CHART };
const SUBS = ["UK", "CA", "DE", "US2"] as const;

function ledger(code: DemoCode): CompanyLedger {
  return byCode.get(code) as CompanyLedger;
}

function roleId(code: DemoCode, role: string): string {
  const index = CHARTS[code].findIndex((a) => a.role === role);
  if (index < 0) throw new Error(`no ${role} in ${code}`);
  return String(index + 1);
}

function cents(value: string | undefined): number {
  const c = parseAmount(value === undefined || value === "" ? "0" : value);
  if (c === undefined) throw new Error(`not an amount: ${String(value)}`);
  return c;
}

/** Signed (debit-positive) amount of an entry's lines on one account. */
function net(e: JournalEntry, accountId: string): number {
  return e.lines.filter((l) => l.accountId === accountId).reduce((s, l) => s + (l.posting === "Debit" ? l.amount : -l.amount), 0);
}

type Row = { ColData?: { value: string }[]; Rows?: { Row: Row[] }; Summary?: { ColData: { value: string }[] }; group?: string };

/** Total equity (credit-positive) of a company's balance sheet at a date, as the report shows it. */
function totalEquity(code: DemoCode, date: string): number {
  const report = runReport(ledger(code), "BalanceSheet", { start_date: date, end_date: date }, NOW);
  const find = (rows: readonly Row[]): Row | undefined => {
    for (const r of rows) {
      if (r.group === "Equity") return r;
      const inner = r.Rows === undefined ? undefined : find(r.Rows.Row);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  const equity = find(((report["Rows"] as Json)["Row"] ?? []) as Row[]);
  return cents(equity?.Summary?.ColData[1]?.value);
}

/** Balance (debit-positive) of one account at a date. */
function balanceAt(code: DemoCode, accountId: string, date: string): number {
  return ledger(code)
    .entries.filter((e) => e.txnDate <= date)
    .reduce((s, e) => s + net(e, accountId), 0);
}

/** Micros of an exact decimal text, independently of money.ts. */
function micros(text: string): bigint {
  const [whole, frac = ""] = text.split(".");
  return BigInt(whole as string) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
}

/** a x b x c / 10^12, rounded half away from zero, all in integers. */
function times(amount: number, rateMicros: bigint, ownershipMicros: bigint): number {
  const n = BigInt(amount) * rateMicros * ownershipMicros;
  const d = 1_000_000_000_000n;
  const abs = n < 0n ? -n : n;
  const q = (abs + d / 2n) / d;
  return Number(n < 0n ? -q : q);
}

const CODE_OF = new Map(DEMO_COMPANIES.map((p) => [p.realmId, p.code]));

describe("the demo group's acquisitions", () => {
  it("are the four subsidiaries on the documented dates, shares and goodwill, at these prices", () => {
    // The figures of demo/structure.ts. Equity at acquisition is local minor units, cost USD cents.
    expect(demoAcquisitions().map((a) => [a.name, a.realmId, a.date, a.ownership, a.currency, a.equityAtAcquisition, a.closingRate, a.shareOfNetAssets, a.goodwill, a.cost])).toEqual([
      ["Northwind UK Ltd", "9341453172384023", "2023-01-31", "1", "GBP", 2_088_975_21, "1.216219", 2_540_651_34, 250_000_00, 2_790_651_34],
      ["Northwind Canada Inc.", "9341453172384031", "2023-01-31", "0.8", "CAD", 2_540_264_44, "0.735250", 1_494_183_54, 300_000_00, 1_794_183_54],
      ["Northwind Deutschland GmbH", "9341453172384049", "2023-01-31", "1", "EUR", 2_090_872_20, "1.063793", 2_224_255_21, 120_000_00, 2_344_255_21],
      ["Northwind Retail LLC", "9341453172384056", "2024-06-30", "1", "USD", 1_805_356_98, "1.000000", 1_805_356_98, 180_000_00, 1_985_356_98],
    ]);
  });

  it("each cost is ownership x the subsidiary's equity at the acquisition month-end x that month's closing rate + goodwill, to the cent", () => {
    const rates = demoFxRates();
    for (const a of demoAcquisitions()) {
      const code = CODE_OF.get(a.realmId) as Exclude<DemoCode, "PARENT">;
      // Equity as the subsidiary's own balance sheet shows it that day: capital, retained earnings and the year's profit to date.
      const equity = totalEquity(code, a.date);
      expect(equity, a.name).toBe(a.equityAtAcquisition);
      const closing = a.currency === "USD" ? "1" : (rates.find((r) => r.currency === a.currency && r.month === a.date.slice(0, 7))?.closing as string);
      expect(micros(a.closingRate), a.name).toBe(micros(closing));
      const expected = times(equity, micros(closing), micros(a.ownership)) + a.goodwill;
      expect(a.cost, a.name).toBe(expected);

      // Booked once, on the date, by the parent: Dr Investment in <name>, Cr bank.
      const invest = roleId("PARENT", `invest:${code}`);
      const booked = ledger("PARENT").entries.filter((e) => e.lines.some((l) => l.accountId === invest));
      expect(booked.map((e) => [e.txnDate, e.privateNote]), a.name).toEqual([[a.date, `Acquisition of ${a.name}`]]);
      const entry = booked[0] as JournalEntry;
      expect(net(entry, invest)).toBe(expected);
      expect(net(entry, roleId("PARENT", "bank"))).toBe(-expected);
      expect(ledger("PARENT").account(invest)?.name).toBe(a.investmentAccount.name);
      expect(ledger("PARENT").account(invest)?.number).toBe(a.investmentAccount.number);
      // Nothing before, the cost ever after.
      expect(balanceAt("PARENT", invest, "2023-01-30")).toBe(0);
      expect(balanceAt("PARENT", invest, "2026-10-31")).toBe(expected);
    }
    // The parent's opening entry holds no investment any more.
    const opening = ledger("PARENT").entries[0] as JournalEntry;
    expect(opening.privateNote).toBe("Opening balances brought forward");
    for (const code of SUBS) expect(net(opening, roleId("PARENT", `invest:${code}`))).toBe(0);
  });

  it("leaves goodwill on every acquisition and an 80% share of Canada, and pays for all of it from cash the parent has", () => {
    for (const a of demoAcquisitions()) expect(a.goodwill, a.name).toBeGreaterThan(0);
    expect(demoAcquisitions().map((a) => a.ownership)).toEqual(["1", "0.8", "1", "1"]);
    const bank = roleId("PARENT", "bank");
    const dates = [...new Set(ledger("PARENT").entries.map((e) => e.txnDate))].sort();
    for (const d of dates) expect(balanceAt("PARENT", bank, d), d).toBeGreaterThan(0);
  });

  it("gives the parent a Non-controlling Interests equity account of an 'other' kind, beside Goodwill", () => {
    const nci = ledger("PARENT").accounts.find((a) => a.name === "Non-controlling Interests");
    expect(nci).toMatchObject({ type: "Equity", active: true });
    expect(qboEquityKind(nci?.subType ?? null)).toBe("other");
    expect(ledger("PARENT").accounts.find((a) => a.name === "Goodwill")).toMatchObject({ type: "Other Asset", subType: "Goodwill", active: true });
  });
});

describe("the group's membership in the books", () => {
  it("has nothing intercompany with a subsidiary before the month after its acquisition (Retail: July 2024)", () => {
    expect(SUBS.map((c) => [c, firstGroupMonth(c)])).toEqual([
      ["UK", "2023-02"],
      ["CA", "2023-02"],
      ["DE", "2023-02"],
      ["US2", "2024-07"],
    ]);
    const holdings = (code: DemoCode) => ledger(code).parties.find((p) => p.displayName === "Northwind Holdings Inc.")?.id;
    for (const code of SUBS) {
      const first = `${firstGroupMonth(code)}-01`;
      const subRoles = ["icPay", "icLoanPay", "mgmtFeeExpense", "icInterestExpense", "dividendsPaid"].map((r) => roleId(code, r));
      const parentRoles = [`icRecv:${code}`, `icLoan:${code}`].map((r) => roleId("PARENT", r));
      const customer = ledger("PARENT").parties.find((p) => p.displayName === profileByCode(code).name)?.id;
      const before = (e: JournalEntry) => e.txnDate < first;
      const subIc = ledger(code).entries.filter((e) => e.lines.some((l) => subRoles.includes(l.accountId) || (l.entity?.type === "Vendor" && l.entity.id === holdings(code))));
      const parentIc = ledger("PARENT").entries.filter((e) => e.lines.some((l) => parentRoles.includes(l.accountId) || (l.entity?.type === "Customer" && l.entity.id === customer)));
      expect(subIc.filter(before), code).toEqual([]);
      expect(parentIc.filter(before), code).toEqual([]);
      // ... and it is there from then on: the loan in the first month.
      expect(subIc.filter((e) => e.txnDate.startsWith(firstGroupMonth(code))).map((e) => e.privateNote), code).toContain("Loan received from Northwind Holdings");
    }
    // Retail's own books still run from January 2023, with equity to read before its acquisition.
    const retail = ledger("US2");
    expect(retail.entries[0]?.txnDate).toBe("2023-01-01");
    expect(totalEquity("US2", "2023-12-31")).toBeGreaterThan(0);
    expect(retail.entries.some((e) => e.txnDate.startsWith("2024-03"))).toBe(true);
  });

  it("declares dividends only after each acquisition, the minority of Canada taking its 20% in cash", () => {
    for (const code of SUBS) {
      const dividends = roleId(code, "dividendsPaid");
      const entries = ledger(code).entries.filter((e) => e.lines.some((l) => l.accountId === dividends));
      expect(entries.length, code).toBeGreaterThanOrEqual(2);
      for (const e of entries) expect(e.txnDate >= `${firstGroupMonth(code)}-01`, `${code} ${e.txnDate}`).toBe(true);
      const byDate = new Map<string, { parent: number; minority: number }>();
      for (const e of entries) {
        const d = byDate.get(e.txnDate) ?? { parent: 0, minority: 0 };
        if (e.privateNote === "Dividend declared to Northwind Holdings") d.parent += net(e, dividends);
        else if (e.privateNote === "Dividend paid to minority shareholders") d.minority += net(e, dividends);
        else throw new Error(`unexpected dividend entry ${e.privateNote}`);
        byDate.set(e.txnDate, d);
      }
      for (const [date, d] of byDate) {
        if (code === "CA") expect(d.parent, date).toBe(times(d.parent + d.minority, 800_000n, 1_000_000n));
        else expect(d.minority, `${code} ${date}`).toBe(0);
      }
    }
  });
});

describe("the German goods in the UK's stock at the group's year end", () => {
  const uk = ledger("UK");
  const de = ledger("DE");
  const ukInventory = roleId("UK", "inventory");
  const ukPurchases = roleId("UK", "icPurchases");
  const vendorDe = uk.parties.find((p) => p.kind === "Vendor" && p.displayName === "Northwind Deutschland GmbH")?.id;

  it("is 40% of December's delivery at transfer price, documented per year end", () => {
    expect(demoIntragroupStock().map((s) => [s.yearEnd, s.reversedOn, s.margin, s.heldShare, s.decemberInvoiceEur, s.decemberInvoiceGbp, s.heldEur, s.heldGbp, s.unrealisedProfitEur, s.unrealisedProfitGbp])).toEqual([
      ["2023-12-31", "2024-01-01", "0.25", "0.4", 62_628_33, 57_219_17, 25_051_33, 22_887_67, 6_262_83, 5_721_92],
      ["2024-12-31", "2025-01-01", "0.25", "0.4", 60_754_98, 53_248_33, 24_301_99, 21_299_33, 6_075_50, 5_324_83],
      ["2025-12-31", "2026-01-01", "0.25", "0.4", 62_554_55, 54_597_09, 25_021_82, 21_838_84, 6_255_46, 5_459_71],
    ]);
    for (const s of demoIntragroupStock()) {
      expect(s.sellerRealmId).toBe(de.realmId);
      expect(s.buyerRealmId).toBe(uk.realmId);
    }
  });

  it("is booked by the UK at each December month-end, Dr Stock Cr Purchases - Group Companies, and reversed on 1 January", () => {
    for (const s of demoIntragroupStock()) {
      const month = s.yearEnd.slice(0, 7);
      // December's delivery, as each side booked it.
      const purchase = uk.entries.filter((e) => e.txnDate.startsWith(month) && e.privateNote === "Goods purchased from Northwind Deutschland GmbH");
      const sale = de.entries.filter((e) => e.txnDate.startsWith(month) && e.privateNote === "Intercompany sale to Northwind UK Ltd");
      expect(purchase).toHaveLength(1);
      expect(sale).toHaveLength(1);
      const gbp = net(purchase[0] as JournalEntry, ukPurchases);
      const eur = -net(sale[0] as JournalEntry, roleId("DE", "icSales"));
      expect([gbp, eur]).toEqual([s.decemberInvoiceGbp, s.decemberInvoiceEur]);
      expect(s.heldGbp).toBe(times(gbp, 400_000n, 1_000_000n));
      expect(s.heldEur).toBe(times(eur, 400_000n, 1_000_000n));
      expect(s.unrealisedProfitGbp).toBe(times(s.heldGbp, 250_000n, 1_000_000n));
      expect(s.unrealisedProfitEur).toBe(times(s.heldEur, 250_000n, 1_000_000n));

      const held = uk.entries.filter((e) => e.privateNote === "Stock from Northwind Deutschland GmbH on hand at year end (transfer price)" && e.txnDate === s.yearEnd);
      expect(held).toHaveLength(1);
      const h = held[0] as JournalEntry;
      expect(h.lines.map((l) => [l.accountId, l.posting, l.amount])).toEqual([
        [ukInventory, "Debit", s.heldGbp],
        [ukPurchases, "Credit", s.heldGbp],
      ]);
      for (const l of h.lines) expect(l.entity).toEqual({ type: "Vendor", id: vendorDe });
      const sold = uk.entries.filter((e) => e.privateNote === "Stock from Northwind Deutschland GmbH held at year end, sold");
      const reversal = sold.filter((e) => e.txnDate === s.reversedOn);
      expect(reversal).toHaveLength(1);
      expect((reversal[0] as JournalEntry).lines.map((l) => [l.accountId, l.posting, l.amount])).toEqual([
        [ukPurchases, "Debit", s.heldGbp],
        [ukInventory, "Credit", s.heldGbp],
      ]);
    }
    // Only December month-ends hold German stock: the stock entries and reversals are all of these.
    const stockEntries = uk.entries.filter((e) => e.lines.some((l) => l.accountId === ukInventory) && e.lines.some((l) => l.accountId === ukPurchases));
    expect(stockEntries.map((e) => e.txnDate)).toEqual(["2023-12-31", "2024-01-01", "2024-12-31", "2025-01-01", "2025-12-31", "2026-01-01"]);
  });

  it("earns Germany its 25% margin on every delivery: it buys the goods in at 75% of the transfer price", () => {
    const sales = de.entries.filter((e) => e.privateNote === "Intercompany sale to Northwind UK Ltd");
    const costs = de.entries.filter((e) => e.privateNote === "Supplier invoices for goods shipped to Northwind UK Ltd");
    expect(sales.length).toBe(45); // February 2023 to October 2026
    expect(costs.map((e) => e.txnDate)).toEqual(sales.map((e) => e.txnDate));
    sales.forEach((sale, i) => {
      const eur = -net(sale, roleId("DE", "icSales"));
      const cost = net(costs[i] as JournalEntry, roleId("DE", "cogs"));
      expect(eur - cost, sale.txnDate).toBe(times(eur, 250_000n, 1_000_000n));
    });
  });
});

describe("every demo entry", () => {
  it("balances: debits equal credits, in whole positive cents, for every company", () => {
    let n = 0;
    for (const l of ledgers) {
      for (const e of l.entries) {
        let debit = 0;
        let credit = 0;
        for (const line of e.lines) {
          expect(Number.isSafeInteger(line.amount) && line.amount > 0, `${l.profile.name} ${e.docNumber}`).toBe(true);
          if (line.posting === "Debit") debit += line.amount;
          else credit += line.amount;
        }
        expect(debit, `${l.profile.name} ${e.docNumber} ${e.privateNote}`).toBe(credit);
        n++;
      }
    }
    expect(n).toBeGreaterThan(8000);
  });
});
