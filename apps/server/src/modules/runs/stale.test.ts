import { describe, expect, it } from "vitest";
import { diffLines } from "./stale.ts";

const line = (account: string, name: string, debit: number, credit = 0) => ({ account, name, debit, credit });

describe("diffLines", () => {
  it("lists per parent account what was posted against what the books give now, debit positive, equal lines left out", () => {
    const posted = [line("35", "Cash", 10_000), line("60", "Revenue", 0, 8_000), line("90", "CTA", 0, 2_000)];
    const now = [line("35", "Cash", 12_500), line("60", "Revenue", 0, 8_000), line("90", "CTA", 0, 4_500)];
    expect(diffLines(posted, now)).toEqual([
      { account: "35", name: "Cash", posted: 10_000, now: 12_500 },
      { account: "90", name: "CTA", posted: -2_000, now: -4_500 },
    ]);
  });

  it("an account on one side only counts as zero on the other", () => {
    expect(diffLines([line("35", "Cash", 500)], [line("40", "Receivables", 500)])).toEqual([
      { account: "35", name: "Cash", posted: 500, now: 0 },
      { account: "40", name: "Receivables", posted: 0, now: 500 },
    ]);
  });

  it("compares the net of a line: a debit and a credit of the same size are the same line either way", () => {
    expect(diffLines([line("35", "Cash", 700, 200)], [line("35", "Cash", 500)])).toEqual([]);
  });

  it("keeps the name it was posted under, and sorts by account", () => {
    const changes = diffLines([line("b", "Old name", 1), line("a", "A", 1)], [line("b", "Renamed since", 2), line("a", "A", 3)]);
    expect(changes).toEqual([
      { account: "a", name: "A", posted: 1, now: 3 },
      { account: "b", name: "Old name", posted: 1, now: 2 },
    ]);
  });

  it("nothing changed: nothing to flag", () => {
    expect(diffLines([], [])).toEqual([]);
    expect(diffLines([line("35", "Cash", 1)], [line("35", "Cash", 1)])).toEqual([]);
  });
});
