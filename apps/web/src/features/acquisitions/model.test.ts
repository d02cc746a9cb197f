import { describe, expect, it } from "vitest";
import { RETAIL_ACQ, RETAIL_SAVED, UK_ACQ, UK_EQUITY_ACCOUNTS, UK_PROPOSAL, UK_PROPOSAL_FIGURES, UK_PROPOSAL_PUT } from "./components/acquisitionFixtures.ts";
import {
  buildInput,
  equityRowError,
  figureLines,
  formOf,
  formPath,
  newAdjustment,
  newOwnershipChange,
  parseDateText,
  placeErrors,
  unplacedErrors,
  whollyOwned,
  type AcquisitionForm,
  type FairValueRowForm,
} from "./model.ts";

const ukForm = (): AcquisitionForm => formOf(UK_PROPOSAL, UK_EQUITY_ACCOUNTS, "GBP", "USD");
const adjustment = (over: Partial<FairValueRowForm> = {}): FairValueRowForm => ({
  ...newAdjustment(),
  description: "Customer relationships",
  kind: "intangible",
  assetAccountId: "17",
  amount: "20,000",
  usefulLifeMonths: "60",
  expenseAccountId: "71",
  ...over,
});

describe("formOf: the acquisition as the user reads it", () => {
  it("prefills the proposal, equity credit positive, one row per equity account in the chart's order", () => {
    const form = ukForm();
    expect(form).toMatchObject({
      acquiredOn: "2023-01-31",
      ownershipPercent: "80",
      consideration: "150000.00",
      investmentAccountId: "15",
      nciMeasurement: "proportionateShare",
      nciFairValue: "",
      fairValueAdjustments: [],
    });
    expect(form.equityAtAcquisition.map((l) => [l.accountId, l.localAmount])).toEqual([
      ["60", "100000.00"],
      ["61", ""],
      ["62", "25000.00"],
    ]);
  });

  it("keeps a stated line whose account has left the chart, and reads fair values and adjustments back", () => {
    const body = {
      ...UK_PROPOSAL,
      nciMeasurement: "fairValue" as const,
      nciFairValue: 3_300_050,
      equityAtAcquisition: [...UK_PROPOSAL.equityAtAcquisition, { accountId: "69", name: "(account 69 is gone)", acctNum: null, localAmount: 12_345 }],
      fairValueAdjustments: [{ description: "Brand", kind: "intangible" as const, assetAccountId: "17", amount: -50_000, usefulLifeMonths: 120, expenseAccountId: "71" }],
    };
    const form = formOf(body, UK_EQUITY_ACCOUNTS, "GBP", "USD");
    expect(form.nciFairValue).toBe("33000.50");
    // A debit in equity (an accumulated loss) shows negative.
    expect(form.equityAtAcquisition[3]).toEqual({ accountId: "69", name: "(account 69 is gone)", acctNum: null, localAmount: "-123.45" });
    expect(form.fairValueAdjustments).toEqual([expect.objectContaining({ description: "Brand", amount: "-500.00", usefulLifeMonths: "120", assetAccountId: "17", expenseAccountId: "71" })]);
  });

  it("starts empty when nothing is proposed, with the company's ownership and blank equity rows", () => {
    const form = formOf(null, RETAIL_ACQ.equityAccounts, "USD", "USD", "100");
    expect(form).toEqual({
      acquiredOn: "",
      ownershipPercent: "100",
      consideration: "",
      investmentAccountId: null,
      nciMeasurement: "proportionateShare",
      nciFairValue: "",
      equityAtAcquisition: [
        { accountId: "80", name: "Common Stock", acctNum: null, localAmount: "" },
        { accountId: "81", name: "Retained Earnings", acctNum: null, localAmount: "" },
      ],
      fairValueAdjustments: [],
      ownershipChanges: [],
    });
  });

  it("writes each currency with its own decimals (JPY none, KWD three)", () => {
    const form = formOf({ ...UK_PROPOSAL, consideration: 1_234_567 }, UK_EQUITY_ACCOUNTS, "JPY", "KWD");
    expect(form.consideration).toBe("1234.567");
    expect(form.equityAtAcquisition[0]?.localAmount).toBe("10000000");
  });

  it("gives every new adjustment row its own key", () => {
    expect(newAdjustment().key).not.toBe(newAdjustment().key);
  });
});

describe("buildInput: the PUT body", () => {
  it("sends the confirmed proposal unchanged: minor units, equity debit positive, blank rows left out", () => {
    const built = buildInput(ukForm(), "GBP", "USD");
    expect(built.errors).toEqual({});
    expect(built.equityIndex).toEqual([0, 2]);
    expect(built.input).toEqual(UK_PROPOSAL_PUT);
  });

  it("round-trips what was saved", () => {
    const saved = RETAIL_SAVED.saved!;
    const { input } = buildInput(formOf(saved, RETAIL_SAVED.equityAccounts, "USD", "USD"), "USD", "USD");
    expect(input).toEqual({ ...saved, equityAtAcquisition: saved.equityAtAcquisition.map(({ accountId, localAmount }) => ({ accountId, localAmount })) });
  });

  it("sends later changes in ownership, their consideration in the parent's minor units, and puts the contract's messages on their row", () => {
    const form = { ...ukForm(), ownershipChanges: [{ ...newOwnershipChange(), effectiveOn: "2024-03-15", ownershipPercent: "90", consideration: "1,500,000.25", accountId: null }] };
    expect(buildInput(form, "GBP", "USD").input?.ownershipChanges).toEqual([{ effectiveOn: "2024-03-15", ownershipPercent: "90", consideration: 150_000_025, accountId: null }]);

    const early = { ...form, ownershipChanges: [{ ...form.ownershipChanges[0]!, effectiveOn: "2023-01-15" }, { ...newOwnershipChange(), effectiveOn: "2024-05-31", ownershipPercent: "90", consideration: "x", accountId: "15" }] };
    const { input, errors } = buildInput(early, "GBP", "USD");
    expect(input).toBeNull();
    expect(errors).toEqual({
      "ownershipChanges.0.effectiveOn": "A change in ownership comes in a month after the acquisition's.",
      "ownershipChanges.1.consideration": "Enter what was paid or received for the shares in USD with at most 2 decimal places, such as 1,234,567.89.",
      "ownershipChanges.1.ownershipPercent": "The share is already 90% then; a change moves it.",
    });
    expect(unplacedErrors(errors)).toEqual([]);
  });

  it("refuses changes in ownership together with fair-value adjustments, saying why", () => {
    const form = {
      ...ukForm(),
      fairValueAdjustments: [{ ...newAdjustment(), description: "Brand", assetAccountId: "17", amount: "100", usefulLifeMonths: "12", expenseAccountId: "71" }],
      ownershipChanges: [{ ...newOwnershipChange(), effectiveOn: "2024-03-15", ownershipPercent: "90", consideration: "10", accountId: null }],
    };
    expect(buildInput(form, "GBP", "USD").errors["ownershipChanges"]).toMatch(/^Changes in ownership of a subsidiary with fair-value adjustments are not supported yet/);
  });

  it("reads typed money exactly, with grouping, in each currency's minor unit", () => {
    const form = { ...ukForm(), consideration: " 1,234,567.89 " };
    form.equityAtAcquisition[0] = { ...form.equityAtAcquisition[0]!, localAmount: "0.07" };
    // An accumulated loss typed as a negative credit goes out as a debit.
    form.equityAtAcquisition[1] = { ...form.equityAtAcquisition[1]!, localAmount: "-10" };
    form.equityAtAcquisition[2] = { ...form.equityAtAcquisition[2]!, localAmount: "0" };
    const { input } = buildInput(form, "GBP", "USD");
    expect(input?.consideration).toBe(123_456_789);
    expect(input?.equityAtAcquisition).toEqual([
      { accountId: "60", localAmount: -7 },
      { accountId: "61", localAmount: 1_000 },
      { accountId: "62", localAmount: 0 },
    ]);
    expect(buildInput({ ...ukForm(), consideration: "1500000" }, "GBP", "JPY").input?.consideration).toBe(1_500_000);
  });

  it("sends the NCI's fair value only when measured at fair value, and no NCI choice at all when wholly owned", () => {
    const fair = buildInput({ ...ukForm(), nciMeasurement: "fairValue", nciFairValue: "33,000.50" }, "GBP", "USD");
    expect(fair.input).toMatchObject({ nciMeasurement: "fairValue", nciFairValue: 3_300_050 });
    expect(buildInput({ ...ukForm(), nciMeasurement: "proportionateShare", nciFairValue: "33,000.50" }, "GBP", "USD").input).toMatchObject({
      nciMeasurement: "proportionateShare",
      nciFairValue: null,
    });
    expect(buildInput({ ...ukForm(), ownershipPercent: "100", nciMeasurement: "fairValue", nciFairValue: "1" }, "GBP", "USD").input).toMatchObject({
      nciMeasurement: "proportionateShare",
      nciFairValue: null,
    });
    expect(buildInput({ ...ukForm(), nciMeasurement: "fairValue", nciFairValue: "" }, "GBP", "USD").errors).toEqual({
      nciFairValue: "Enter the NCI's fair value at acquisition in USD.",
    });
    expect(buildInput({ ...ukForm(), nciMeasurement: "fairValue", nciFairValue: "0" }, "GBP", "USD").errors).toEqual({ nciFairValue: "The NCI's fair value is more than zero." });
  });

  it("sends fair-value adjustments in the subsidiary's currency, uplift positive, in row order", () => {
    const form = { ...ukForm(), fairValueAdjustments: [adjustment(), adjustment({ description: " Stock uplift ", kind: "inventory", amount: "-1,500.5", usefulLifeMonths: "3", expenseAccountId: "72" })] };
    expect(buildInput(form, "GBP", "USD").input?.fairValueAdjustments).toEqual([
      { description: "Customer relationships", kind: "intangible", assetAccountId: "17", amount: 2_000_000, usefulLifeMonths: 60, expenseAccountId: "71" },
      { description: "Stock uplift", kind: "inventory", assetAccountId: "17", amount: -150_050, usefulLifeMonths: 3, expenseAccountId: "72" },
    ]);
  });

  it("finds every error the server would give, on the form's paths, with the contract's messages where it has them", () => {
    const form: AcquisitionForm = {
      ...ukForm(),
      acquiredOn: "2023-02-30",
      ownershipPercent: "120",
      consideration: "12.345",
      investmentAccountId: null,
      fairValueAdjustments: [
        adjustment({ description: " ", assetAccountId: null, amount: "", usefulLifeMonths: "", expenseAccountId: null }),
        adjustment({ amount: "0", usefulLifeMonths: "0.5" }),
        adjustment({ amount: "ten", usefulLifeMonths: "1201" }),
      ],
    };
    form.equityAtAcquisition[2] = { ...form.equityAtAcquisition[2]!, localAmount: "25,000.001" };
    const built = buildInput(form, "GBP", "USD");
    expect(built.input).toBeNull();
    expect(built.errors).toEqual({
      acquiredOn: "That date does not exist.",
      ownershipPercent: "Ownership must be more than 0 and at most 100.",
      consideration: "Enter the consideration the parent paid in USD with at most 2 decimal places, such as 1,234,567.89.",
      investmentAccountId: "Choose the parent's account that holds the investment.",
      "equityAtAcquisition.2.localAmount": "Enter the amount of Retained Earnings in GBP with at most 2 decimal places, such as 1,234,567.89.",
      "fairValueAdjustments.0.description": 'Describe the adjustment, e.g. "Customer relationships".',
      "fairValueAdjustments.0.assetAccountId": "Choose the parent's asset account the adjustment shows on.",
      "fairValueAdjustments.0.amount": "Enter the adjustment in GBP.",
      "fairValueAdjustments.0.usefulLifeMonths": "Give the adjustment's useful life in months (1 or more); inventory's is the months in which it is sold.",
      "fairValueAdjustments.0.expenseAccountId": "Choose the parent's expense account its amortisation goes to.",
      "fairValueAdjustments.1.amount": "An adjustment of zero changes nothing; remove it instead.",
      "fairValueAdjustments.1.usefulLifeMonths": "Give the useful life in whole months.",
      "fairValueAdjustments.2.amount": "Enter the adjustment in GBP with at most 2 decimal places, such as 1,234,567.89.",
      "fairValueAdjustments.2.usefulLifeMonths": "A useful life is at most 1200 months.",
    });
  });

  it("asks for the date and the equity when they are missing, and for a consideration above zero", () => {
    const form = { ...ukForm(), acquiredOn: "", consideration: "0", equityAtAcquisition: ukForm().equityAtAcquisition.map((l) => ({ ...l, localAmount: " " })) };
    expect(buildInput(form, "GBP", "USD").errors).toEqual({
      acquiredOn: "Give the date as YYYY-MM-DD, e.g. 2023-01-31.",
      consideration: "The consideration is what the parent paid, more than zero.",
      equityAtAcquisition: "Give the subsidiary's equity at acquisition.",
    });
    expect(buildInput({ ...ukForm(), consideration: "" }, "GBP", "JPY").errors).toEqual({ consideration: "Enter the consideration the parent paid in JPY." });
    expect(buildInput({ ...ukForm(), consideration: "1.5" }, "GBP", "JPY").errors).toEqual({ consideration: "Enter the consideration the parent paid in whole JPY, such as 1,234,567." });
  });
});

describe("errors from the server", () => {
  it("maps the body's equity line back to its row in the table (blank rows are not sent)", () => {
    expect(formPath("equityAtAcquisition.1.localAmount", [0, 2])).toBe("equityAtAcquisition.2.localAmount");
    expect(formPath("equityAtAcquisition.0", [1])).toBe("equityAtAcquisition.1");
    expect(formPath("equityAtAcquisition.5.accountId", [0, 2])).toBe("equityAtAcquisition.5.accountId");
    expect(formPath("equityAtAcquisition", [0])).toBe("equityAtAcquisition");
    expect(formPath("fairValueAdjustments.1.amount", [0, 2])).toBe("fairValueAdjustments.1.amount");
    expect(placeErrors({ "equityAtAcquisition.1.accountId": "Not equity.", acquiredOn: "In the future." }, [0, 2])).toEqual({
      "equityAtAcquisition.2.accountId": "Not equity.",
      acquiredOn: "In the future.",
    });
  });

  it("shows a row's error whichever path it came on, and lists the ones no input shows", () => {
    expect(equityRowError({ "equityAtAcquisition.1.accountId": "a" }, 1)).toBe("a");
    expect(equityRowError({ "equityAtAcquisition.1": "b", "equityAtAcquisition.1.localAmount": "c" }, 1)).toBe("c");
    expect(equityRowError({ "equityAtAcquisition.10": "d" }, 1)).toBeNull();
    expect(
      unplacedErrors({
        acquiredOn: "x",
        equityAtAcquisition: "y",
        "fairValueAdjustments.0.usefulLifeMonths": "z",
        "fairValueAdjustments.0": "row",
        realmId: "Unknown company.",
      }),
    ).toEqual(["row", "Unknown company."]);
  });
});

describe("whollyOwned and dates", () => {
  it("is wholly owned only at a valid 100", () => {
    expect(whollyOwned("100")).toBe(true);
    expect(whollyOwned(" 100.00 ")).toBe(true);
    expect(whollyOwned("99.9999")).toBe(false);
    expect(whollyOwned("1000")).toBe(false);
    expect(whollyOwned("")).toBe(false);
  });

  it("reads only real dates written YYYY-MM-DD, as written", () => {
    expect(parseDateText(" 2023-02-14 ")).toBe("2023-02-14");
    expect(parseDateText("2024-02-29")).toBe("2024-02-29");
    for (const bad of ["2023-02-30", "2023-02-29", "2023-2-14", "14/02/2023", "Feb 14, 2023", "2023-02", ""]) expect(parseDateText(bad)).toBeNull();
  });
});

describe("figureLines", () => {
  const lines = (f: Parameters<typeof figureLines>[0], currency = "GBP") => figureLines(f, currency, "USD", "en-US").map((l) => [l.label, l.value]);

  it("lists the month, the rate and the amounts in the parent's currency, ending with goodwill", () => {
    expect(lines(UK_ACQ.proposalFigures!)).toEqual(UK_PROPOSAL_FIGURES);
    expect(figureLines(UK_ACQ.proposalFigures!, "GBP", "USD", "en-US")[0]?.note).toBe("Takes effect at the month-end, Jan 31, 2023.");
  });

  it("calls a negative goodwill a bargain purchase gain, with the positive amount", () => {
    const result = figureLines(RETAIL_SAVED.savedFigures!, "USD", "USD", "en-US");
    expect(result.at(-1)).toMatchObject({ label: "Bargain purchase gain", value: "$5,000.00", result: true });
    expect(result.map((l) => l.label)).not.toContain("Goodwill");
    expect(result[1]).toMatchObject({ label: "Closing rate", value: "1", note: "USD books: no translation." });
    // Zero goodwill is goodwill, not a gain.
    expect(lines({ ...RETAIL_SAVED.savedFigures!, goodwill: 0 }, "USD").at(-1)).toEqual(["Goodwill", "$0.00"]);
  });

  it("says the closing rate is missing and shows no amounts without it", () => {
    const missing = { acquisitionMonth: "2023-01", closingRate: null, netAssets: null, fairValueAdjustments: null, nciAtAcquisition: null, goodwill: null };
    const result = figureLines(missing, "GBP", "USD", "en-US");
    expect(result[1]).toEqual({ label: "Closing rate", value: "Missing", note: "Enter the GBP closing rate for Jan 2023 on FOREX Management; the figures need it." });
    expect(result.slice(2).map((l) => l.value)).toEqual(["—", "—", "—", "—"]);
  });
});
