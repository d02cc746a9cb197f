import type { VerifyResult } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { defaultMonth, headline, monthChoices } from "./model.ts";

const posted = (to: string, status: "posted" | "deleted" = "posted") => ({ status, period: { kind: "month" as const, from: to, to, label: to } });

describe("which month-end to verify", () => {
  it("offers the opening month to the current one, newest first", () => {
    expect(monthChoices("2025-11", "2026-02")).toEqual(["2026-02", "2026-01", "2025-12", "2025-11"]);
  });

  it("opens on the last month anything was posted for, else the month before the current one, within the opening month and today", () => {
    expect(defaultMonth([posted("2026-01"), posted("2026-03"), posted("2026-05", "deleted")], "2025-12", "2026-11")).toBe("2026-03");
    expect(defaultMonth([], "2025-12", "2026-11")).toBe("2026-10");
    expect(defaultMonth([], "2026-11", "2026-11")).toBe("2026-11");
  });
});

const sub = (over: Partial<VerifyResult["subsidiaries"][number]> = {}): VerifyResult["subsidiaries"][number] => ({
  realmId: "u",
  companyName: "Northwind UK Ltd",
  status: "ok",
  message: "",
  missingMonths: [],
  missingEntries: [],
  accounts: 53,
  differences: [],
  ...over,
});
const diff = { account: "22", name: "Intercompany Loan", expected: 0, actual: 100, difference: 100 };
const result = (over: Partial<VerifyResult> = {}): VerifyResult => ({
  month: "2026-03",
  openingMonth: "2025-12",
  parentCurrency: "USD",
  ok: true,
  subsidiaries: [sub()],
  group: { status: "ok", message: "", accounts: 75, differences: [] },
  ...over,
});

describe("the result in one line", () => {
  it("everything reconciles, with how much was compared and who was not checked", () => {
    expect(headline(result({ subsidiaries: [sub(), sub({ companyName: "Northwind Canada Inc.", status: "not_posted", accounts: 0 })] }))).toEqual({
      tone: "ok",
      title: "Everything reconciles",
      detail: "1 subsidiary and the group compared account by account (128 comparisons): no differences. Not checked (no opening balance posted): Northwind Canada Inc.",
    });
  });

  it("counts the differences of every check", () => {
    const r = result({ ok: false, subsidiaries: [sub({ status: "differences", differences: [diff] })], group: { status: "differences", message: "", accounts: 75, differences: [diff, diff] } });
    expect(headline(r)).toMatchObject({ tone: "differences", title: "3 differences" });
    expect(headline(result({ ok: false, group: { status: "differences", message: "", accounts: 75, differences: [diff] } })).title).toBe("1 difference");
  });

  it("names entries deleted in QuickBooks and checks that could not be computed", () => {
    expect(headline(result({ ok: false, subsidiaries: [sub({ status: "differences", missingEntries: ["301"] })] }))).toEqual({
      tone: "differences",
      title: "1 missing entry",
      detail: "1 posted entry is no longer in QuickBooks.",
    });
    expect(headline(result({ ok: false, group: { status: "not_computable", message: "", accounts: 0, differences: [] } }))).toEqual({
      tone: "incomplete",
      title: "Not everything could be checked",
      detail: "The group cannot be computed.",
    });
  });
});
