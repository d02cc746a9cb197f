import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupArb } from "../../test/arbitraries.ts";
import { loadExample } from "../../test/load-example.ts";
import { problems } from "../../test/engine.ts";
import { consolidate, parseConsolidationInput } from "./consolidate.ts";
import { parseConsolidationInputFast } from "./input-fast.ts";
import { consolidationInputSchema, type ConsolidationInputJson } from "./input-schema.ts";

const examples = readdirSync(new URL("../../../../docs/examples/", import.meta.url))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -".json".length));

/** An example as plain JSON, to break in ways the input type does not allow. */
interface LooseInput {
  entities: { currency: string; accounts: Record<string, unknown>[]; balances: { amounts: unknown[] }[] }[];
  maps: { lines: Record<string, string> }[];
}
const looseExample = (name: string) => loadExample(name) as unknown as LooseInput;

/** What zod's full walk makes of an input, or its issues. */
function zodResult(input: unknown): unknown {
  const r = consolidationInputSchema.safeParse(input);
  return r.success ? r.data : r.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

describe("the fast path of input validation (input-fast.ts)", () => {
  it("returns exactly what zod returns for every documented example", () => {
    for (const name of examples) {
      const input = loadExample(name);
      const fast = parseConsolidationInputFast(input);
      expect(fast, name).toBeDefined();
      expect(fast, name).toStrictEqual(zodResult(input));
    }
  });

  it("returns exactly what zod returns for random groups", () => {
    fc.assert(
      fc.property(groupArb({ maxMonths: 6 }), ({ input }) => {
        expect(parseConsolidationInputFast(input)).toStrictEqual(zodResult(input));
      }),
      { numRuns: 100 },
    );
  });

  it("strips unknown keys, keeps optional keys given as undefined, and keeps the amounts arrays as given", () => {
    const input = loadExample("nci-80-intercompany") as unknown as {
      entities: { accounts: Record<string, unknown>[]; balances: { amounts: number[]; note?: string }[] }[];
      maps: { lines: Record<string, string> }[];
    };
    input.entities[1]!.accounts[0]!.extra = "dropped";
    input.entities[1]!.accounts[0]!.monetary = undefined;
    input.entities[1]!.balances[0]!.note = "dropped";
    input.entities[1]!.balances[0]!.amounts[0] = -0;
    const fast = parseConsolidationInputFast(input)!;
    expect(fast).toStrictEqual(zodResult(input));
    expect(Object.keys(fast.entities[1]!.accounts[0]!)).toEqual(["id", "name", "classification", "monetary"]);
    expect(Object.is(fast.entities[1]!.balances[0]!.amounts[0], -0)).toBe(true);
    // The parse contract (parseConsolidationInput): amounts are checked, not copied; consolidate copies them.
    expect(fast.entities[1]!.balances[0]!.amounts).toBe(input.entities[1]!.balances[0]!.amounts);
    expect(fast.maps[0]!.lines).not.toBe(input.maps[0]!.lines);
    // An account with zod's keys in zod's order is the caller's own (not copied); one with others is copied.
    expect(fast.entities[1]!.accounts[1]).toBe(input.entities[1]!.accounts[1]);
    expect(fast.entities[1]!.accounts[0]).not.toBe(input.entities[1]!.accounts[0]);
  });

  it("copies an account whose keys are in another order, as zod gives them", () => {
    const input = loadExample("nci-80-intercompany") as unknown as { entities: { accounts: Record<string, unknown>[] }[] };
    const a = input.entities[1]!.accounts[2]!;
    input.entities[1]!.accounts[2] = { name: a.name, id: a.id, classification: a.classification, ...(a.equityKind ? { equityKind: a.equityKind } : {}) };
    const fast = parseConsolidationInputFast(input)!;
    const zod = zodResult(input) as { entities: { accounts: object[] }[] };
    expect(fast).toStrictEqual(zod);
    expect(fast.entities[1]!.accounts[2]).not.toBe(input.entities[1]!.accounts[2]);
    expect(Object.keys(fast.entities[1]!.accounts[2]!)).toEqual(Object.keys(zod.entities[1]!.accounts[2]!));
  });

  it("gives a result that the caller's later changes to its input do not change", () => {
    const input = loadExample("nci-80-intercompany");
    const out = consolidate(parseConsolidationInput(input));
    const before = JSON.stringify(out);
    for (const e of input.entities) for (const s of e.balances) s.amounts.fill(1);
    expect(JSON.stringify(out)).toBe(before);
  });

  it("declines what it does not check itself, and the full walk decides", () => {
    const declined: [string, (x: LooseInput) => void][] = [
      ["a map line with a __proto__ key", (x) => Object.defineProperty(x.maps[0]!.lines, "__proto__", { value: "1000", enumerable: true })],
      ["an entity that is not a plain object", (x) => (x.entities[0] = Object.assign(Object.create({ inherited: 1 }) as object, x.entities[0]!))],
      ["a sparse amounts array", (x) => (x.entities[1]!.balances[0]!.amounts.length += 2)],
    ];
    for (const [what, change] of declined) {
      const input = looseExample("nci-80-intercompany");
      change(input);
      expect(parseConsolidationInputFast(input), what).toBeUndefined();
    }
  });

  const broken: [string, unknown][] = [
    ["a string", "12"],
    ["a fraction", 1.5],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["2^53", 2 ** 53],
    ["null", null],
  ];
  for (const [what, value] of broken) {
    it(`reports an amount that is ${what} with zod's message at its path, alongside the other problems`, () => {
      const input = looseExample("nci-80-intercompany");
      input.entities[1]!.balances[0]!.amounts[3] = value;
      input.entities[0]!.currency = "dollars";
      expect(parseConsolidationInputFast(input)).toBeUndefined();
      const expected = (zodResult(input) as { path: (string | number)[]; message: string }[]).map((i) => i.path.join("."));
      expect(expected).toContain("entities.1.balances.0.amounts.3");
      expect(problems(input)).toHaveLength(expected.length);
      expect(() => parseConsolidationInput(input)).toThrow(/\$\.entities\[1\]\.balances\[0\]\.amounts\[3\]/);
    });
  }

  it("reports bad accounts and map lines as zod does", () => {
    const input: ConsolidationInputJson = loadExample("nci-80-intercompany");
    input.entities[1]!.accounts[0]!.equityKind = "other";
    input.maps![0]!.lines["1000"] = "";
    expect(parseConsolidationInputFast(input)).toBeUndefined();
    expect(problems(input)).toEqual([
      '$.entities[1].accounts[0].equityKind: only Equity accounts have an equityKind',
      '$.maps[0].lines["1000"]: must not be empty',
    ]);
  });
});
