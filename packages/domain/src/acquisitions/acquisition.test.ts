import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { consolidate, parseConsolidationInput } from "../consolidation/consolidate.ts";
import { acquisitionFactor, acquisitionFigures, engineEquityAtAcquisition, nciShareOf, type AcquisitionFacts } from "./acquisition.ts";

const facts = (over: Partial<AcquisitionFacts> = {}): AcquisitionFacts => ({
  acquisitionMonth: "2023-01",
  ownership: "1",
  consideration: 1_000_000,
  nciMeasurement: "proportionateShare",
  nciFairValue: null,
  equity: [
    { account: "sc", local: -500_000 },
    { account: "re", local: -300_000 },
  ],
  fairValueAdjustments: [],
  ...over,
});

describe("acquisition figures", () => {
  it("a wholly owned subsidiary in the parent's currency: goodwill is what was paid above its equity", () => {
    expect(acquisitionFigures(facts(), null)).toEqual({ netAssets: 800_000, fairValueAdjustments: 0, nciAtAcquisition: 0, goodwill: 200_000 });
  });

  it("an 80% subsidiary: the NCI takes 20% of the net assets and goodwill is the parent's only", () => {
    const f = acquisitionFigures(facts({ ownership: "0.8", consideration: 700_000 }), null);
    expect(f.nciAtAcquisition).toBe(160_000);
    expect(f.goodwill).toBe(700_000 + 160_000 - 800_000);
  });

  it("NCI at fair value gives full goodwill", () => {
    const f = acquisitionFigures(facts({ ownership: "0.8", consideration: 700_000, nciMeasurement: "fairValue", nciFairValue: 190_000 }), null);
    expect(f).toEqual({ netAssets: 800_000, fairValueAdjustments: 0, nciAtAcquisition: 190_000, goodwill: 90_000 });
  });

  it("paying less than the net assets is a bargain purchase: negative goodwill", () => {
    expect(acquisitionFigures(facts({ consideration: 750_000 }), null).goodwill).toBe(-50_000);
  });

  it("fair-value uplifts add to the net assets acquired, so goodwill and a proportionate NCI move", () => {
    const f = acquisitionFigures(facts({ ownership: "0.75", consideration: 900_000, fairValueAdjustments: [{ amount: 100_000 }, { amount: -20_000 }] }), null);
    expect(f.fairValueAdjustments).toBe(80_000);
    expect(f.nciAtAcquisition).toBe(220_000); // 25% of 880,000
    expect(f.goodwill).toBe(900_000 + 220_000 - 880_000);
  });

  it("a foreign subsidiary's equity is translated line by line at the acquisition month's closing rate", () => {
    const factor = acquisitionFactor("1.23457", "GBP", "USD");
    const f = acquisitionFigures(facts({ equity: [{ account: "sc", local: -333_333 }, { account: "re", local: -111_111 }] }), factor);
    // 333,333 × 1.23457 = 411,522.92 → 411,523; 111,111 × 1.23457 = 137,174.31 → 137,174
    expect(f.netAssets).toBe(411_523 + 137_174);
  });

  it("a zero-decimal currency keeps its exponent", () => {
    const factor = acquisitionFactor("0.0067", "JPY", "USD");
    expect(acquisitionFigures(facts({ equity: [{ account: "sc", local: -1_000_000 }] }), factor).netAssets).toBe(670_000);
  });

  it("refuses to translate without a rate", () => {
    expect(() => acquisitionFactor(null, "EUR", "USD")).toThrow(/closing rate/);
    expect(acquisitionFactor(null, "USD", "USD")).toBeNull();
  });

  it("the NCI's share is exact", () => {
    expect(nciShareOf("0.8")).toEqual({ num: 2n, den: 10n });
    expect(nciShareOf("1")).toEqual({ num: 0n, den: 1n });
    expect(nciShareOf("0.625")).toEqual({ num: 375n, den: 1000n });
  });
});

describe("equity at acquisition as the engine states it", () => {
  const lines = [
    { account: "sc", local: -1_000_000, kind: "contributedCapital" as const },
    { account: "re", local: -250_000, kind: "retainedEarnings" as const },
    { account: "div", local: 50_000, kind: "dividends" as const },
  ];
  const factor = acquisitionFactor("1.25", "GBP", "USD");

  it("everything at the acquisition rate when no other translation is carried", () => {
    expect(engineEquityAtAcquisition(lines, factor, "re", () => undefined)).toEqual([
      { account: "sc", amount: -1_250_000 },
      { account: "re", amount: -250_000 },
    ]);
  });

  it("capital carried at another historical translation is stated at it, and retained earnings take the difference", () => {
    const out = engineEquityAtAcquisition(lines, factor, "re", (a) => (a === "sc" ? -1_208_300 : undefined));
    expect(out).toEqual([
      { account: "sc", amount: -1_208_300 },
      { account: "re", amount: -291_700 },
    ]);
    expect(out.reduce((s, l) => s + l.amount, 0)).toBe(-1_500_000); // the net assets do not move
  });

  it("a same-currency subsidiary's equity is taken as it is", () => {
    expect(engineEquityAtAcquisition(lines, null, "re", () => undefined)).toEqual([
      { account: "sc", amount: -1_000_000 },
      { account: "re", amount: -200_000 },
    ]);
  });
});

describe("the figures agree with the engine's investment elimination", () => {
  // Kaplan F2 Basil/Manuel (docs/examples): equity at acquisition stated, NCI at fair value.
  const input = JSON.parse(readFileSync(new URL("../../../../docs/examples/kaplan-f2-basil-manuel-foreign-nci.json", import.meta.url), "utf8"));
  const out = consolidate(parseConsolidationInput(input));
  const details = out.eliminations.find((e) => e.kind === "investment")!.details;

  it("goodwill, NCI and net assets at acquisition", () => {
    const rule = input.eliminations.investments[0];
    const f = acquisitionFigures(
      {
        acquisitionMonth: rule.acquisitionMonth,
        ownership: "0.8",
        consideration: Number(details["cost"]),
        nciMeasurement: "fairValue",
        nciFairValue: rule.nciFairValue,
        equity: rule.equityAtAcquisition.map((l: { account: string; amount: number }) => ({ account: l.account, local: l.amount })),
        fairValueAdjustments: [],
      },
      null, // the example states its equity at acquisition already translated
    );
    expect(f.netAssets).toBe(details["netAssetsAtAcquisition"]);
    expect(f.nciAtAcquisition).toBe(details["nciAtAcquisition"]);
    expect(f.goodwill).toBe(details["goodwillAtAcquisition"]);
  });
});
