import { accountSchema } from "@groupledger/qbo";
import { describe, expect, it } from "vitest";
import type { qboAccounts } from "../../db/schema.ts";
import { classificationOf, toChartAccount } from "./chart.ts";

/** An account as QuickBooks' Account query answers it. */
const account = (fields: Record<string, unknown>) => accountSchema.parse({ Id: "1", Name: "Account", ...fields });

describe("classificationOf", () => {
  it("keeps the Classification QuickBooks sends, whatever the type says", () => {
    expect(classificationOf(account({ AccountType: "Other Current Liability", Classification: "Liability" }))).toBe("Liability");
    expect(classificationOf(account({ AccountType: "Bank", Classification: "Equity" }))).toBe("Equity");
  });

  it("without one, takes Intuit's fixed classification of each AccountType", () => {
    const types: Record<string, string[]> = {
      Asset: ["Bank", "Accounts Receivable", "Other Current Asset", "Fixed Asset", "Other Asset"],
      Liability: ["Accounts Payable", "Credit Card", "Other Current Liability", "Long Term Liability"],
      Equity: ["Equity"],
      Revenue: ["Income", "Other Income"],
      Expense: ["Cost of Goods Sold", "Expense", "Other Expense"],
    };
    for (const [classification, list] of Object.entries(types)) {
      for (const type of list) expect(classificationOf(account({ AccountType: type })), type).toBe(classification);
    }
  });

  it("an AccountType it does not know is an asset (the sync stores a classification for every account)", () => {
    expect(classificationOf(account({ AccountType: "Something New" }))).toBe("Asset");
  });
});

describe("toChartAccount", () => {
  it("gives the domain's rules a synced account by its QuickBooks id, with what they read and nothing of the sync's bookkeeping", () => {
    const row: typeof qboAccounts.$inferSelect = {
      realmId: "9341453172384023",
      qboId: "84",
      name: "Intercompany receivable - UK",
      fullyQualifiedName: "Intercompany:Intercompany receivable - UK",
      acctNum: "1410",
      accountType: "Other Current Asset",
      accountSubType: "OtherCurrentAssets",
      classification: "Asset",
      currency: "USD",
      active: false,
      parentQboId: "83",
      everHadBalance: true,
      syncedAt: new Date("2026-03-01T00:00:00Z"),
    };
    expect(toChartAccount(row)).toEqual({
      id: "84",
      name: "Intercompany receivable - UK",
      // A sub-account is labelled by its full name on every screen and in messages (issue 20 item 3).
      fullyQualifiedName: "Intercompany:Intercompany receivable - UK",
      acctNum: "1410",
      classification: "Asset",
      accountType: "Other Current Asset",
      accountSubType: "OtherCurrentAssets",
      active: false,
      everHadBalance: true,
    });
    expect(toChartAccount({ ...row, acctNum: null, accountSubType: null })).toMatchObject({ acctNum: null, accountSubType: null });
  });
});
