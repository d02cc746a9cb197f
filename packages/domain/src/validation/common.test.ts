import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { z } from "zod";
import {
  CONFIRMATION_MESSAGE,
  WHITESPACE_PATTERN,
  codePointLength,
  confirmPasswordSchema,
  confirmationMatches,
  isBlank,
  nonEmptyText,
  refineConfirmation,
  whenFieldsAreStrings,
} from "./common.ts";

const WHITESPACE = [" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2003", "\u2028", "\u2029", "\u202f", "\u3000", "\ufeff", "\u0085"];

describe("isBlank", () => {
  it("is true for the empty string and every whitespace-only string", () => {
    expect(isBlank("")).toBe(true);
    for (const ws of WHITESPACE) {
      expect(isBlank(ws)).toBe(true);
      expect(isBlank(ws.repeat(3))).toBe(true);
    }
    expect(isBlank(WHITESPACE.join(""))).toBe(true);
  });

  it("is false as soon as one visible character is present", () => {
    expect(isBlank("a")).toBe(false);
    expect(isBlank(" \t a \n")).toBe(false);
    expect(isBlank("\u00a0.\u00a0")).toBe(false);
    expect(isBlank("0")).toBe(false);
  });

  it("treats zero-width space (a format character, not whitespace) as content", () => {
    expect(isBlank("\u200b")).toBe(false);
  });
});

describe("WHITESPACE_PATTERN", () => {
  it("matches every whitespace variant", () => {
    for (const ws of WHITESPACE) expect(WHITESPACE_PATTERN.test(`a${ws}b`)).toBe(true);
  });
  it("does not match visible or zero-width characters", () => {
    for (const c of ["a", "-", "_", "\u200b", "\u200d", "😀"]) expect(WHITESPACE_PATTERN.test(c)).toBe(false);
  });
});

describe("codePointLength", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("😀")).toBe(1);
    expect("😀".length).toBe(2);
    expect(codePointLength("a😀b")).toBe(3);
    expect(codePointLength("é")).toBe(1);
    expect(codePointLength("e\u0301")).toBe(2);
  });

  it("equals the length of the code-point array for any string", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => codePointLength(s) === Array.from(s).length));
  });
});

describe("nonEmptyText", () => {
  const schema = nonEmptyText("Please enter a name.");

  it("trims the value", () => {
    expect(schema.parse("  Acme Ltd \n")).toBe("Acme Ltd");
    expect(schema.parse("\u00a0x\t")).toBe("x");
    expect(schema.parse("a")).toBe("a");
  });

  it("rejects blank values with exactly the given message", () => {
    for (const value of ["", " ", "\t\n", "\u00a0\u3000", "\u0085"]) {
      const result = schema.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual(["Please enter a name."]);
    }
  });

  it("rejects non-strings and missing values with the given message", () => {
    for (const value of [undefined, null, 1, {}, []]) {
      expect(schema.safeParse(value).error?.issues.map((i) => i.message)).toEqual(["Please enter a name."]);
    }
    const obj = z.object({ name: schema });
    expect(obj.safeParse({}).error?.issues).toMatchObject([{ path: ["name"], message: "Please enter a name." }]);
  });

  it("output is never blank and is trimmed (property)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = schema.safeParse(s);
        if (r.success) return !isBlank(r.data) && r.data === s.trim();
        return isBlank(s.trim());
      }),
    );
  });
});

describe("confirmationMatches", () => {
  it("compares trimmed values", () => {
    expect(CONFIRMATION_MESSAGE).toBe("The two values do not match.");
    expect(confirmationMatches("secret", "secret")).toBe(true);
    expect(confirmationMatches(" secret\t", "secret")).toBe(true);
    expect(confirmationMatches("secret", "\nsecret\u00a0")).toBe(true);
    expect(confirmationMatches("", "  ")).toBe(true);
  });

  it("is case-sensitive and sees inner whitespace", () => {
    expect(confirmationMatches("Secret", "secret")).toBe(false);
    expect(confirmationMatches("sec ret", "secret")).toBe(false);
    expect(confirmationMatches("secret1", "secret")).toBe(false);
  });

  it("never matches non-strings", () => {
    expect(confirmationMatches(undefined, undefined)).toBe(false);
    expect(confirmationMatches(null, null)).toBe(false);
    expect(confirmationMatches(1, 1)).toBe(false);
    expect(confirmationMatches("1", 1)).toBe(false);
  });

  it("is symmetric (property)", () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => confirmationMatches(a, b) === confirmationMatches(b, a)));
  });
});

describe("confirmPasswordSchema / refineConfirmation", () => {
  it("accepts matching pairs, comparing trimmed values, and keeps the values", () => {
    expect(confirmPasswordSchema.parse({ password: "Abc123!x", confirmPassword: " Abc123!x\t" })).toEqual({
      password: "Abc123!x",
      confirmPassword: " Abc123!x\t",
    });
  });

  it("puts exactly one issue on the confirmation field when they differ", () => {
    const result = confirmPasswordSchema.safeParse({ password: "Abc123!x", confirmPassword: "abc123!x" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([{ code: "custom", message: "The two values do not match.", path: ["confirmPassword"] }]);
  });

  it("leaves a missing field to that field's own schema", () => {
    const result = confirmPasswordSchema.safeParse({ password: "x" });
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.path).toEqual(["confirmPassword"]);
    expect(result.error?.issues[0]?.message).not.toBe(CONFIRMATION_MESSAGE);
  });

  it("works with other field names and still runs when another field fails", () => {
    const schema = z
      .object({ email: z.email(), newEmail: z.string(), repeatEmail: z.string() })
      .superRefine(refineConfirmation("newEmail", "repeatEmail"), whenFieldsAreStrings("newEmail", "repeatEmail"));
    const result = schema.safeParse({ email: 1, newEmail: "a@b.co", repeatEmail: "b@b.co" });
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [["email"], expect.any(String)],
      [["repeatEmail"], CONFIRMATION_MESSAGE],
    ]);
    expect(schema.safeParse({ email: "a@b.co", newEmail: "a@b.co", repeatEmail: "a@b.co " }).success).toBe(true);
  });

  it("without whenFieldsAreStrings zod skips the refinement once a field is missing; with it, it runs", () => {
    const shape = { email: z.email(), a: z.string(), b: z.string() };
    const plain = z.object(shape).superRefine(refineConfirmation("a", "b"));
    expect(plain.safeParse({ a: "1", b: "2" }).error?.issues.map((i) => i.path)).toEqual([["email"]]);
    const eager = z.object(shape).superRefine(refineConfirmation("a", "b"), whenFieldsAreStrings("a", "b"));
    expect(eager.safeParse({ a: "1", b: "2" }).error?.issues.map((i) => i.path)).toEqual([["email"], ["b"]]);
  });

  it("whenFieldsAreStrings requires an object with string fields", () => {
    const { when } = whenFieldsAreStrings("a", "b");
    expect(when({ value: { a: "", b: "" } })).toBe(true);
    expect(when({ value: { a: "", b: 1 } })).toBe(false);
    expect(when({ value: { a: "" } })).toBe(false);
    expect(when({ value: null })).toBe(false);
    expect(when({ value: "a" })).toBe(false);
  });
});
