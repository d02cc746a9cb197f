import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupArb } from "../../test/arbitraries.ts";
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
        out.worksheet.columns.forEach((c, i) => expect(out.worksheet.rows.reduce((s, r) => s + r.amounts[i]!, 0), c.id).toBe(0));
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
