import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { carryInvestmentAt, groupArb } from "../../test/arbitraries.ts";
import { columnsSumToZero, eliminationsBalance, nciSumOfParts } from "../../test/engine.ts";
import { parseMonth, formatMonth } from "../periods/month.ts";
import { consolidate, parseConsolidationInput } from "./consolidate.ts";
import type { ConsolidationInputJson } from "./input-schema.ts";
import type { ConsolidationOutput } from "./output-schema.ts";

const run = (input: ConsolidationInputJson): ConsolidationOutput => consolidate(parseConsolidationInput(input));
const RUNS = { numRuns: 150 };

describe("consolidation properties (random groups)", () => {
  it("every entity's translated trial balance balances to the minor unit, and so does every worksheet column", () => {
    fc.assert(
      fc.property(groupArb(), ({ input }) => {
        const out = run(input);
        for (const e of out.entities) expect(e.lines.reduce((s, l) => s + l.translated, 0), e.id).toBe(0);
        columnsSumToZero(out);
      }),
      RUNS,
    );
  });

  it("consolidated assets = liabilities + equity + NCI", () => {
    fc.assert(
      fc.property(groupArb(), ({ input }) => {
        const bs = run(input).balanceSheet;
        expect(bs.totalAssets).toBe(bs.totalLiabilities + bs.totalEquity + bs.nonControllingInterests);
        expect(bs.balanced).toBe(true);
      }),
      RUNS,
    );
  });

  it("the CTA breakdown adds up to the CTA change, and what it calls rounding is only rounding", () => {
    fc.assert(
      fc.property(groupArb(), ({ input }) => {
        for (const e of run(input).entities) {
          if (e.method !== "currentRate") continue;
          let change = 0;
          for (const m of e.ctaExplanation.months) {
            expect(m.openingNetAssets + m.netIncome + m.dividends + m.equityMovements + m.rounding).toBe(m.change);
            // Half a minor unit per balance-sheet line at each of the two month-ends, plus the
            // roundings of the four parts themselves.
            const balanceSheetLines = e.lines.filter((l) => l.basis === "closing").length;
            expect(Math.abs(m.rounding)).toBeLessThanOrEqual(balanceSheetLines + 4);
            change += m.change;
          }
          expect(change).toBe(e.cta.change);
          expect(e.cta.opening + e.cta.change).toBe(e.cta.closing);
        }
      }),
      RUNS,
    );
  });

  it("translating a range gives, for P&L lines, exactly the sum of its months translated one by one", () => {
    fc.assert(
      fc.property(groupArb({ maxMonths: 4 }), ({ input, months }) => {
        fc.pre(months >= 3);
        const range = run(input);
        const first = parseMonth(formatMonth(parseMonth("2023-12") + 1));
        const monthly = Array.from({ length: months - 1 }, (_, k) => run({ ...input, period: { month: formatMonth(first + k) } }));
        for (const e of range.entities) {
          e.lines.forEach((line, i) => {
            if (line.classification !== "Revenue" && line.classification !== "Expense") return;
            const sum = monthly.reduce((s, out) => s + out.entities.find((x) => x.id === e.id)!.lines[i]!.translated, 0);
            expect(line.translated, `${e.id} ${line.account ?? line.special}`).toBe(sum);
          });
          const ni = monthly.reduce((s, out) => s + out.entities.find((x) => x.id === e.id)!.netIncome.translated, 0);
          expect(e.netIncome.translated).toBe(ni);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("eliminating a matched pair removes both sides entirely and books exactly their difference", () => {
    fc.assert(
      fc.property(groupArb(), fc.constantFrom("fx", "cta"), fc.boolean(), ({ input }, differenceTo, balancePair) => {
        const base: ConsolidationInputJson = { ...input, eliminations: { ...input.eliminations, intercompany: [] } };
        const sub = base.entities.find((e) => e.role === "subsidiary")!.id;
        const [leftAccount, rightAccount] = balancePair ? ["ic-receivable", "ic-payable"] : ["ic-sales", "ic-costs"];
        const without = run(base);
        const withPair = run({
          ...base,
          eliminations: {
            ...base.eliminations,
            intercompany: [{ id: "pair", kind: balancePair ? "receivablePayable" : "revenueExpense", left: { entity: sub, account: leftAccount }, right: { entity: "p", account: rightAccount }, differenceTo }],
          },
        });
        const value = (out: ConsolidationOutput, account: string) => out.worksheet.rows.find((r) => r.account === account)!.amounts.at(-1)!;
        const left = withPair.entities.find((e) => e.id === sub)!.lines.find((l) => l.account === leftAccount)!.translated;
        const right = withPair.entities.find((e) => e.id === "p")!.lines.find((l) => l.account === rightAccount)!.translated;
        // Each side's whole translated amount leaves the consolidated figures...
        expect(value(withPair, leftAccount)).toBe(value(without, leftAccount) - left);
        expect(value(withPair, rightAccount)).toBe(value(without, rightAccount) - right);
        // ...and only their difference remains, visibly, on the chosen account.
        expect(withPair.eliminations.find((e) => e.id === "pair")!.details.difference).toBe(left + right);
        expect(value(withPair, differenceTo)).toBe(value(without, differenceTo) + left + right);
        expect(withPair.balanceSheet.balanced).toBe(true);
      }),
      RUNS,
    );
  });
});

/**
 * The same random groups with every investment's NCI measured at a random fair value (or left
 * proportionate) and random goodwill impairments before and within the period.
 */
const IMPAIRMENT_ACCOUNT = { id: "gw-impairment", name: "Goodwill impairment", classification: "Expense" as const };
function withGoodwillChoices(): fc.Arbitrary<{ input: ConsolidationInputJson; months: number; impaired: ConsolidationInputJson }> {
  return groupArb().chain(({ input, months }) =>
    fc
      .array(
        fc.record({
          fairValue: fc.boolean(),
          nciFairValue: fc.integer({ min: 1, max: 5_000_000_000 }),
          impairments: fc.array(fc.record({ t: fc.integer({ min: 1, max: months - 1 }), amount: fc.integer({ min: 1, max: 3_000_000 }) }), { maxLength: 3 }),
          fairValueAdjustments: fc.array(
            fc.record({
              amount: fc.integer({ min: -2_000_000, max: 2_000_000 }).filter((n) => n !== 0),
              life: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constant("indefinite" as const)),
            }),
            { maxLength: 2 },
          ),
        }),
        { minLength: 3, maxLength: 3 },
      )
      .map((choices) => {
        const base = structuredClone(input);
        base.entities[0]!.accounts.push(IMPAIRMENT_ACCOUNT);
        base.designatedAccounts.goodwillImpairment = IMPAIRMENT_ACCOUNT.id;
        base.eliminations!.investments!.forEach((inv, k) => {
          const c = choices[k]!;
          const sub = base.entities.find((e) => e.id === inv.subsidiary)!;
          if (c.fairValue && sub.ownership !== "1") Object.assign(inv, { nciMeasurement: "fairValue", nciFairValue: c.nciFairValue });
          // Fair-value adjustments on the parent's stock row, released to its costs.
          inv.fairValueAdjustments = c.fairValueAdjustments.map(({ amount, life }, j) => ({ id: `fv${j}`, kind: "ppe", assetAccount: "stock", amount, usefulLifeMonths: life, expenseAccount: "costs" }));
        });
        const impaired = structuredClone(base);
        impaired.eliminations!.investments!.forEach((inv, k) => {
          // Month 0 is the acquisition (the opening month); losses fall in months 1 … months − 1.
          inv.goodwillImpairments = choices[k]!.impairments.map(({ t, amount }) => ({ month: formatMonth(parseMonth("2023-12") + t), amount }));
        });
        return { input: base, months, impaired };
      }),
  );
}

/** Checks a property of the engine's output on random groups with goodwill choices (withGoodwillChoices), impaired. */
const forImpairedGroups = (property: (out: ConsolidationOutput, impaired: ConsolidationInputJson) => void) =>
  fc.assert(
    fc.property(withGoodwillChoices(), ({ impaired }) => property(run(impaired), impaired)),
    RUNS,
  );

describe("consolidation properties with NCI at fair value, goodwill impairment and fair-value adjustments (random groups)", () => {
  it("still balances: every column sums to zero and assets = liabilities + equity + NCI", () => {
    forImpairedGroups((out) => {
      columnsSumToZero(out);
      eliminationsBalance(out);
      const bs = out.balanceSheet;
      expect(bs.totalAssets).toBe(bs.totalLiabilities + bs.totalEquity + bs.nonControllingInterests);
    });
  });

  it("each subsidiary's NCI is the sum of its parts, and they add up to the balance sheet's NCI", () => {
    forImpairedGroups((out) => {
      let total = 0;
      for (const n of out.nci) {
        expect(n.closing).toBe(nciSumOfParts(n));
        total += n.closing;
      }
      expect(out.balanceSheet.nonControllingInterests).toBe(total);
      expect(out.incomeStatement.attributableToNci).toBe(out.nci.reduce((s, n) => s + n.netIncome, 0));
    });
  });

  it("goodwill on the balance sheet is each investment's carrying amount, and the period's losses are the impairment expense", () => {
    forImpairedGroups((out, impaired) => {
      const value = (account: string) => out.worksheet.rows.find((r) => r.account === account)!.amounts.at(-1)!;
      const investments = out.eliminations.filter((e) => e.kind === "investment");
      expect(value("goodwill")).toBe(investments.reduce((s, e) => s + (e.details.goodwillCarryingAmount as number), 0));
      expect(value(IMPAIRMENT_ACCOUNT.id)).toBe(investments.reduce((s, e) => s + (e.details.goodwillImpairmentInPeriod as number), 0));
      for (const e of investments) {
        const d = e.details;
        if (d.goodwillLocal === undefined) {
          expect(d.goodwillCarryingAmount).toBe((d.goodwillAtAcquisition as number) - (d.goodwillImpairmentBeforePeriod as number) - (d.goodwillImpairmentInPeriod as number));
        } else {
          // A foreign operation's goodwill is its remaining local amount at the closing rate.
          const sub = impaired.entities.find((x) => x.id === impaired.eliminations!.investments!.find((i) => i.id === e.id)!.subsidiary)!;
          const closing = Number(impaired.rates![sub.currency]![out.period.to]!.closing);
          const local = (d.goodwillLocal as number) - (d.goodwillImpairedLocal as number);
          const exponentShift = { JPY: 2, KWD: -1 }[sub.currency as "JPY" | "KWD"] ?? 0;
          expect(Math.abs((d.goodwillCarryingAmount as number) - local * closing * 10 ** exponentShift)).toBeLessThanOrEqual(0.5 + 1e-6 * Math.abs(local * closing * 10 ** exponentShift));
        }
      }
    });
  });

  it("each fair-value adjustment is what it was at acquisition, less its releases, plus its exchange difference; the period's release is the expense", () => {
    forImpairedGroups((out) => {
      let released = 0;
      for (const e of out.eliminations.filter((x) => x.kind === "investment" && x.details.fairValueCarryingAmount !== undefined)) {
        const n = (key: string) => (e.details[key] as number | undefined) ?? 0;
        expect(n("fairValueCarryingAmount")).toBe(n("fairValueAdjustmentsAtAcquisition") - n("fairValueReleasedBeforePeriod") - n("fairValueReleasedInPeriod") + n("ctaOnFairValueAdjustmentsCreditPositive"));
        released += n("fairValueReleasedInPeriod");
      }
      const costs = (o: ConsolidationOutput) => o.worksheet.rows.find((r) => r.account === "costs")!;
      const beforeEliminations = costs(out).amounts.slice(0, -3).reduce((s, x) => s + x, 0);
      expect(costs(out).amounts.at(-3)).toBe(released);
      expect(costs(out).amounts.at(-1)).toBe(beforeEliminations + released);
    });
  });

  it("impairment moves the NCI only when it was measured at fair value, and then by its ownership share", () => {
    fc.assert(
      fc.property(withGoodwillChoices(), ({ input, impaired }) => {
        const before = run(input);
        const after = run(impaired);
        for (const e of after.eliminations.filter((x) => x.kind === "investment")) {
          const d = e.details;
          const inv = impaired.eliminations!.investments!.find((i) => i.id === e.id)!;
          const nciBefore = before.nci.find((n) => n.entity === inv.subsidiary);
          const nciAfter = after.nci.find((n) => n.entity === inv.subsidiary);
          if (!nciBefore || !nciAfter) continue;
          if (d.nciMeasurement === "proportionateShare") {
            expect(nciAfter).toEqual(nciBefore);
            continue;
          }
          // At fair value the NCI bears its share of the losses (each share rounded to the
          // minor unit) and its share of the changed exchange difference on goodwill.
          const share = 1 - Number(impaired.entities.find((x) => x.id === inv.subsidiary)!.ownership);
          const losses = (d.goodwillImpairmentBeforePeriod as number) + (d.goodwillImpairmentInPeriod as number);
          const ctaChange = nciAfter.goodwillCta - nciBefore.goodwillCta;
          expect(Math.abs(nciBefore.closing - nciAfter.closing + ctaChange - share * losses)).toBeLessThanOrEqual(2);
        }
      }),
      RUNS,
    );
  });
});

/**
 * The same random groups with random unrealised profit in inventory (between any two entities,
 * held at the start and/or the end), dividend eliminations with whatever the parent booked, and
 * manual entries attributed to subsidiaries (profit-or-loss or retained-earnings lines).
 */
function withGroupAdjustments(): fc.Arbitrary<{ input: ConsolidationInputJson; adjusted: ConsolidationInputJson }> {
  const held = fc.record({ inventory: fc.integer({ min: 0, max: 2_000_000 }), fraction: fc.integer({ min: 0, max: 9_999 }), markup: fc.boolean() });
  return groupArb().chain(({ input }) =>
    fc
      .record({
        urps: fc.array(fc.record({ seller: fc.nat(), buyer: fc.nat(), closing: fc.option(held), opening: fc.option(held) }), { maxLength: 4 }),
        dividends: fc.array(fc.record({ sub: fc.nat(), parentAmount: fc.integer({ min: 1, max: 1_000_000 }) }), { maxLength: 3 }),
        manual: fc.array(fc.record({ sub: fc.nat(), amount: fc.integer({ min: -500_000, max: 500_000 }), equity: fc.boolean() }), { maxLength: 3 }),
      })
      .map(({ urps, dividends, manual }) => {
        const ids = input.entities.map((e) => e.id);
        const subs = ids.filter((id) => id !== "p");
        const heldInput = (h: { inventory: number; fraction: number; markup: boolean }) => {
          const text = `0.${String(h.fraction).padStart(4, "0")}`;
          return h.markup ? { inventory: h.inventory, markup: text } : { inventory: h.inventory, margin: text };
        };
        const adjusted = structuredClone(input);
        adjusted.eliminations!.unrealisedProfit = urps.flatMap((u, k) => {
          const seller = ids[u.seller % ids.length]!;
          const buyer = ids[(u.seller + 1 + (u.buyer % (ids.length - 1))) % ids.length]!;
          if (!u.closing && !u.opening) return [];
          return [{ id: `urp${k}`, seller, buyer, inventoryAccount: "stock", cogsAccount: "costs", ...(u.closing ? { closing: heldInput(u.closing) } : {}), ...(u.opening ? { opening: heldInput(u.opening) } : {}) }];
        });
        const seen = new Set<string>();
        adjusted.eliminations!.dividends = dividends.flatMap((d, k) => {
          const subsidiary = subs[d.sub % subs.length]!;
          if (seen.has(subsidiary)) return [];
          seen.add(subsidiary);
          return [{ id: `div${k}`, subsidiary, incomeAccount: "sales", parentAmount: d.parentAmount }];
        });
        adjusted.eliminations!.manual = manual.map((m, k) => ({
          id: `m${k}`,
          lines: [{ account: m.equity ? "re" : "costs", amount: m.amount }, { account: "cash", amount: -m.amount }],
          attributeTo: { subsidiary: subs[m.sub % subs.length]! },
        }));
        return { input, adjusted };
      }),
  );
}
const sumOf = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
const roundHalfAway = (num: bigint, den: bigint) => {
  const q = num / den;
  const r = num % den;
  if ((r < 0n ? -r : r) * 2n >= den) return Number(num < 0n ? q - 1n : q + 1n);
  return Number(q);
};

describe("consolidation properties with unrealised profit, dividends and attributed manual entries (random groups)", () => {
  it("the NCI schedule is the sum of its parts and equals the balance sheet's NCI; total equity + NCI = net assets", () => {
    fc.assert(
      fc.property(withGroupAdjustments(), ({ adjusted }) => {
        const out = run(adjusted);
        columnsSumToZero(out);
        eliminationsBalance(out);
        for (const n of out.nci) {
          expect(n.closing).toBe(nciSumOfParts(n));
          // The NCI's share of profit is its share of the adjusted profit, rounded once.
          const share = BigInt(Math.round((1 - Number(adjusted.entities.find((e) => e.id === n.entity)!.ownership)) * 100));
          expect(n.netIncome).toBe(roundHalfAway(BigInt(n.adjustedProfit!) * share, 100n));
        }
        const bs = out.balanceSheet;
        expect(bs.nonControllingInterests).toBe(sumOf(out.nci.map((n) => n.closing)));
        expect(out.incomeStatement.attributableToNci).toBe(sumOf(out.nci.map((n) => n.netIncome)));
        expect(bs.totalEquity + bs.nonControllingInterests).toBe(bs.totalAssets - bs.totalLiabilities);
        expect(bs.balanced).toBe(true);
      }),
      RUNS,
    );
  });

  it("unrealised profit moves consolidated profit by exactly the realised less the eliminated, and net assets by the inventory removed", () => {
    fc.assert(
      fc.property(withGroupAdjustments(), ({ input, adjusted }) => {
        const onlyUrp = structuredClone(input);
        onlyUrp.eliminations!.unrealisedProfit = adjusted.eliminations!.unrealisedProfit;
        const before = run(input);
        const after = run(onlyUrp);
        const urps = after.eliminations.filter((e) => e.kind === "unrealisedProfit");
        const detail = (key: string) => sumOf(urps.map((e) => (e.details[key] as number | undefined) ?? 0));
        expect(after.incomeStatement.netIncome - before.incomeStatement.netIncome).toBe(detail("openingProfitRealised") - detail("closingProfitEliminated"));
        const netAssets = (o: ConsolidationOutput) => o.balanceSheet.totalAssets - o.balanceSheet.totalLiabilities;
        expect(netAssets(after) - netAssets(before) + detail("closingInventoryReduction")).toBe(0);
        // Downstream eliminations never touch the NCI's share of profit.
        for (const n of after.nci) {
          const sold = urps.some((e) => e.details.seller === n.entity);
          if (!sold) expect(n.netIncome).toBe(before.nci.find((x) => x.entity === n.entity)!.netIncome);
        }
      }),
      RUNS,
    );
  });

  it("an acquisition at book value, wholly owned, with no trade within the group leaves exactly the parent's equity plus the post-acquisition results", () => {
    fc.assert(
      fc.property(groupArb(), ({ input }) => {
        const base = structuredClone(input);
        base.eliminations!.intercompany = [];
        for (const e of base.entities) if (e.role === "subsidiary") e.ownership = "1";
        base.eliminations!.investments = base.entities.filter((e) => e.role === "subsidiary").map((e) => ({ id: `inv-${e.id}`, subsidiary: e.id, investmentAccount: "investment", cost: 10_000_000_000 }));
        // The cost is each subsidiary's translated net assets at acquisition (book value: no goodwill).
        const probe = run(base);
        const costs = base.eliminations!.investments!.map((inv) => probe.eliminations.find((e) => e.id === inv.id)!.details.netAssetsAtAcquisition as number);
        base.eliminations!.investments!.forEach((inv, k) => (inv.cost = costs[k]!));
        const total = sumOf(costs);
        carryInvestmentAt(base, total);
        const out = run(base);
        const netAssetsOf = (id: string) => sumOf(out.entities.find((e) => e.id === id)!.lines.filter((l) => l.classification === "Asset" || l.classification === "Liability").map((l) => l.translated));
        const postAcquisition = sumOf(base.eliminations!.investments!.map((inv, k) => netAssetsOf(inv.subsidiary) - costs[k]!));
        expect(out.eliminations.filter((e) => e.kind === "investment").every((e) => e.details.goodwillAtAcquisition === 0)).toBe(true);
        expect(out.balanceSheet.nonControllingInterests).toBe(0);
        expect(out.balanceSheet.totalEquity).toBe(netAssetsOf("p") + postAcquisition);
      }),
      RUNS,
    );
  });
});
