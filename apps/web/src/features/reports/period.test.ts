import { describe, expect, it } from "vitest";
import { PARENT_CO, syncedStatus, UK_CO } from "../../test/fixtures.ts";
import { defaultMonth, firstBookMonth, periodChoices, periodContaining, periodLabel, rangeProblem, readState, spanLabel, writeState } from "./period.ts";

describe("the default month", () => {
  it("is the month before the current one when every company is synced this month", () => {
    const status = { [PARENT_CO.realmId]: syncedStatus({ lastSyncedAt: "2026-11-20T09:00:00.000Z" }), [UK_CO.realmId]: syncedStatus({ lastSyncedAt: "2026-11-02T09:00:00.000Z" }) };
    expect(defaultMonth([PARENT_CO, UK_CO], status, "2026-11")).toBe("2026-10");
  });

  it("is the last month every company's books were synced past: a month synced while under way is not complete", () => {
    const status = { [PARENT_CO.realmId]: syncedStatus({ lastSyncedAt: "2026-11-20T09:00:00.000Z" }), [UK_CO.realmId]: syncedStatus({ lastSyncedAt: "2026-08-15T09:00:00.000Z" }) };
    expect(defaultMonth([PARENT_CO, UK_CO], status, "2026-11")).toBe("2026-07");
  });

  it("ignores archived companies and companies never synced", () => {
    const status = { [UK_CO.realmId]: syncedStatus({ lastSyncedAt: "2025-01-15T09:00:00.000Z" }), [PARENT_CO.realmId]: syncedStatus({ lastSyncedAt: null }) };
    expect(defaultMonth([PARENT_CO, { ...UK_CO, archivedAt: "2025-02-01" }], status, "2026-11")).toBe("2026-10");
  });
});

describe("periods of each kind", () => {
  it("a January fiscal year: calendar quarters and years", () => {
    expect(periodContaining("quarter", "2026-02", 1)).toEqual({ kind: "quarter", from: "2026-01", to: "2026-03" });
    expect(periodContaining("year", "2026-02", 1)).toEqual({ kind: "year", from: "2026-01", to: "2026-12" });
    expect(periodContaining("month", "2026-02", 1)).toEqual({ kind: "month", from: "2026-02", to: "2026-02" });
  });

  it("an April fiscal year is named by the calendar year it ends in", () => {
    expect(periodContaining("quarter", "2026-02", 4)).toEqual({ kind: "quarter", from: "2026-01", to: "2026-03" });
    expect(periodLabel(periodContaining("quarter", "2026-02", 4), 4)).toBe("FY2026 Q4 (Jan – Mar 2026)");
    expect(periodContaining("year", "2026-02", 4)).toEqual({ kind: "year", from: "2025-04", to: "2026-03" });
    expect(periodLabel(periodContaining("year", "2026-05", 4), 4)).toBe("FY2027 (Apr 2026 – Mar 2027)");
  });

  it("a custom period keeps its months when the kind is switched to it", () => {
    expect(periodContaining("custom", "2026-03", 1, { kind: "quarter", from: "2026-01", to: "2026-03" })).toEqual({ kind: "custom", from: "2026-01", to: "2026-03" });
  });

  it("labels say months plainly, and a quarter or year only when the months are one", () => {
    expect(spanLabel("2026-03", "2026-03")).toBe("March 2026");
    expect(spanLabel("2026-01", "2026-03")).toBe("Jan – Mar 2026");
    expect(spanLabel("2025-11", "2026-01")).toBe("Nov 2025 – Jan 2026");
    expect(periodLabel({ kind: "quarter", from: "2026-01", to: "2026-03" }, 1)).toBe("FY2026 Q1 (Jan – Mar 2026)");
    expect(periodLabel({ kind: "quarter", from: "2026-02", to: "2026-03" }, 1)).toBe("Feb – Mar 2026");
  });
});

describe("choices in the pickers", () => {
  it("lists fiscal quarters newest first from the books' first month, the current one marked in progress", () => {
    const choices = periodChoices("quarter", "2025-05", "2026-11", 1, "2026-11");
    expect(choices.map((c) => c.label)).toEqual([
      "FY2026 Q4 (Oct – Dec 2026) (in progress)",
      "FY2026 Q3 (Jul – Sep 2026)",
      "FY2026 Q2 (Apr – Jun 2026)",
      "FY2026 Q1 (Jan – Mar 2026)",
      "FY2025 Q4 (Oct – Dec 2025)",
      "FY2025 Q3 (Jul – Sep 2025)",
      "FY2025 Q2 (Apr – Jun 2025)",
    ]);
    expect(choices[3]).toMatchObject({ value: "2026-03", from: "2026-01", to: "2026-03" });
  });

  it("lists fiscal years", () => {
    expect(periodChoices("year", "2023-01", "2026-11", 4, "2026-11").map((c) => c.value)).toEqual(["2027-03", "2026-03", "2025-03", "2024-03", "2023-03"]);
  });

  it("the books start at the earliest transaction date any company has", () => {
    expect(firstBookMonth([PARENT_CO, UK_CO, { ...UK_CO, earliestTransactionDate: "2022-07-09" }], "2023-11")).toBe("2022-07");
    expect(firstBookMonth([PARENT_CO], "2023-11")).toBe("2023-11");
  });
});

describe("custom ranges", () => {
  it("refuses a range that ends before it starts or is longer than the server takes", () => {
    expect(rangeProblem("2026-03", "2026-01")).toBe("The period ends (Jan 2026) before it starts (Mar 2026).");
    expect(rangeProblem("2021-01", "2026-01")).toBe("A report covers at most 60 months; this range is 61.");
    expect(rangeProblem("2021-02", "2026-01")).toBeNull();
  });
});

describe("the state in the address", () => {
  it("round-trips and keeps the page's other parameters", () => {
    const start = new URLSearchParams("tab=reports");
    const written = writeState(start, { kind: "quarter", from: "2026-01", to: "2026-03", compare: "prior_year", view: "worksheet" });
    expect(written.get("tab")).toBe("reports");
    expect(readState(written)).toEqual({ period: { kind: "quarter", from: "2026-01", to: "2026-03" }, compare: "prior_year", view: "worksheet" });
  });

  it("leaves out what is missing or invalid, for the defaults to fill", () => {
    expect(readState(new URLSearchParams(""))).toEqual({});
    expect(readState(new URLSearchParams("reportPeriod=month&reportFrom=2026-13&reportTo=2026-13&reportCompare=yesterday&reportView=worksheet"))).toEqual({ view: "worksheet" });
    expect(readState(new URLSearchParams("reportPeriod=yearly&reportFrom=2026-01&reportTo=2026-12"))).toEqual({});
    // Kept as typed, so the controls can say what is wrong with it.
    expect(readState(new URLSearchParams("reportPeriod=custom&reportFrom=2026-04&reportTo=2026-01"))).toEqual({ period: { kind: "custom", from: "2026-04", to: "2026-01" } });
  });
});
