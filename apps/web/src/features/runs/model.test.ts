import type { PostingSummary, RunDetail, RunPreview } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { UK_FEB } from "./components/runsFixtures.ts";
import {
  choiceLabel,
  creditText,
  ctaAddsUp,
  defaultChoice,
  defaultRunRange,
  itemsByMonth,
  lastPostedMonth,
  periodChoices,
  postBlockReason,
  requestPeriod,
  runFormFromSearch,
  runFormProblem,
  runSize,
  summaryText,
} from "./model.ts";

const posting = (realmId: string, from: string, to: string, status: PostingSummary["status"] = "posted"): PostingSummary => ({
  id: `${realmId}-${from}-${status}`,
  realmId,
  companyName: realmId,
  period: { kind: from === to ? "month" : "quarter", from, to, label: to },
  status,
  journalEntryId: "1",
  journalEntryUrl: null,
  docNumber: "CR",
  postedAt: "2026-02-03T10:00:00.000Z",
  postedBy: null,
  runId: null,
  stale: null,
});

describe("periods to pick", () => {
  it("months start after the opening month and end with the current one, marked in progress", () => {
    const months = periodChoices("month", "2025-12", 1, "2026-03");
    expect(months.map((c) => c.to)).toEqual(["2026-01", "2026-02", "2026-03"]);
    expect(months.map((c) => c.inProgress)).toEqual([false, false, true]);
    expect(choiceLabel(months[0]!)).toBe("January 2026");
    expect(choiceLabel(months[2]!)).toBe("March 2026 (in progress)");
  });

  it("quarters and years are the parent's fiscal ones, and none that starts in or before the opening month", () => {
    // April fiscal year; opening at 2025-06 (the end of FY2026 Q1): Q1 is in the opening balances.
    const quarters = periodChoices("quarter", "2025-06", 4, "2026-05");
    expect(quarters.map((c) => c.label)).toEqual(["FY2026 Q2", "FY2026 Q3", "FY2026 Q4", "FY2027 Q1"]);
    expect(quarters[0]).toMatchObject({ from: "2025-07", to: "2025-09", inProgress: false });
    expect(quarters[3]).toMatchObject({ from: "2026-04", to: "2026-06", inProgress: true });
    expect(choiceLabel(quarters[0]!)).toBe("FY2026 Q2 · Jul 2025 – Sep 2025");
    // FY2026 (Apr 2025 – Mar 2026) starts before the opening month: only FY2027 can be posted.
    expect(periodChoices("year", "2025-06", 4, "2026-05").map((c) => `${c.label} ${c.from}..${c.to}`)).toEqual(["FY2027 2026-04..2027-03"]);
    expect(periodChoices("year", "2025-03", 4, "2026-05").map((c) => c.label)).toEqual(["FY2026", "FY2027"]);
  });

  it("nothing to pick while the opening month is the current one", () => {
    expect(periodChoices("month", "2026-03", 1, "2026-03")).toEqual([]);
  });

  it("the default is the first period after the last posted month, or after the opening month", () => {
    const months = periodChoices("month", "2025-12", 1, "2026-06");
    expect(defaultChoice(months, null)?.to).toBe("2026-01");
    expect(lastPostedMonth([posting("uk", "2026-01", "2026-01"), posting("uk", "2026-02", "2026-02"), posting("uk", "2026-05", "2026-05", "replaced")])).toBe("2026-02");
    expect(defaultChoice(months, "2026-02")?.to).toBe("2026-03");
    // A quarter must start after what is posted: Q1 overlaps February, so Q2.
    expect(defaultChoice(periodChoices("quarter", "2025-12", 1, "2026-06"), "2026-02")?.label).toBe("FY2026 Q2");
    // Everything posted: the latest one (it shows as already posted).
    expect(defaultChoice(months, "2026-06")?.to).toBe("2026-06");
    expect(defaultChoice([], null)).toBeNull();
  });

  it("a choice is sent as its kind and last month", () => {
    expect(requestPeriod({ kind: "quarter", to: "2026-03" })).toEqual({ kind: "quarter", year: 2026, month: 3 });
  });
});

const month = (m: string, parts: { openingNetAssets: number; netIncome: number; rounding?: number }) => ({
  month: m,
  openingNetAssetsLocal: 100_000_00,
  previousClosingRate: "1.25",
  closingRate: "1.26",
  averageRate: "1.255",
  openingNetAssets: parts.openingNetAssets,
  netIncome: parts.netIncome,
  dividends: 0,
  equityMovements: 0,
  rounding: parts.rounding ?? 0,
  change: parts.openingNetAssets + parts.netIncome + (parts.rounding ?? 0),
});

function preview(over: Partial<RunPreview> = {}): RunPreview {
  const months = [month("2026-01", { openingNetAssets: 1000_00, netIncome: 50_00, rounding: 1 }), month("2026-02", { openingNetAssets: -300_00, netIncome: 20_00 })];
  const change = months.reduce((s, m) => s + m.change, 0); // 770.01 credit
  // The fixtures' UK February (not posted, no problems), with its CTA explained over two months.
  return {
    ...UK_FEB,
    realmId: "uk",
    entry: {
      lines: [
        { account: "10", name: "Cash", debit: 1770_01, credit: 0 },
        { account: "40", name: "Revenue", debit: 0, credit: 1000_00 },
        { account: "89", name: "Accumulated OCI", debit: 0, credit: change },
      ],
      totalDebit: 1770_01,
      totalCredit: 1000_00 + change,
      memo: "Northwind UK Ltd 2026-02",
    },
    cta: { ...UK_FEB.cta!, change, months, total: { openingNetAssets: 700_00, netIncome: 70_00, dividends: 0, equityMovements: 0, rounding: 1, change } },
    netIncome: { local: 800_00, translated: 1000_00 },
    ...over,
  };
}

describe("posting and the CTA proof", () => {
  it("a clean preview may be posted, and its CTA explanation adds up to the CTA line", () => {
    expect(ctaAddsUp(preview())).toBe(true);
    expect(postBlockReason(preview())).toBeNull();
  });

  it("says why Post is not offered", () => {
    expect(postBlockReason(preview({ ok: false, problems: [{ code: "missing_rate", message: "No GBP rate" }] }))).toBe("Fix the problems listed above, then preview again.");
    expect(postBlockReason(preview({ posted: { ...posting("uk", "2026-02", "2026-02"), docNumber: "CR202602-384023", postedBy: "a@b.example" } }))).toBe(
      "Already posted: CR202602-384023 on 2026-02-03 by a@b.example.",
    );
    // A quarter over a posted month would post it twice; the same month posted is not an overlap but "already posted".
    const q1 = preview({ period: { kind: "quarter", from: "2026-01", to: "2026-03", label: "FY2026 Q1" } });
    const posted = [posting("uk", "2026-02", "2026-02"), posting("uk", "2026-01", "2026-01"), posting("uk", "2026-03", "2026-03", "replaced"), posting("uk", "2026-04", "2026-04")];
    expect(postBlockReason(q1, posted)).toBe("2026-01, 2026-02 are already posted inside FY2026 Q1; post the remaining months on their own.");
    expect(postBlockReason(preview(), [posting("uk", "2026-01", "2026-01"), posting("uk", "2026-03", "2026-03")])).toBeNull();
    const empty = preview({ entry: { lines: [], totalDebit: 0, totalCredit: 0, memo: "" } });
    expect(postBlockReason(empty)).toBe("Northwind UK Ltd has no activity in 2026-02: there is nothing to post.");
  });

  it("refuses an explanation whose parts, months or total do not reach the CTA line", () => {
    const p = preview();
    const offByOne = { ...p, cta: { ...p.cta!, total: { ...p.cta!.total, rounding: 2 } } };
    expect(ctaAddsUp(offByOne)).toBe(false);
    expect(postBlockReason(offByOne)).toMatch(/does not add up/);
    const lineDiffers = { ...p, entry: { ...p.entry!, lines: p.entry!.lines.map((l) => (l.account === "89" ? { ...l, credit: l.credit + 1 } : l)) } };
    expect(ctaAddsUp(lineDiffers)).toBe(false);
    const monthWrong = { ...p, cta: { ...p.cta!, months: [p.cta!.months[0]!, { ...p.cta!.months[1]!, change: p.cta!.months[1]!.change + 5 }] } };
    expect(ctaAddsUp(monthWrong)).toBe(false);
    // Same-currency subsidiaries have no CTA: nothing to prove.
    expect(ctaAddsUp(preview({ cta: null }))).toBe(true);
  });

  it("shows credit-positive amounts as Cr and Dr", () => {
    expect(creditText(77001, "USD")).toBe("$770.01 Cr");
    expect(creditText(-123456, "USD")).toBe("$1,234.56 Dr");
    expect(creditText(0, "USD")).toBe("$0.00");
  });
});

describe("multi-period runs", () => {
  const item = (seq: number, realmId: string, m: string, status: RunDetail["items"][number]["status"], message: string | null = null) => ({
    seq,
    realmId,
    companyName: realmId.toUpperCase(),
    month: m,
    label: m,
    status,
    message,
    journalEntryId: null,
    journalEntryUrl: null,
  });

  it("groups items by month in posting order", () => {
    const groups = itemsByMonth([item(2, "uk", "2026-02", "pending"), item(0, "uk", "2026-01", "posted"), item(1, "ca", "2026-01", "posted")]);
    expect(groups.map((g) => [g.month, g.items.map((i) => i.realmId)])).toEqual([
      ["2026-01", ["uk", "ca"]],
      ["2026-02", ["uk"]],
    ]);
  });

  it("sums a finished run up, telling duplicates from months held back by a failure", () => {
    const run = {
      counts: { total: 5, pending: 0, posted: 2, skipped: 2, failed: 1 },
      items: [
        item(0, "uk", "2026-01", "skipped", "Already posted as entry CR202601-384023; skipped as a duplicate."),
        item(1, "ca", "2026-01", "failed", "No CAD rate for 2026-01."),
        item(2, "uk", "2026-02", "posted"),
        item(3, "ca", "2026-02", "skipped", "Not posted: 2026-01 failed for this company, and posting later months would leave a gap."),
        item(4, "uk", "2026-03", "posted"),
      ],
    } as unknown as RunDetail;
    expect(summaryText(run)).toBe("2 posted, 1 skipped as already posted, 1 not posted after an earlier failure, 1 failed.");
  });

  it("opens on the run a link asks for, only with the group's subsidiaries and months it can post", () => {
    const ask = (q: string) => runFormFromSearch(new URLSearchParams(q), ["uk", "ca"], "2025-12", "2026-11");
    expect(ask("realmIds=ca,uk&from=2026-03&to=2026-06")).toEqual({ realmIds: ["uk", "ca"], from: "2026-03", to: "2026-06" });
    expect(ask("realmIds=ca,de&from=2026-03&to=2026-03")).toEqual({ realmIds: ["ca"], from: "2026-03", to: "2026-03" });
    for (const q of ["", "realmIds=de&from=2026-03&to=2026-06", "realmIds=uk&from=2025-12&to=2026-02", "realmIds=uk&from=2026-04&to=2026-03", "realmIds=uk&from=2026-03&to=2026-12", "realmIds=uk&from=March&to=2026-04"]) {
      expect(ask(q), q).toBeNull();
    }
  });

  it("checks a run request as the server would", () => {
    const ok = { realmIds: ["uk", "ca"], from: "2026-01", to: "2026-12" };
    expect(runFormProblem(ok, "2025-12")).toBeNull();
    expect(runSize(ok)).toBe(24);
    expect(runFormProblem({ ...ok, realmIds: [] }, "2025-12")).toBe("Choose at least one subsidiary.");
    expect(runFormProblem({ ...ok, from: "2026-03", to: "2026-02" }, "2025-12")).toBe("The run ends (2026-02) before it starts (2026-03).");
    expect(runFormProblem({ ...ok, from: "2025-12" }, "2025-12")).toBe("Start after the opening month 2025-12: the opening balances already hold it.");
    const big = { realmIds: Array.from({ length: 50 }, (_, i) => `r${i}`), from: "2000-01", to: "2002-12" };
    expect(runFormProblem(big, "1999-12")).toBe("1800 entries is more than one run posts (1200); choose fewer months or companies.");
  });

  it("offers the months from the first one a chosen subsidiary has not posted to the last month that ended", () => {
    const postings = [posting("uk", "2026-01", "2026-01"), posting("uk", "2026-02", "2026-02"), posting("ca", "2026-01", "2026-01")];
    expect(defaultRunRange(["uk", "ca"], postings, "2025-12", "2026-11")).toEqual({ from: "2026-02", to: "2026-10" });
    expect(defaultRunRange(["uk"], postings, "2025-12", "2026-11")).toEqual({ from: "2026-03", to: "2026-10" });
    expect(defaultRunRange(["de"], postings, "2025-12", "2026-11")).toEqual({ from: "2026-01", to: "2026-10" });
    // Everything up to last month posted: this month alone.
    expect(defaultRunRange(["uk"], [posting("uk", "2026-10", "2026-10")], "2025-12", "2026-11")).toEqual({ from: "2026-11", to: "2026-11" });
  });
});
