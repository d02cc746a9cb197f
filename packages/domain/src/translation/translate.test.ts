import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupArb } from "../../test/arbitraries.ts";
import { smallGroup } from "../../test/small-group.ts";
import { consolidate, parseConsolidationInput } from "../consolidation/consolidate.ts";
import { ConsolidationInputError, IssueList } from "../consolidation/errors.ts";
import type { ConsolidationInputJson } from "../consolidation/input-schema.ts";
import { isProfitAndLoss, isRolledForward, type CompiledEntity, type LineKind } from "../consolidation/model.ts";
import { compileGroup } from "../consolidation/prepare.ts";
import { translateEntity, translatedAt } from "./translate.ts";

/**
 * The one pass over an entity's amounts (translateAmounts, made when it is compiled): what it adds
 * up for the books' check and keeps for the period is what separate passes would give, and an
 * amount it cannot translate is reported where the translation was before, after the books' check.
 */

function compiled(input: ConsolidationInputJson): readonly CompiledEntity[] {
  const issues = new IssueList();
  const group = compileGroup(parseConsolidationInput(input), issues);
  expect(issues.items).toEqual([]);
  return group!.entities;
}

/** The books' sums the plain way: account by account in the chart's order, month by month. */
function plainBookSums(e: CompiledEntity): { balance: number[]; retained: number[]; result: number[] } {
  const T = e.months;
  const balance = new Array<number>(T).fill(0);
  const retained = new Array<number>(T).fill(0);
  const result = new Array<number>(T).fill(0);
  e.kinds.forEach((k, i) => {
    for (let t = 0; t < T; t++) {
      const x = e.local[i * T + t]!;
      if (isProfitAndLoss(k as LineKind)) result[t]! += x;
      else {
        balance[t]! += x;
        if (isRolledForward(k as LineKind)) retained[t]! += x;
      }
    }
  });
  return { balance, retained, result };
}

describe("translateAmounts: the one pass over the amounts", () => {
  it("adds up the books' sums as a pass of their own would, account by account (the result from month 1)", () => {
    fc.assert(
      fc.property(groupArb({ maxMonths: 6 }), ({ input }) => {
        for (const e of compiled(input)) {
          const plain = plainBookSums(e);
          expect(Array.from(e.pass.books.balance), e.id).toEqual(plain.balance);
          expect(Array.from(e.pass.books.retained), e.id).toEqual(plain.retained);
          expect(Array.from(e.pass.books.result).slice(1), e.id).toEqual(plain.result.slice(1));
        }
      }),
      { numRuns: 100 },
    );
  });

  it("keeps each balance row's translated balance before the period and at its end, as translatedAt gives them", () => {
    fc.assert(
      fc.property(groupArb({ maxMonths: 6 }), ({ input }) => {
        for (const e of compiled(input)) {
          const tr = translateEntity(e, new IssueList());
          const before = tr.periodFlows.from - 1;
          e.kinds.forEach((k, i) => {
            const balanceRow = !isProfitAndLoss(k as LineKind) && !isRolledForward(k as LineKind);
            expect(tr.periodBalances.before[i], `${e.id} row ${i}`).toBe(balanceRow ? translatedAt(tr, i, before) : 0);
            expect(tr.periodBalances.end[i], `${e.id} row ${i}`).toBe(balanceRow ? translatedAt(tr, i, e.months - 1) : 0);
          });
        }
      }),
      { numRuns: 100 },
    );
  });

  it("an amount beyond ±2^53 once translated fails the consolidation as before, but only after the books' check", () => {
    // Cash and capital of 2^53 − 2 (a balanced balance sheet); at 1.25 the cash is beyond 2^53 translated.
    const big = Number.MAX_SAFE_INTEGER - 1;
    const huge = (unbalanced: boolean): ConsolidationInputJson => {
      const input = smallGroup();
      const sub = input.entities[1]!;
      sub.balances = sub.balances.map((s) =>
        s.account === "cash" ? { ...s, amounts: s.amounts.map(() => big + (unbalanced ? 1 : 0)) } : s.account === "capital" ? { ...s, amounts: s.amounts.map(() => -big) } : { ...s, amounts: s.amounts.map(() => 0) },
      );
      sub.historical = [{ account: "capital", rate: "1.1" }];
      return input;
    };
    expect(() => consolidate(parseConsolidationInput(huge(false)))).toThrow(RangeError);
    let refused: unknown;
    try {
      consolidate(parseConsolidationInput(huge(true)));
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(ConsolidationInputError);
    expect((refused as ConsolidationInputError).issues.map((i) => i.message).join("\n")).toMatch(/does not balance/);
  });

  it("entities in one currency share their monthly rates, and each entity still reports the months its rates miss", () => {
    const input = smallGroup();
    const sub = input.entities[1]!;
    input.entities.push({ ...structuredClone(sub), id: "s2", name: "Second S" });
    const [, first, second] = compiled(input);
    expect(second!.closing).toBe(first!.closing);
    expect(second!.averageColumns).toBe(first!.averageColumns);

    delete input.rates!.EUR!["2024-01"];
    let refused: unknown;
    try {
      consolidate(parseConsolidationInput(input));
    } catch (e) {
      refused = e;
    }
    const messages = (refused as ConsolidationInputError).issues.map((i) => i.message);
    expect(messages.filter((m) => m.startsWith("missing EUR rates for 2024-01"))).toEqual([
      `missing EUR rates for 2024-01 (needed to translate ${sub.name})`,
      "missing EUR rates for 2024-01 (needed to translate Second S)",
    ]);
  });
});
