import { describe, expect, it } from "vitest";
import { smallGroup } from "../../test/small-group.ts";
import { consolidate, parseConsolidationInput } from "./consolidate.ts";
import { ConsolidationInputError, formatPath } from "./errors.ts";

// The engine refuses a pair whose accounts its kind does not join (eliminations/pair-kinds.ts,
// the rule the server and the pair form check too): one of each of the kind's classifications.

type Side = { entity: string; account: string };

function problems(kind: "receivablePayable" | "revenueExpense", left: Side, right: Side): string[] {
  const input = smallGroup({ subCurrency: "USD" });
  input.eliminations!.intercompany = [{ id: "pair", kind, left, right, differenceTo: "fx" }];
  try {
    consolidate(parseConsolidationInput(input));
  } catch (error) {
    if (error instanceof ConsolidationInputError) return error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    throw error;
  }
  return [];
}

const s = (account: string): Side => ({ entity: "s", account });
const p = (account: string): Side => ({ entity: "p", account });

describe("the accounts an intercompany pair joins", () => {
  it("takes an asset against a liability for a balance pair, revenue against an expense for a flow pair, in either order", () => {
    expect(problems("receivablePayable", s("cash"), p("provision"))).toEqual([]);
    expect(problems("receivablePayable", p("provision"), s("cash"))).toEqual([]);
    expect(problems("revenueExpense", s("sales"), p("other-exp"))).toEqual([]);
    expect(problems("revenueExpense", p("other-exp"), s("sales"))).toEqual([]);
  });

  it("refuses another classification, or the same one on both sides, naming the pair", () => {
    const balance = ["$.eliminations.intercompany[0]: a receivable/payable pair needs one Asset and one Liability account"];
    const flow = ["$.eliminations.intercompany[0]: a revenue/expense pair needs one Revenue and one Expense account"];
    expect(problems("receivablePayable", s("sales"), p("provision"))).toEqual(balance);
    expect(problems("receivablePayable", s("cash"), p("cash"))).toEqual(balance);
    expect(problems("revenueExpense", s("capital"), p("other-exp"))).toEqual(flow);
    expect(problems("revenueExpense", s("sales"), p("sales"))).toEqual(flow);
  });
});
