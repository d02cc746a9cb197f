import { describe, expect, it } from "vitest";
import { diagnoseVerify, entryChanges, firstPostableMonth, monthsNotPosted, type PostedEntryFacts, type VerifyFacts } from "./verify-causes.ts";

const UK = { realmId: "uk", companyName: "Northwind UK Ltd", openingPosted: true, acquiredMonth: null };
const CA = { realmId: "ca", companyName: "Northwind Canada Inc.", openingPosted: true, acquiredMonth: null };

const entry = (over: Partial<PostedEntryFacts> & Pick<PostedEntryFacts, "kind" | "from" | "to" | "docNumber">): PostedEntryFacts => ({
  realmId: null,
  companyName: null,
  url: null,
  inQuickBooks: "as_posted",
  changedAccounts: 0,
  stale: false,
  ...over,
});
const ukMonth = (m: string, over: Partial<PostedEntryFacts> = {}) =>
  entry({ kind: "subsidiary", realmId: "uk", companyName: UK.companyName, from: m, to: m, docNumber: `CR${m.replace("-", "")}-384023`, ...over });
const elim = (from: string, to: string) => entry({ kind: "eliminations", from, to, docNumber: `IE${from.replace("-", "")}` });

function facts(over: Partial<VerifyFacts> = {}): VerifyFacts {
  return {
    month: "2026-06",
    openingMonth: "2025-12",
    subsidiaries: [UK],
    entries: ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06"].map((m) => ukMonth(m)),
    eliminationsFrom: null,
    adjustmentsFrom: null,
    ...over,
  };
}

describe("monthsNotPosted and firstPostableMonth", () => {
  it("lists the months no period covers, months and quarters alike", () => {
    expect(monthsNotPosted("2026-01", "2026-08", [{ from: "2026-01", to: "2026-03" }, { from: "2026-05", to: "2026-05" }])).toEqual(["2026-04", "2026-06", "2026-07", "2026-08"]);
    expect(monthsNotPosted("2026-01", "2026-03", [{ from: "2025-10", to: "2026-03" }])).toEqual([]);
    expect(monthsNotPosted("2026-01", "2025-12", [])).toEqual([]);
  });
  it("starts after the opening month, or after the month of the acquisition when that is later", () => {
    expect(firstPostableMonth("2025-12", null)).toBe("2026-01");
    expect(firstPostableMonth("2025-12", "2026-03")).toBe("2026-04");
    expect(firstPostableMonth("2025-12", "2024-06")).toBe("2026-01");
  });
});

describe("entryChanges: what was edited in an entry since it was posted", () => {
  const posted = [
    { account: "10", debit: 500_00, credit: 0 },
    { account: "2", debit: 0, credit: 300_00 },
    { account: "30", debit: 0, credit: 200_00 },
  ];
  it("finds nothing when QuickBooks holds the same amounts, however the lines are split", () => {
    const now = [
      { accountId: "10", postingType: "Debit" as const, amount: 400_00 },
      { accountId: "10", postingType: "Debit" as const, amount: 100_00 },
      { accountId: "2", postingType: "Credit" as const, amount: 300_00 },
      { accountId: "30", postingType: "Credit" as const, amount: 200_00 },
    ];
    expect(entryChanges(posted, now)).toEqual([]);
  });
  it("names the accounts whose amount moved, appeared or went, in chart order", () => {
    const now = [
      { accountId: "10", postingType: "Debit" as const, amount: 500_05 },
      { accountId: "2", postingType: "Credit" as const, amount: 300_00 },
      { accountId: "4", postingType: "Credit" as const, amount: 200_05 },
    ];
    expect(entryChanges(posted, now)).toEqual(["4", "10", "30"]);
  });
});

describe("diagnoseVerify: why Verify finds differences", () => {
  it("finds nothing when every month and entry is posted and as posted", () => {
    expect(diagnoseVerify(facts())).toEqual([]);
    expect(diagnoseVerify(facts({ eliminationsFrom: "2026-01", entries: [...facts().entries, elim("2026-01", "2026-03"), elim("2026-04", "2026-06")] }))).toEqual([]);
  });

  it("names the months of eliminations and group adjustments not posted, in words, for the Interco Eliminations page", () => {
    const causes = diagnoseVerify(facts({ eliminationsFrom: "2026-01", adjustmentsFrom: "2026-03", entries: [...facts().entries, elim("2026-01", "2026-01")] }));
    expect(causes).toEqual([
      {
        code: "eliminations_not_posted",
        fix: "eliminations",
        realmId: null,
        months: ["2026-02", "2026-03", "2026-04", "2026-05", "2026-06"],
        docNumbers: [],
        url: null,
        message: "The intercompany eliminations for February 2026 to June 2026 are not posted.",
      },
      // Acquired in March: no adjustments entry before.
      expect.objectContaining({ code: "adjustments_not_posted", months: ["2026-03", "2026-04", "2026-05", "2026-06"], message: "The group adjustments for March 2026 to June 2026 are not posted." }),
    ]);
    // Without pairs or acquisitions there is nothing to post, so nothing is missing.
    expect(diagnoseVerify(facts({ entries: facts().entries }))).toEqual([]);
  });

  it("names a subsidiary's months not posted, from its acquisition on, for Multi Period", () => {
    expect(diagnoseVerify(facts({ entries: facts().entries.slice(0, 5) }))[0]!.message).toBe("The entry of Northwind UK Ltd for June 2026 is not posted.");
    const entries = [ukMonth("2026-01"), ukMonth("2026-02"), ukMonth("2026-04")];
    const causes = diagnoseVerify(facts({ entries, subsidiaries: [UK, { ...CA, acquiredMonth: "2026-04" }] }));
    expect(causes).toEqual([
      {
        code: "months_not_posted",
        fix: "multiPeriod",
        realmId: "uk",
        months: ["2026-03", "2026-05", "2026-06"],
        docNumbers: [],
        url: null,
        message: "The entries of Northwind UK Ltd for 3 months between March 2026 and June 2026 are not posted.",
      },
      // Canada joined the group in April: May and June are its only months.
      expect.objectContaining({ code: "months_not_posted", realmId: "ca", months: ["2026-05", "2026-06"], message: "The entries of Northwind Canada Inc. for May 2026 to June 2026 are not posted." }),
    ]);
  });

  it("names an opening balance not posted first, for Opening Balance Sheet, and does not count its months as missing", () => {
    const causes = diagnoseVerify(facts({ subsidiaries: [UK, { ...CA, openingPosted: false }] }));
    expect(causes).toEqual([
      {
        code: "opening_not_posted",
        fix: "obal",
        realmId: "ca",
        months: ["2025-12"],
        docNumbers: [],
        url: null,
        message: "Northwind Canada Inc.'s opening balance at December 2025 is not posted, so nothing posted for it can be checked.",
      },
    ]);
  });

  it("names entries deleted or edited in QuickBooks by DocNumber, and entries whose books changed since", () => {
    const url = "https://app.qbo.intuit.com/app/journal?txnId=2090";
    const entries = [
      entry({ kind: "opening", realmId: "uk", companyName: UK.companyName, from: "2025-12", to: "2025-12", docNumber: "OB202512-384023", inQuickBooks: "deleted" }),
      ukMonth("2026-01"),
      ukMonth("2026-02", { inQuickBooks: "deleted", stale: true }),
      ukMonth("2026-03", { inQuickBooks: "edited", changedAccounts: 2, url }),
      ukMonth("2026-04", { stale: true }),
      ukMonth("2026-05"),
      ukMonth("2026-06"),
      entry({ kind: "eliminations", from: "2026-01", to: "2026-06", docNumber: "IE2026Q1", inQuickBooks: "edited", changedAccounts: 1 }),
    ];
    const causes = diagnoseVerify(facts({ entries, eliminationsFrom: "2026-01" }));
    expect(causes.map((c) => [c.code, c.fix, c.docNumbers, c.url, c.message])).toEqual([
      ["entry_deleted", "obal", ["OB202512-384023"], null, "Entry OB202512-384023 (Northwind UK Ltd's opening balance, December 2025) was deleted in QuickBooks after GroupLedger posted it."],
      ["entry_deleted", "singlePeriod", ["CR202602-384023"], null, "Entry CR202602-384023 (Northwind UK Ltd, February 2026) was deleted in QuickBooks after GroupLedger posted it."],
      ["entry_edited", "quickbooks", ["CR202603-384023"], url, "Entry CR202603-384023 (Northwind UK Ltd, March 2026) was edited in QuickBooks after GroupLedger posted it: 2 accounts differ from what was posted."],
      ["posting_stale", "singlePeriod", ["CR202604-384023"], null, "The books behind entry CR202604-384023 (Northwind UK Ltd, April 2026) changed after it was posted; post it again with the changes."],
      [
        "entry_edited",
        "eliminations",
        ["IE2026Q1"],
        null,
        "Entry IE2026Q1 (intercompany eliminations, January 2026 to June 2026) was edited in QuickBooks after GroupLedger posted it: 1 account differs from what was posted.",
      ],
    ]);
    expect(causes.find((c) => c.code === "entry_deleted" && c.realmId === "uk")?.months).toEqual(["2025-12"]);
  });

  it("says nothing of later months at the opening month itself", () => {
    expect(diagnoseVerify(facts({ month: "2025-12", entries: [], eliminationsFrom: "2025-06", adjustmentsFrom: "2025-06" }))).toEqual([]);
  });
});
