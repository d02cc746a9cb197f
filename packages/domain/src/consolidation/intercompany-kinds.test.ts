import { describe, expect, it } from "vitest";
import { problems, run } from "../../test/engine.ts";
import { smallGroup } from "../../test/small-group.ts";

// The engine refuses a pair whose accounts its kind does not join (eliminations/pair-kinds.ts,
// the rule the server and the pair form check too): one of each of the kind's classifications.

type Side = { entity: string; account: string };

function withPair(kind: "receivablePayable" | "revenueExpense", left: Side, right: Side) {
  const input = smallGroup({ subCurrency: "USD" });
  input.eliminations!.intercompany = [{ id: "pair", kind, left, right, differenceTo: "fx" }];
  return input;
}

const s = (account: string): Side => ({ entity: "s", account });
const p = (account: string): Side => ({ entity: "p", account });
const pairOf = (input: ReturnType<typeof withPair>) => run(input).eliminations.find((e) => e.id === "pair");

describe("the accounts an intercompany pair joins", () => {
  it("takes an asset against a liability for a balance pair, revenue against an expense for a flow pair, in either order", () => {
    expect(pairOf(withPair("receivablePayable", s("cash"), p("provision")))).toBeDefined();
    expect(pairOf(withPair("receivablePayable", p("provision"), s("cash")))).toBeDefined();
    expect(pairOf(withPair("revenueExpense", s("sales"), p("other-exp")))).toBeDefined();
    expect(pairOf(withPair("revenueExpense", p("other-exp"), s("sales")))).toBeDefined();
  });

  it("refuses another classification, or the same one on both sides, naming the pair", () => {
    const balance = ["$.eliminations.intercompany[0]: a receivable/payable pair needs one Asset and one Liability account"];
    const flow = ["$.eliminations.intercompany[0]: a revenue/expense pair needs one Revenue and one Expense account"];
    expect(problems(withPair("receivablePayable", s("sales"), p("provision")))).toEqual(balance);
    expect(problems(withPair("receivablePayable", s("cash"), p("cash")))).toEqual(balance);
    expect(problems(withPair("revenueExpense", s("capital"), p("other-exp")))).toEqual(flow);
    expect(problems(withPair("revenueExpense", s("sales"), p("sales")))).toEqual(flow);
  });
});
