import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { z } from "zod";
import { EMAIL_MAX_LENGTH, EMAIL_MESSAGE, emailSchema, normalizeEmail } from "./email.ts";

function messages(value: unknown): string[] | undefined {
  return emailSchema.safeParse(value).error?.issues.map((i) => i.message);
}

describe("emailSchema", () => {
  it("has the exact message", () => {
    expect(EMAIL_MESSAGE).toBe("Please enter a valid email.");
    expect(EMAIL_MAX_LENGTH).toBe(254);
  });

  it("accepts valid addresses and normalizes them (trim + lower case)", () => {
    expect(emailSchema.parse("user@example.com")).toBe("user@example.com");
    expect(emailSchema.parse("User.Name+Tag@Example.CO.uk")).toBe("user.name+tag@example.co.uk");
    expect(emailSchema.parse("  John.SMITH@Example.com  ")).toBe("john.smith@example.com");
    expect(emailSchema.parse("\t\nmary@example.org\r\n")).toBe("mary@example.org");
    expect(emailSchema.parse("\u00a0mary@example.org\u00a0")).toBe("mary@example.org");
    expect(emailSchema.parse("o'brien@example.ie")).toBe("o'brien@example.ie");
    expect(emailSchema.parse("first_last-1@sub.domain-x.example")).toBe("first_last-1@sub.domain-x.example");
  });

  it.each([
    "",
    "   ",
    "\t\n",
    "plain",
    "user@",
    "@example.com",
    "user@example",
    "user@example.c",
    "user@.example.com",
    "user@-example.com",
    ".user@example.com",
    "user.@example.com",
    "us..er@example.com",
    "us er@example.com",
    "user@exa mple.com",
    "user@@example.com",
    "user@example@example.com",
    "user\u00a0name@example.com",
    "josé@example.com",
    "\u212Aate@example.com", // Kelvin sign: lower-cases to "k" but is not an ASCII letter
    "user@example.com.",
    "<user@example.com>",
    "mailto:user@example.com",
  ])("rejects %j with exactly one issue carrying the message", (value) => {
    expect(messages(value)).toEqual([EMAIL_MESSAGE]);
  });

  it.each([undefined, null, 42, true, {}, ["a@b.co"], new Date()])("rejects non-string %j with the message", (value) => {
    expect(messages(value)).toEqual([EMAIL_MESSAGE]);
  });

  it("reports a missing field in an object with the message", () => {
    const result = z.object({ email: emailSchema }).safeParse({});
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]).toMatchObject({ path: ["email"], message: EMAIL_MESSAGE });
  });

  it("allows at most 254 characters (after trimming)", () => {
    const domain = "@example.com";
    const at254 = "a".repeat(254 - domain.length) + domain;
    const at255 = "a".repeat(255 - domain.length) + domain;
    expect(at254).toHaveLength(254);
    expect(emailSchema.parse(at254)).toBe(at254);
    expect(emailSchema.parse(`   ${at254.toUpperCase()}\t`)).toBe(at254);
    expect(messages(at255)).toEqual([EMAIL_MESSAGE]);
    expect(messages("x".repeat(10_000))).toEqual([EMAIL_MESSAGE]);
  });
});

describe("normalizeEmail", () => {
  it("returns the normalized address or null", () => {
    expect(normalizeEmail("  Foo@Bar.COM ")).toBe("foo@bar.com");
    expect(normalizeEmail("foo")).toBeNull();
    expect(normalizeEmail("")).toBeNull();
    expect(normalizeEmail(undefined)).toBeNull();
    expect(normalizeEmail(7)).toBeNull();
  });

  it("is idempotent on arbitrary strings (property)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const once = normalizeEmail(s);
        return once === null || normalizeEmail(once) === once;
      }),
    );
  });

  const simpleEmail = fc
    .tuple(
      fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_+-]{0,15}$/),
      fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,10}$/),
      fc.stringMatching(/^[A-Za-z]{2,6}$/),
      fc.constantFrom("", " ", "\t", "\n", "\u00a0", "  \r\n"),
      fc.constantFrom("", " ", "\t", "\n", "\u00a0", "  \r\n"),
    )
    .map(([local, host, tld, before, after]) => ({ raw: `${before}${local}@${host}.${tld}${after}`, core: `${local}@${host}.${tld}` }));

  it("normalizes padded mixed-case addresses to the trimmed lower-case form, idempotently (property)", () => {
    fc.assert(
      fc.property(simpleEmail, ({ raw, core }) => {
        const once = normalizeEmail(raw);
        return once === core.toLowerCase() && normalizeEmail(once) === once && normalizeEmail(core.toUpperCase()) === once;
      }),
    );
  });
});
