import { describe, expect, it } from "vitest";
import {
  accountPatchSchema,
  codeSchema,
  errorBodySchema,
  foreignCurrencyInUse,
  obalConfigured,
  resetPasswordRequestSchema,
  signupRequestSchema,
  tokenRequestSchema,
  validationCodeRequestSchema,
} from "./index.ts";

const messagesOf = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  r.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

describe("session contract", () => {
  it("normalizes the login email and keeps the password as typed", () => {
    expect(tokenRequestSchema.parse({ email: "  Ann@Example.COM ", password: " pass word " })).toEqual({
      email: "ann@example.com",
      password: " pass word ",
    });
  });

  it("reports each broken sign-up rule against the password field", () => {
    const r = signupRequestSchema.safeParse({ email: "ann@example.com", password: "ann" });
    expect(r.success).toBe(false);
    expect(messagesOf(r)).toEqual(
      expect.arrayContaining([
        "password: Password must be at least 8 characters long.",
        "password: Password must contain at least one number.",
        "password: Password must contain at least one uppercase letter.",
      ]),
    );
  });

  it("accepts codes however people type them", () => {
    expect(codeSchema.parse("ab12-cd34")).toBe("AB12CD34");
    expect(codeSchema.parse(" AB12 CD34 ")).toBe("AB12CD34");
    expect(codeSchema.safeParse("").success).toBe(false);
    expect(messagesOf(validationCodeRequestSchema.safeParse({}))).toEqual(["validationCode: Please enter the code from your email."]);
  });

  it("checks a reset password against the email's name part", () => {
    const r = resetPasswordRequestSchema.safeParse({ email: "robert@example.com", code: "ABCD-EFGH", password: "Robert#2026" });
    expect(messagesOf(r)).toEqual(["password: Password must not contain the part of your email before the @."]);
    expect(resetPasswordRequestSchema.safeParse({ email: "robert@example.com", code: "ABCD-EFGH", password: "Ledger#2026" }).success).toBe(true);
  });
});

describe("account contract", () => {
  it("accepts the spec's onboarding steps only", () => {
    expect(accountPatchSchema.parse({ onboardingStep: 2.3 })).toEqual({ onboardingStep: 2.3 });
    expect(accountPatchSchema.safeParse({ onboardingStep: 2.4 }).success).toBe(false);
  });

  it("refuses unknown fields and empty patches", () => {
    expect(messagesOf(accountPatchSchema.safeParse({ onboarding: true, tenant: "x" }))).toEqual([": Unknown field: tenant."]);
    expect(messagesOf(accountPatchSchema.safeParse({}))).toEqual([
      ": Send at least one of name, onboarding, onboardingStep, nabAccounts.",
    ]);
  });
});

describe("error body", () => {
  it("is the one shape clients read", () => {
    expect(errorBodySchema.safeParse({ error: { code: "x", message: "y" } }).success).toBe(true);
    expect(errorBodySchema.safeParse({ error: "EXPIRED_TOKEN" }).success).toBe(false);
  });
});

describe("company rules", () => {
  const company = (realmId: string, homeCurrency: string, parent = false, archivedAt: string | null = null) => ({
    realmId,
    companyName: realmId,
    country: "US",
    homeCurrency,
    parent,
    earliestTransactionDate: null,
    fiscalYearStartMonth: 1,
    ownershipPercent: "100",
    archivedAt,
    connectedAt: "2026-11-01T00:00:00.000Z",
  });

  it("finds a foreign currency only among active subsidiaries of a known parent", () => {
    expect(foreignCurrencyInUse([])).toBe(false);
    expect(foreignCurrencyInUse([company("sub", "GBP")])).toBe(false);
    expect(foreignCurrencyInUse([company("p", "USD", true), company("s", "USD")])).toBe(false);
    expect(foreignCurrencyInUse([company("p", "USD", true), company("s", "GBP")])).toBe(true);
    expect(foreignCurrencyInUse([company("p", "USD", true), company("s", "GBP", false, "2026-01-31")])).toBe(false);
  });

  it("counts the opening balance as configured only with both year and month", () => {
    expect(obalConfigured({ year: null, month: null })).toBe(false);
    expect(obalConfigured({ year: 2025, month: null })).toBe(false);
    expect(obalConfigured({ year: 2025, month: 12 })).toBe(true);
  });
});
