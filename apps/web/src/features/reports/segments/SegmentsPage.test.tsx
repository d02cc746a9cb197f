import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SegmentReport } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, syncedStatuses, UK_CO } from "../../../test/fixtures.ts";
import { queryOf, renderRoutes } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { balanceColumns, cashColumns, matchedSegments, segmentColumns, statementKindOf } from "./model.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./SegmentsPage.tsx";

const SLOW_UI = 30_000;

/** The domain test's December figures (packages/domain statements/segments.test.ts), as the server answers them. */
function fixture(over: Partial<SegmentReport> = {}): SegmentReport {
  return {
    ok: true,
    problems: [],
    warnings: [],
    period: { from: "2026-10", to: "2026-10", label: "2026-10" },
    parentCurrency: "USD",
    exponent: 2,
    by: "class",
    kind: "income",
    balanceSheet: null,
    cashFlow: null,
    changesInEquity: null,
    statement: {
      segments: [
        { name: "Retail", members: [{ entity: UK_CO.realmId, entityName: "UK Ltd", name: "Retail" }] },
        {
          name: "Wholesale",
          members: [
            { entity: PARENT_CO.realmId, entityName: "Parent Inc", name: "Wholesale" },
            { entity: UK_CO.realmId, entityName: "UK Ltd", name: "wholesale" },
          ],
        },
      ],
      revenue: [
        { account: "sales", name: "Sales", segments: [76_800_00, 262_000_00], unallocated: 81_200_00, eliminations: 0, otherAdjustments: 0, total: 420_000_00 },
        { account: "ic-sales", name: "Intercompany sales", segments: [0, 64_000_00], unallocated: 0, eliminations: -64_000_00, otherAdjustments: 0, total: 0 },
      ],
      expenses: [{ account: "opex", name: "Operating expenses", segments: [102_400_42, 0], unallocated: 153_599_58, eliminations: 0, otherAdjustments: 0, total: 256_000_00 }],
      netIncome: { segments: [-25_600_42, 326_000_00], unallocated: -72_399_58, eliminations: -64_000_00, otherAdjustments: 0, total: 164_000_00 },
      hasOtherAdjustments: false,
      reconciles: true,
      warnings: [],
    },
    ...over,
  };
}

const zero = { segments: [0, 0], unallocated: 0, eliminations: 0, group: 0 };
/** The domain test's balance sheet at 31 December (packages/domain statements/segments-balance-sheet.test.ts), equity shortened. */
function balanceFixture(): SegmentReport {
  const base = fixture();
  return {
    ...base,
    kind: "balance",
    statement: null,
    balanceSheet: {
      segments: base.statement!.segments,
      asAt: "2026-10",
      assets: [
        { account: "cash", name: "Cash", segments: [130_000_00, 790_000_43], unallocated: 335_299_57, eliminations: 0, group: 0, total: 1_255_300_00 },
        { account: "due-from", name: "Intercompany receivable", segments: [0, 52_000_00], unallocated: 0, eliminations: -52_000_00, group: 0, total: 0 },
        { account: "investment", name: "Investment in UK Sub", segments: [0, 0], unallocated: 560_000_00, eliminations: 0, group: -560_000_00, total: 0 },
        { account: "goodwill", name: "Goodwill", ...zero, group: 62_400_00, total: 62_400_00 },
      ],
      liabilities: [{ account: "due-to", name: "Intercompany payable", segments: [0, 52_000_00], unallocated: 0, eliminations: -52_000_00, group: 0, total: 0 }],
      equity: [
        { account: "capital", name: "Common stock", ...zero, unallocated: 1_500_000_00, group: -500_000_00, total: 1_000_000_00 },
        { account: "nci", name: "Non-controlling interests", ...zero, group: 156_000_00, total: 156_000_00 },
        { account: "(period profit)", name: "Net income for the period attributable to owners of the parent", ...zero, unallocated: 161_700_00, total: 161_700_00 },
      ],
      totalAssets: { segments: [130_000_00, 842_000_43], unallocated: 895_299_57, eliminations: -52_000_00, group: -497_600_00, total: 1_317_700_00 },
      totalLiabilities: { segments: [0, 52_000_00], unallocated: 0, eliminations: -52_000_00, group: 0, total: 0 },
      totalEquity: { segments: [0, 0], unallocated: 1_661_700_00, eliminations: 0, group: -344_000_00, total: 1_317_700_00 },
      totalLiabilitiesAndEquity: { segments: [0, 52_000_00], unallocated: 1_661_700_00, eliminations: -52_000_00, group: -344_000_00, total: 1_317_700_00 },
      reconciles: true,
      warnings: [],
    },
  };
}

const a = (segments: number[], unallocated: number, eliminations: number, total: number) => ({ segments, unallocated, eliminations, total });
/** The domain test's cash flow and changes in equity by segment for December (packages/domain statements/segments-cash-flow.test.ts). */
function cashFlowFixture(): SegmentReport {
  const base = fixture();
  return {
    ...base,
    kind: "cashflow",
    statement: null,
    cashFlow: {
      segments: base.statement!.segments,
      operating: {
        profit: a([-25_600_42, 262_500_00], -73_599_58, 0, 163_300_00),
        adjustments: [{ account: "(intra-group differences)", name: "Exchange differences on intra-group balances, not cash", ...a([0, 0], 0, 800_00, 800_00) }],
        workingCapital: [
          { account: "due-from", name: "Intercompany receivable", ...a([0, -51_200_00], 0, 51_200_00, 0) },
          { account: "due-to", name: "Intercompany payable", ...a([0, 52_000_00], 0, -52_000_00, 0) },
        ],
        total: a([-25_600_42, 263_300_00], -73_599_58, 0, 164_100_00),
      },
      investing: { lines: [], total: a([0, 0], 0, 0, 0) },
      financing: { lines: [{ account: "(segment transfers)", name: "Net transfers from (to) the rest of the group", ...a([153_600_42, 64_700_42], -218_300_84, 0, 0) }], total: a([153_600_42, 64_700_42], -218_300_84, 0, 0) },
      netCashFlow: a([128_000_00, 328_000_42], -291_900_42, 0, 164_100_00),
      exchangeEffect: a([2_000_00, 12_000_01], 12_199_99, 0, 26_200_00),
      openingCash: a([0, 250_000_00], 815_000_00, 0, 1_065_000_00),
      closingCash: a([130_000_00, 590_000_43], 535_299_57, 0, 1_255_300_00),
      difference: a([0, 0], 0, 0, 0),
      reconciles: true,
      warnings: [],
    },
  };
}

function signIn(answer: (q: URLSearchParams) => SegmentReport = () => fixture()) {
  const companies = [PARENT_CO, UK_CO];
  return signedIn({
    "GET /companies": companies,
    "GET /companies/status": syncedStatuses(companies, { lastSyncedAt: "2026-11-20T09:00:00.000Z" }),
    "GET /consolidation/segments": (init: { url: string }) => ({ status: 200, body: answer(queryOf(init)) }),
  });
}

screenTestHooks({ today: "2026-11-21T12:00:00" });

describe("segments: columns (model)", () => {
  it("one column per segment, then no class, the eliminations and the consolidated total; other adjustments only when there are some", () => {
    const s = fixture().statement!;
    expect(segmentColumns(s, "class").map((c) => c.label)).toEqual(["Retail", "Wholesale", "No class", "Eliminations", "Consolidated"]);
    expect(segmentColumns({ ...s, hasOtherAdjustments: true }, "location").map((c) => c.label)).toEqual(["Retail", "Wholesale", "No location", "Eliminations", "Other adjustments", "Consolidated"]);
    expect(segmentColumns(s, "class")[1]!.holders).toBe('Parent Inc, UK Ltd ("wholesale")');
    expect(matchedSegments(s)).toEqual([{ name: "Wholesale", companies: 'Parent Inc, UK Ltd ("wholesale")' }]);
  });

  it("the cash flow's and the changes in equity's: the segments, the unallocated, the eliminations, the consolidated; the statement from the address", () => {
    expect(cashColumns(cashFlowFixture().cashFlow!, "location").map((c) => c.label)).toEqual(["Retail", "Wholesale", "No location", "Eliminations", "Consolidated"]);
    expect(["income", "balance", "cashflow", "equity", "cash", null].map((v) => statementKindOf(new URLSearchParams(v ? { segmentStatement: v } : {})))).toEqual(["income", "balance", "cashflow", "equity", "income", "income"]);
  });

  it("the balance sheet's: a Group column when consolidation adds something of its own", () => {
    const b = balanceFixture().balanceSheet!;
    expect(balanceColumns(b, "class").map((c) => c.label)).toEqual(["Retail", "Wholesale", "No class", "Eliminations", "Group", "Consolidated"]);
    const noGroup = { ...b, assets: b.assets.filter((r) => r.group === 0), equity: [] };
    expect(balanceColumns(noGroup, "location").map((c) => c.label)).toEqual(["Retail", "Wholesale", "No location", "Eliminations", "Consolidated"]);
  });
});

describe("Consolidated reports → Segments", { timeout: SLOW_UI }, () => {
  it("is a tab of the reports area; shows the P&L by class with the eliminations column, and what matched", async () => {
    const asked: string[] = [];
    signIn((q) => {
      asked.push(q.toString());
      return fixture();
    });
    renderRoutes(routes, "/consolidation/reports/segments?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10");
    expect(await screen.findByRole("tab", { name: "Segments" })).toHaveAttribute("aria-selected", "true");
    const table = await screen.findByRole("table", { name: "Profit and loss by class" });
    expect(within(table).getByTestId("seg-col-eliminations")).toHaveTextContent("Eliminations");
    expect(within(table).getByTestId("seg-revenue:ic-sales")).toHaveTextContent("Intercompany sales$0.00$64,000.00$0.00($64,000.00)$0.00");
    expect(within(table).getByTestId("seg-net-income")).toHaveTextContent("Net income($25,600.42)$326,000.00($72,399.58)($64,000.00)$164,000.00");
    expect(within(table).getByTestId("seg-revenue-total")).toHaveTextContent("Total revenue$76,800.00$326,000.00$81,200.00($64,000.00)$420,000.00");
    expect(screen.getByTestId("segments-reconciliation")).toHaveTextContent("to the cent: net income $164,000.00.");
    expect(screen.getByTestId("segments-matched")).toHaveTextContent('Matched: Wholesale: Parent Inc, UK Ltd ("wholesale").');
    expect(asked[0]).toBe("from=2026-10&to=2026-10&by=class&statement=income");
  });

  it("switches to locations, keeping the period", async () => {
    const asked: string[] = [];
    signIn((q) => {
      asked.push(q.toString());
      return fixture({ by: (q.get("by") as "class" | "location") ?? "class" });
    });
    renderRoutes(routes, "/consolidation/reports/segments?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10");
    await screen.findByRole("table", { name: "Profit and loss by class" });
    await userEvent.click(screen.getByText("By location"));
    expect(await screen.findByRole("table", { name: "Profit and loss by location" })).toBeInTheDocument();
    await waitFor(() => expect(asked).toContain("from=2026-10&to=2026-10&by=location&statement=income"));
    expect(screen.getByTestId("seg-col-unallocated")).toHaveTextContent("No location");
  });

  it("offers to read the classes and locations when the group does not yet, and asks the server once", async () => {
    let enabled = false;
    let posts = 0;
    const companies = [PARENT_CO, UK_CO];
    signedIn({
      "GET /companies": companies,
      "GET /companies/status": syncedStatuses(companies, { lastSyncedAt: "2026-11-20T09:00:00.000Z" }),
      "GET /consolidation/segments": () => ({
        status: 200,
        body: enabled ? fixture() : fixture({ ok: false, statement: null, problems: [{ code: "segments_off", message: "This group does not read its classes and locations from QuickBooks yet." }] }),
      }),
      "POST /consolidation/segments/enable": () => {
        posts++;
        enabled = true;
        return { status: 200, body: { enabled: true, syncs: [{ realmId: PARENT_CO.realmId, jobId: "j1", alreadyRunning: false }, { realmId: UK_CO.realmId, jobId: "j2", alreadyRunning: false }] } };
      },
    });
    renderRoutes(routes, "/consolidation/reports/segments?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10");
    expect(await screen.findByText("This group does not read its classes and locations from QuickBooks yet.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Read classes and locations from QuickBooks" }));
    // Enabled: the statement is asked again and drawn.
    expect(await screen.findByRole("table", { name: "Profit and loss by class" })).toBeInTheDocument();
    expect(posts).toBe(1);
  });

  it("switches to the balance sheet, kept in the address: segment assets and liabilities, the eliminations and group columns, equity unsplit", async () => {
    const asked: string[] = [];
    signIn((q) => {
      asked.push(q.toString());
      return q.get("statement") === "balance" ? balanceFixture() : fixture();
    });
    const { router } = renderRoutes(routes, "/consolidation/reports/segments?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10");
    await screen.findByRole("table", { name: "Profit and loss by class" });
    await userEvent.click(screen.getByText("Balance sheet"));
    const table = await screen.findByRole("table", { name: "Balance sheet by class" });
    await waitFor(() => expect(asked).toContain("from=2026-10&to=2026-10&by=class&statement=balance"));
    expect(router.state.location.search).toContain("segmentStatement=balance");
    expect(within(table).getByTestId("seg-col-group")).toHaveTextContent("Group");
    expect(within(table).getByTestId("seg-asset:due-from")).toHaveTextContent("Intercompany receivable$0.00$52,000.00$0.00($52,000.00)$0.00$0.00");
    expect(within(table).getByTestId("seg-assets-total")).toHaveTextContent("Total assets$130,000.00$842,000.43$895,299.57($52,000.00)($497,600.00)$1,317,700.00");
    expect(within(table).getByTestId("seg-liabilities-equity-total")).toHaveTextContent("Total liabilities and equity$0.00$52,000.00$1,661,700.00($52,000.00)($344,000.00)$1,317,700.00");
    expect(screen.getByTestId("segments-reconciliation")).toHaveTextContent("total assets $1,317,700.00 = liabilities and equity $1,317,700.00.");
    expect(screen.getByText(/Equity is not split by class/)).toBeInTheDocument();
  });

  it("switches to the cash flow: each class's own, its net transfers, an Eliminations column, every column reconciling its cash", async () => {
    const asked: string[] = [];
    signIn((q) => {
      asked.push(q.toString());
      return q.get("statement") === "cashflow" ? cashFlowFixture() : fixture();
    });
    renderRoutes(routes, "/consolidation/reports/segments?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10");
    await screen.findByRole("table", { name: "Profit and loss by class" });
    await userEvent.click(screen.getByRole("radio", { name: "Cash flow" }));
    const table = await screen.findByRole("table", { name: "Statement of cash flows by class" });
    await waitFor(() => expect(asked).toContain("from=2026-10&to=2026-10&by=class&statement=cashflow"));
    expect(within(table).getByTestId("seg-col-eliminations")).toHaveTextContent("Eliminations");
    expect(within(table).getByTestId("seg-working-capital:due-from")).toHaveTextContent("Intercompany receivable$0.00($51,200.00)$0.00$51,200.00$0.00");
    expect(within(table).getByTestId("seg-financing:(segment transfers)")).toHaveTextContent("Net transfers from (to) the rest of the group$153,600.42$64,700.42($218,300.84)$0.00$0.00");
    expect(within(table).getByTestId("seg-closing-cash")).toHaveTextContent("Cash at the end of the period$130,000.00$590,000.43$535,299.57$0.00$1,255,300.00");
    expect(within(table).queryByTestId("seg-difference")).toBeNull();
    expect(screen.getByTestId("segments-reconciliation")).toHaveTextContent("Every column reconciles its opening to its closing cash");
    expect(screen.getByText(/dividends paid, share issues and transactions with non-controlling interests/)).toBeInTheDocument();
  });

  it("shows the changes in equity by class from the address: net assets rolled forward, the group's equity in the total", async () => {
    const base = fixture();
    const rows = [
      { kind: "opening" as const, label: "", ...a([0, 250_000_00], 1_000_000_00, 0, 1_250_000_00) },
      { kind: "profit" as const, label: "", ...a([-25_600_42, 262_500_00], -73_599_58, 0, 163_300_00) },
      { kind: "transfers" as const, label: "", ...a([153_600_42, 64_700_42], -218_300_84, 0, 0) },
      { kind: "closing" as const, label: "", ...a([128_000_00, 577_200_42], 708_099_58, 0, 1_413_300_00) },
    ];
    signIn(() => ({ ...base, kind: "equity", statement: null, changesInEquity: { segments: base.statement!.segments, openingMonth: "2026-09", rows, balanceSheetDifference: 0, reconciles: true } }));
    renderRoutes(routes, "/consolidation/reports/segments?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10&segmentStatement=equity");
    const table = await screen.findByRole("table", { name: "Changes in equity by class" });
    expect(within(table).getByTestId("seg-equity:transfers")).toHaveTextContent("Net transfers from (to) the rest of the group$153,600.42$64,700.42($218,300.84)$0.00$0.00");
    expect(within(table).getByTestId("seg-equity:closing")).toHaveTextContent("At the end of the period$128,000.00$577,200.42$708,099.58$0.00$1,413,300.00");
    expect(screen.getByTestId("segments-reconciliation")).toHaveTextContent("total equity on every line, to the cent");
  });

  it("opens on the balance sheet the address names", async () => {
    signIn((q) => (q.get("statement") === "balance" ? balanceFixture() : fixture()));
    renderRoutes(routes, "/consolidation/reports/segments?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10&segmentStatement=balance");
    expect(await screen.findByRole("table", { name: "Balance sheet by class" })).toBeInTheDocument();
    expect(screen.queryByTestId("segments-statement")).toBeNull();
  });

  it("names the problems instead of a statement when the consolidation cannot be computed", async () => {
    signIn(() => fixture({ ok: false, statement: null, problems: [{ code: "missing_rate", message: "No GBP rates for 2026-10." }] }));
    renderRoutes(routes, "/consolidation/reports/segments?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10");
    expect(await screen.findByText("No GBP rates for 2026-10.")).toBeInTheDocument();
    expect(screen.queryByTestId("segments-statement")).toBeNull();
  });
});
