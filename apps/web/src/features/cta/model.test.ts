import { RATE_MESSAGE } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import { CA_CTA, CTA_SETTINGS, PARENT_ACCOUNTS, UK_CTA, UK_TEMPORAL } from "./components/ctaFixtures.ts";
import {
  canCreateDefaultAccount,
  ctaAccountOptions,
  formOf,
  historicalRows,
  isDirty,
  minorToInput,
  nciPercent,
  parseAmount,
  rowError,
  translationOf,
  unplacedErrors,
  updateBody,
  validate,
  withoutRowErrors,
  type EquityRowForm,
} from "./model.ts";

const row = (over: Partial<EquityRowForm>): EquityRowForm => ({ accountId: "60", name: "Ordinary Shares", acctNum: null, localAmount: -10_000_000, mode: "rate", rate: "", amount: "", ...over });

describe("translationOf: local × rate, exact, rounded half away from zero to the parent's minor unit", () => {
  it("translates a credit balance at a historical rate", () => {
    expect(translationOf(row({ rate: "1.2650" }), "GBP", "USD")).toEqual({ kind: "translated", amount: -12_650_000, rate: "1.265" });
  });
  it("rounds half a cent away from zero, on both sides, with no binary-fraction error", () => {
    // 0.05 GBP × 1.25 = 0.0625 USD → 0.06; 0.10 × 1.125 = 0.1125 → 0.11; 0.02 × 1.25 = 0.025 → 0.03 (half away).
    expect(translationOf(row({ localAmount: 2, rate: "1.25" }), "GBP", "USD")).toMatchObject({ amount: 3 });
    expect(translationOf(row({ localAmount: -2, rate: "1.25" }), "GBP", "USD")).toMatchObject({ amount: -3 });
    // 1.005 would be 1.00 in floating point (1.005 × 100 = 100.49999…); exactly it is 1.01.
    expect(translationOf(row({ localAmount: 100, rate: "1.005" }), "GBP", "USD")).toMatchObject({ amount: 101 });
  });
  it("moves between currencies of different exponents (JPY has none, KWD three)", () => {
    expect(translationOf(row({ localAmount: -1_000_000, rate: "0.0067" }), "JPY", "USD")).toMatchObject({ amount: -670_000 });
    expect(translationOf(row({ localAmount: 1_234, rate: "3.25" }), "KWD", "USD")).toMatchObject({ amount: 401 });
  });
  it("says nothing without a rate or a synced balance, and refuses a bad rate with the domain's message", () => {
    expect(translationOf(row({ rate: "  " }), "GBP", "USD")).toEqual({ kind: "none" });
    expect(translationOf(row({ rate: "1.2", localAmount: null }), "GBP", "USD")).toEqual({ kind: "none" });
    for (const bad of ["-1", "0", "1,25", "1e3", "abc", "1.12345678901"]) {
      expect(translationOf(row({ rate: bad }), "GBP", "USD")).toEqual({ kind: "error", message: RATE_MESSAGE });
    }
  });
  it("takes a translated amount as typed, on the balance's side", () => {
    expect(translationOf(row({ mode: "amount", amount: "126,500.00" }), "GBP", "USD")).toEqual({ kind: "translated", amount: -12_650_000, rate: null });
    expect(translationOf(row({ mode: "amount", amount: "-10" }), "GBP", "USD")).toMatchObject({ amount: 1_000 });
    expect(translationOf(row({ mode: "amount", amount: "10", localAmount: 500 }), "GBP", "USD")).toMatchObject({ amount: 1_000 });
    expect(translationOf(row({ mode: "amount", amount: "0" }), "GBP", "USD")).toMatchObject({ amount: 0 });
    expect(translationOf(row({ mode: "amount", amount: "1.234" }), "GBP", "USD")).toEqual({
      kind: "error",
      message: "Enter the translated amount in USD with at most 2 decimal places, such as 126500.00.",
    });
    expect(translationOf(row({ mode: "amount", amount: "12.5" }), "GBP", "JPY")).toMatchObject({ kind: "error", message: "Enter the translated amount in whole JPY, such as 126500." });
  });
});

describe("parseAmount and minorToInput", () => {
  it("reads money text exactly and writes it back", () => {
    expect(parseAmount("126,500.5", 2)).toBe(12_650_050);
    expect(parseAmount(" 0.07 ", 2)).toBe(7);
    expect(parseAmount("-3", 0)).toBe(-3);
    expect(parseAmount("-0", 2)).toBe(0);
    for (const bad of ["", "1.2.3", "12a", "1e5", "$5", "9".repeat(16)]) expect(parseAmount(bad, 2)).toBeNull();
    expect(minorToInput(12_650_050, 2)).toBe("126500.50");
    expect(minorToInput(-7, 2)).toBe("-0.07");
    expect(minorToInput(1_234, 3)).toBe("1.234");
    expect(minorToInput(500, 0)).toBe("500");
  });
});

describe("the form and what it sends", () => {
  it("starts from the saved settings: a stored amount shows as a positive figure on the balance's side", () => {
    const form = formOf(CA_CTA, "USD");
    expect(form).toMatchObject({ ownershipPercent: "80", dividendRatePolicy: "profitPeriod" });
    expect(form.rows[0]).toMatchObject({ mode: "amount", amount: "37125.00", rate: "" });
    expect(formOf(UK_CTA, "USD").rows.map((r) => r.mode)).toEqual(["rate", "rate"]);
  });

  it("sends every field, one of rate or amount per row (the other cleared), in table order", () => {
    const form = formOf(UK_CTA, "USD");
    form.ownershipPercent = " 62.5 ";
    form.rows[0] = { ...form.rows[0]!, rate: "01.2650" };
    form.rows[1] = { ...form.rows[1]!, mode: "amount", amount: "1,000" };
    // Never the CTA account: it is the group's, chosen once for every subsidiary.
    expect(updateBody(form, "USD")).toEqual({
      ownershipPercent: "62.5",
      dividendRatePolicy: "declarationDate",
      translationMethod: "currentRate",
      historical: [
        { accountId: "60", historicalRate: "1.265", historicalAmount: null },
        { accountId: "61", historicalRate: "", historicalAmount: -100_000 },
      ],
    });
    // Round trip: what was saved comes back as the same body.
    expect(updateBody(formOf(CA_CTA, "USD"), "USD").historical).toEqual([{ accountId: "70", historicalRate: "", historicalAmount: -3_712_500 }]);
  });

  it("is dirty only when what would be sent changes", () => {
    const saved = formOf(UK_CTA, "USD");
    expect(isDirty({ ...saved, ownershipPercent: "100 " }, saved, "USD")).toBe(false);
    expect(isDirty({ ...saved, ownershipPercent: "80" }, saved, "USD")).toBe(true);
    expect(isDirty({ ...saved, rows: saved.rows.map((r) => ({ ...r, rate: "1.0" })) }, { ...saved, rows: saved.rows.map((r) => ({ ...r, rate: "1" })) }, "USD")).toBe(false);
  });

  it("validates with the contract's ownership rule and the domain's rate rule, keyed like the server's field paths", () => {
    const form = formOf(UK_CTA, "USD");
    form.ownershipPercent = "120";
    form.rows[0] = { ...form.rows[0]!, rate: "-1" };
    form.rows[1] = { ...form.rows[1]!, mode: "amount", amount: "ten" };
    const errors = validate(form, "GBP", "USD");
    expect(errors).toEqual({
      ownershipPercent: "Ownership must be more than 0 and at most 100.",
      "historical.0.historicalRate": RATE_MESSAGE,
      "historical.1.historicalAmount": "Enter the translated amount in USD with at most 2 decimal places, such as 126500.00.",
    });
    expect(validate({ ...form, ownershipPercent: "eighty", rows: [] }, "GBP", "USD")).toEqual({ ownershipPercent: "Ownership is a percentage such as 80 or 62.5." });
    expect(validate(formOf(CA_CTA, "USD"), "CAD", "USD")).toEqual({});
  });

  it("places server errors on their row, and lists the ones no input shows", () => {
    const server = { "historical.2": "Give a historical rate or a translated amount, not both.", "historical.1.accountId": "Account 61 is not a contributed-equity account.", weird: "Something else." };
    expect(rowError(server, 2, "rate")).toBe("Give a historical rate or a translated amount, not both.");
    expect(rowError(server, 1, "amount")).toBe("Account 61 is not a contributed-equity account.");
    expect(rowError(server, 0, "rate")).toBeNull();
    expect(unplacedErrors({ ...server, ownershipPercent: "y" })).toEqual(["Something else."]);
  });
});

describe("the translation method", () => {
  it("starts from the saved method, with the non-monetary accounts the server lists under temporal", () => {
    expect(formOf(UK_CTA, "USD")).toMatchObject({ translationMethod: "currentRate", nonMonetaryRows: [] });
    const form = formOf(UK_TEMPORAL, "USD");
    expect(form.translationMethod).toBe("temporal");
    expect(form.nonMonetaryRows.map((r) => [r.accountId, r.mode, r.rate, r.amount])).toEqual([
      ["12", "rate", "1.31", ""],
      ["15", "rate", "", ""],
    ]);
  });

  it("sends the non-monetary rows after the equity rows in `historical` under temporal, and none under the current rate", () => {
    const form = formOf(UK_TEMPORAL, "USD");
    // A debit balance (plant) entered by amount stays a debit.
    form.nonMonetaryRows[1] = { ...form.nonMonetaryRows[1]!, mode: "amount", amount: "10,400" };
    expect(historicalRows(form).map((r) => r.accountId)).toEqual(["60", "61", "12", "15"]);
    expect(updateBody(form, "USD")).toMatchObject({
      translationMethod: "temporal",
      historical: [
        { accountId: "60", historicalRate: "", historicalAmount: null },
        { accountId: "61", historicalRate: "", historicalAmount: null },
        { accountId: "12", historicalRate: "1.31", historicalAmount: null },
        { accountId: "15", historicalRate: "", historicalAmount: 1_040_000 },
      ],
    });
    const current = { ...form, translationMethod: "currentRate" as const };
    expect(historicalRows(current).map((r) => r.accountId)).toEqual(["60", "61"]);
    expect(updateBody(current, "USD")).toMatchObject({ translationMethod: "currentRate", historical: [{ accountId: "60" }, { accountId: "61" }] });
  });

  it("is dirty when the method changes, and validates non-monetary rows at their place in `historical`", () => {
    const saved = formOf(UK_CTA, "USD");
    expect(isDirty({ ...saved, translationMethod: "temporal" }, saved, "USD")).toBe(true);
    const form = formOf(UK_TEMPORAL, "USD");
    form.nonMonetaryRows[1] = { ...form.nonMonetaryRows[1]!, rate: "abc" };
    expect(validate(form, "GBP", "USD")).toEqual({ "historical.3.historicalRate": RATE_MESSAGE });
    // Under the current rate those rows are not sent, so not checked either.
    expect(validate({ ...form, translationMethod: "currentRate" }, "GBP", "USD")).toEqual({});
    expect(unplacedErrors({ translationMethod: "translationMethod is currentRate or temporal." })).toEqual([]);
  });

  it("drops exactly one row's errors when it is edited", () => {
    const errors = { "historical.1": "a", "historical.1.historicalRate": "b", "historical.10.historicalRate": "c", ownershipPercent: "d" };
    expect(withoutRowErrors(errors, 1)).toEqual({ "historical.10.historicalRate": "c", ownershipPercent: "d" });
  });
});

describe("ctaAccountOptions", () => {
  it("puts suggestions first with their reason, then other equity; refusals disabled with the domain's reason; no other classification", () => {
    const options = ctaAccountOptions(PARENT_ACCOUNTS, CTA_SETTINGS.ctaAccountSuggestions);
    expect(options.map((o) => [o.label, o.disabled, o.suggested])).toEqual([
      ["3600 · Accumulated Other Comprehensive Income", false, true],
      ["3900 · General Reserve", false, false],
      ["3000 · Common Stock", true, false],
      ["3300 · Retained Earnings", true, false],
      ["3500 · Treasury Stock", true, false],
      ["3700 · Revaluation Reserve", true, false],
      ["3800 · Other Reserves", true, false],
    ]);
    expect(options[0]?.note).toBe(CTA_SETTINGS.ctaAccountSuggestions[0]?.reason);
    expect(options.find((o) => o.value === "30")?.note).toBe('"Common Stock" holds contributed capital; keep CTA in a separate equity account.');
    expect(options.find((o) => o.value === "37")?.note).toBe('"Revaluation Reserve" is inactive in QuickBooks.');
  });

  it("offers to create the default account only while the parent has none of that name", () => {
    expect(canCreateDefaultAccount(PARENT_ACCOUNTS)).toBe(true);
    expect(canCreateDefaultAccount([...PARENT_ACCOUNTS, { ...PARENT_ACCOUNTS[1]!, Id: "99", name: "ACCUMULATED OCI – TRANSLATION" }])).toBe(false);
  });
});

describe("nciPercent", () => {
  it("is 100 − ownership, exactly", () => {
    expect(nciPercent("80")).toBe("20");
    expect(nciPercent("62.5")).toBe("37.5");
    expect(nciPercent("99.9999")).toBe("0.0001");
    expect(nciPercent("100")).toBe("0");
    expect(nciPercent("0")).toBeNull();
    expect(nciPercent("abc")).toBeNull();
  });
});
