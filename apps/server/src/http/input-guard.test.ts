import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findNul, MAX_JSON_DEPTH, nestsDeeperThan } from "./input-guard.ts";

/** How deep a parsed value nests arrays and objects (a scalar: 0). */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value && typeof value === "object") return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

describe("nestsDeeperThan", () => {
  const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
  const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

  it("allows exactly the limit and refuses one level more, for arrays and objects alike", () => {
    expect(nestsDeeperThan(arrays(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(arrays(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan('[{"a":[{"b":[]}]}]', 4)).toBe(true);
    expect(nestsDeeperThan('[{"a":[{"b":[]}]}]', 5)).toBe(false);
  });

  it("counts depth, not the number of brackets: siblings do not add up", () => {
    expect(nestsDeeperThan(`[${Array.from({ length: 1000 }, () => "[[]]").join(",")}]`, 3)).toBe(false);
  });

  it("ignores brackets inside strings, escaped quotes and backslashes included", () => {
    expect(nestsDeeperThan(JSON.stringify({ text: "[[[[[[{{{{{{" }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['say \\"[[[[" and \\\\', "[[["]), 1)).toBe(false);
    // A string ending in a backslash: the quote after it closes the string, so the brackets that follow count.
    expect(nestsDeeperThan(`["a\\\\",[[[]]]]`, 3)).toBe(true);
    expect(nestsDeeperThan(`["a\\\\",[[[]]]]`, 4)).toBe(false);
  });

  it("reads a body 100,000 levels deep in one pass without recursing", () => {
    expect(nestsDeeperThan(arrays(100_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it("leaves invalid JSON to the parser unless it is already too deep", () => {
    expect(nestsDeeperThan("[[[", 5)).toBe(false);
    expect(nestsDeeperThan("]]]]{", 1)).toBe(false);
    expect(nestsDeeperThan('"unterminated [[[[', 1)).toBe(false);
    expect(nestsDeeperThan("[[[", 2)).toBe(true);
  });

  it("agrees with the depth of the parsed value for any JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (value, limit) => {
        expect(nestsDeeperThan(JSON.stringify(value), limit)).toBe(depthOf(value) > limit);
      }),
      { numRuns: 500 },
    );
  });
});

describe("findNul", () => {
  it("names where a NUL hides: the value itself, an array index, an object key path", () => {
    expect(findNul("a\u0000b")).toBe("");
    expect(findNul({ email: "a@b.co", password: "x\u0000y" })).toBe("password");
    expect(findNul({ list: [{ ok: "fine" }, { name: ["x", "\u0000"] }] })).toBe("list.1.name.1");
    expect(findNul(["a", "b\u0000"])).toBe("1");
  });

  it("finds it in keys too, naming the key", () => {
    expect(findNul({ list: [{ ["k\u0000"]: 1 }] })).toBe("list.0.k\u0000");
    expect(findNul({ ["\u0000"]: "value" })).toBe("\u0000");
  });

  it("goes on the given path (the guard prefixes query. and params.)", () => {
    expect(findNul({ id: "1\u0000" }, "params")).toBe("params.id");
  });

  it("reports the first in order, and null when there is none", () => {
    expect(findNul({ a: "\u0000", b: "\u0000" })).toBe("a");
    for (const clean of [null, undefined, 0, true, "text", [], {}, { a: [1, "two", { b: null }] }]) expect(findNul(clean)).toBeNull();
  });
});
