import type { Company, CompanyStatus } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { companiesNextStep, rowActions } from "./rules.ts";

const company = (over: Partial<Company> = {}): Company => ({
  realmId: "1",
  companyName: "Northwind UK Ltd",
  country: "GB",
  homeCurrency: "GBP",
  parent: false,
  earliestTransactionDate: null,
  fiscalYearStartMonth: 4,
  ownershipPercent: "100",
  archivedAt: null,
  connectedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const status = (connection: CompanyStatus["connection"], state: CompanyStatus["sync"]["state"] = "succeeded"): CompanyStatus => ({
  connection,
  sync: { state, progress: null, message: null, lastSyncedAt: null },
});

describe("companiesNextStep: the one obvious action", () => {
  const parent = company({ realmId: "p", parent: true });
  const sub = company({ realmId: "s" });
  it("walks connect → set a parent → connect a subsidiary → continue", () => {
    expect(companiesNextStep([], 1)).toBe("connectFirst");
    expect(companiesNextStep([sub], 1)).toBe("setParent");
    expect(companiesNextStep([parent], 1.1)).toBe("connectSubsidiary");
    expect(companiesNextStep([parent, sub], 1.2)).toBe("continueToCoa");
  });
  it("offers no Continue once the guide has moved on or is off", () => {
    expect(companiesNextStep([parent, sub], 2)).toBe("complete");
    expect(companiesNextStep([parent, sub], null)).toBe("complete");
  });
  it("ignores archived companies", () => {
    expect(companiesNextStep([{ ...parent, archivedAt: "2026-01-31" }], 1)).toBe("connectFirst");
    expect(companiesNextStep([parent, { ...sub, archivedAt: "2026-01-31" }], 1.2)).toBe("connectSubsidiary");
  });
});

describe("rowActions", () => {
  it("a connected subsidiary can be synced, made parent, archived, disconnected and removed", () => {
    expect(rowActions(company(), status("connected"))).toEqual({
      setParent: true,
      reconnect: false,
      sync: true,
      disconnect: true,
      archive: true,
      unarchive: false,
      remove: true,
    });
  });
  it("offers Reconnect (and no sync) when the connection is broken or revoked", () => {
    for (const c of ["needs_reauthorization", "disconnected"] as const) {
      const can = rowActions(company(), status(c));
      expect(can.reconnect).toBe(true);
      expect(can.sync).toBe(false);
    }
    expect(rowActions(company(), status("disconnected")).disconnect).toBe(false);
    expect(rowActions(company(), status("needs_reauthorization")).disconnect).toBe(true);
  });
  it("no second sync while one is queued or running", () => {
    expect(rowActions(company(), status("connected", "queued")).sync).toBe(false);
    expect(rowActions(company(), status("connected", "running")).sync).toBe(false);
    expect(rowActions(company(), status("connected", "failed")).sync).toBe(true);
  });
  it("the parent cannot be archived or made parent again; an archived company can only come back", () => {
    const p = rowActions(company({ parent: true }), status("connected"));
    expect([p.archive, p.setParent]).toEqual([false, false]);
    const a = rowActions(company({ archivedAt: "2026-03-31" }), status("connected"));
    expect([a.archive, a.unarchive, a.setParent, a.sync]).toEqual([false, true, false, false]);
  });
});
