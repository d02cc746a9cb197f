import { describe, expect, it } from "vitest";
import { CODE_LENGTH, formatCode, hashCode, newCode } from "./codes.ts";

describe("verification codes", () => {
  it("are 8 characters of Crockford base32 without I, L, O or U (nothing misread when typed from a mail)", () => {
    const codes = Array.from({ length: 500 }, newCode);
    expect(CODE_LENGTH).toBe(8);
    for (const code of codes) expect(code).toMatch(/^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{8}$/);
    // 40 bits each: 500 draws do not repeat, and every letter of the alphabet turns up.
    expect(new Set(codes).size).toBe(500);
    expect(new Set(codes.join("")).size).toBe(32);
  });

  it("are shown in two groups of four", () => {
    expect(formatCode("ABCD2345")).toBe("ABCD-2345");
  });

  it("are stored as a hash keyed by the app secret: the same code and secret give the same hash, another secret or code another", () => {
    const secret = "an-app-secret-that-is-long-enough-0123456789";
    const hash = hashCode(secret, "ABCD2345");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain("ABCD2345");
    expect(hashCode(secret, "ABCD2345")).toBe(hash);
    expect(hashCode("another-app-secret-also-long-enough-000", "ABCD2345")).not.toBe(hash);
    expect(hashCode(secret, "ABCD2346")).not.toBe(hash);
  });
});
