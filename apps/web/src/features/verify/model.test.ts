import type { VerifyResult } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { causeLink, defaultMonth, headline, monthChoices } from "./model.ts";

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
  causes: [],
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

describe("where each cause is fixed", () => {
  const cause = (over: Partial<VerifyResult["causes"][number]>): VerifyResult["causes"][number] => ({
    code: "months_not_posted",
    message: "",
    fix: "multiPeriod",
    realmId: "u",
    months: ["2026-03", "2026-05"],
    docNumbers: [],
    url: null,
    ...over,
  });

  it("links months not posted to Multi Period for that subsidiary and those months", () => {
    expect(causeLink(cause({}))).toEqual({ href: "/multipleconsolidation/run?realmIds=u&from=2026-03&to=2026-05", label: "Post them on Multi Period / Company", external: false });
    expect(causeLink(cause({ months: ["2026-04"] }))?.label).toBe("Post it on Multi Period / Company");
  });
  it("links eliminations and group adjustments to Interco Eliminations, opening balances to Opening Balance Sheet", () => {
    expect(causeLink(cause({ code: "eliminations_not_posted", fix: "eliminations", realmId: null }))).toEqual({ href: "/consolidation/elimination", label: "Post them on Interco Eliminations", external: false });
    expect(causeLink(cause({ code: "adjustments_not_posted", fix: "eliminations", realmId: null }))?.label).toBe("Post them under Group adjustments on Interco Eliminations");
    expect(causeLink(cause({ code: "opening_not_posted", fix: "obal" }))).toEqual({ href: "/setup/obal", label: "Post it on Opening Balance Sheet", external: false });
    expect(causeLink(cause({ code: "entry_deleted", fix: "obal", docNumbers: ["OB202512-384023"] }))?.label).toBe("Post it again on Opening Balance Sheet");
  });
  it("opens an edited entry in QuickBooks, and leads a changed posting to where it is posted again", () => {
    expect(causeLink(cause({ code: "entry_edited", fix: "quickbooks", url: "https://qbo.example/app/journal?txnId=9" }))).toEqual({
      href: "https://qbo.example/app/journal?txnId=9",
      label: "Open it in QuickBooks",
      external: true,
    });
    expect(causeLink(cause({ code: "posting_stale", fix: "singlePeriod" }))).toEqual({ href: "/consolidation/run", label: "Post it again on Single Period / Company", external: false });
    expect(causeLink(cause({ code: "entry_deleted", fix: "singlePeriod" }))).toEqual({ href: "/consolidation/run", label: "See its periods on Single Period / Company", external: false });
    expect(causeLink(cause({ code: "entry_edited", fix: "quickbooks", url: null }))).toBeNull();
  });
});
