import { describe, expect, it } from "vitest";
import type { eliminationPairs } from "../../db/schema.ts";
import { asEnginePair } from "./view.ts";

type PairRow = typeof eliminationPairs.$inferSelect;

const row = (over: Partial<PairRow> = {}): PairRow => ({
  id: "pair-1",
  accountId: "account-1",
  name: "Management fees",
  kind: "revenueExpense",
  leftRealmId: "100",
  leftAccountId: "79",
  leftNameKind: "",
  leftNameId: "",
  rightRealmId: "200",
  rightAccountId: "80",
  rightNameKind: "",
  rightNameId: "",
  differenceTo: "fx",
  createdBy: null,
  createdAt: new Date("2026-01-02T03:04:05Z"),
  updatedAt: new Date("2026-01-02T03:04:05Z"),
  ...over,
});

describe("asEnginePair", () => {
  it("gives the bridge a stored pair: its two sides by company and account, where the difference goes", () => {
    expect(asEnginePair(row())).toEqual({
      id: "pair-1",
      name: "Management fees",
      kind: "revenueExpense",
      left: { entity: "100", account: "79", name: undefined },
      right: { entity: "200", account: "80", name: undefined },
      differenceTo: "fx",
    });
  });

  it("a side limited to a customer or vendor carries that name; a side stored without one ('' and '') is the whole account", () => {
    const pair = asEnginePair(row({ kind: "receivablePayable", leftNameKind: "Customer", leftNameId: "58", differenceTo: "cta" }));
    expect(pair.left).toEqual({ entity: "100", account: "79", name: { kind: "Customer", id: "58" } });
    expect(pair.right.name).toBeUndefined();
    expect(pair).toMatchObject({ kind: "receivablePayable", differenceTo: "cta" });
    expect(asEnginePair(row({ rightNameKind: "Vendor", rightNameId: "12" })).right.name).toEqual({ kind: "Vendor", id: "12" });
  });
});
