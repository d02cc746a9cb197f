import { describe, expect, it } from "vitest";
import { companyRow as row, thrown } from "../../testing/fixtures.ts";
import { groupOf, NO_SUCH_COMPANY, toCompany } from "./group.ts";

describe("groupOf", () => {
  const parent = row("100", { isParent: true, companyName: "Parent Inc" });
  const uk = row("200", { companyName: "UK Ltd", homeCurrency: "GBP" });
  const old = row("300", { companyName: "Old GmbH", archivedAt: "2025-06-30" });
  const group = groupOf([parent, old, uk]);

  it("names the parent, every subsidiary (archived ones too) and those still in the group, in the order given", () => {
    expect(group.companies.map((c) => c.realmId)).toEqual(["100", "300", "200"]);
    expect(group.parent).toBe(parent);
    expect(group.subsidiaries.map((c) => c.realmId)).toEqual(["300", "200"]);
    expect(group.unarchivedSubsidiaries.map((c) => c.realmId)).toEqual(["200"]);
  });

  it("finds a company by realm, and answers one that is not the account's with 404", () => {
    expect(group.find("200")).toBe(uk);
    expect(group.find("999")).toBeUndefined();
    expect(group.company("300")).toBe(old);
    expect(thrown(() => group.company("999"))).toEqual({ status: 404, code: "not_found", message: "Company 999 is not in your account." });
    expect(thrown(() => group.company("999", NO_SUCH_COMPANY))).toEqual({ status: 404, code: "not_found", message: "No such company in your account." });
  });

  it("requires the parent with 409 parent_required, saying why the feature needs one", () => {
    expect(group.requireParent("runs post into the parent's QuickBooks")).toBe(parent);
    const orphans = groupOf([uk, old]);
    expect(orphans.parent).toBeNull();
    expect(orphans.subsidiaries).toHaveLength(2);
    expect(thrown(() => orphans.requireParent())).toEqual({ status: 409, code: "parent_required", message: "Choose a parent company first." });
    expect(thrown(() => orphans.requireParent("runs post into the parent's QuickBooks"))).toEqual({
      status: 409,
      code: "parent_required",
      message: "Choose a parent company first: runs post into the parent's QuickBooks.",
    });
  });

  it("is empty for an account without companies", () => {
    const none = groupOf([]);
    expect(none).toMatchObject({ companies: [], parent: null, subsidiaries: [], unarchivedSubsidiaries: [] });
    expect(thrown(() => none.company("1")).status).toBe(404);
  });
});

describe("toCompany", () => {
  it("shows a stored company as the API does", () => {
    expect(toCompany(row("200", { ownershipPercent: "75.5000", archivedAt: "2025-06-30", bookCloseDate: "2024-12-31" }))).toEqual({
      realmId: "200",
      companyName: "Company 200",
      country: "US",
      homeCurrency: "USD",
      parent: false,
      earliestTransactionDate: null,
      fiscalYearStartMonth: 1,
      bookCloseDate: "2024-12-31",
      ownershipPercent: "75.5",
      archivedAt: "2025-06-30",
      connectedAt: "2026-01-02T03:04:05.000Z",
    });
  });
});
