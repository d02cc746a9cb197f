import { describe, expect, it } from "vitest";
import {
  accountPatchSchema,
  codeSchema,
  errorBodySchema,
  foreignCurrencyInUse,
  nightlySyncRequestSchema,
  obalConfigured,
  qboWebhookPayloadSchema,
  resetPasswordRequestSchema,
  segmentQuerySchema,
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

describe("nightly sync setting", () => {
  it("takes a 24-hour HH:MM time and an IANA zone, stored under the zone's canonical name", () => {
    expect(nightlySyncRequestSchema.parse({ enabled: true, time: " 06:00 ", timeZone: "Europe/London" })).toEqual({ enabled: true, time: "06:00", timeZone: "Europe/London" });
    expect(nightlySyncRequestSchema.parse({ enabled: false, time: "23:59", timeZone: "utc" }).timeZone).toBe("UTC");
    expect(nightlySyncRequestSchema.parse({ enabled: true, time: "00:00", timeZone: "US/Eastern" }).timeZone).toBe("America/New_York");
  });

  it("refuses other times, unknown zones and unknown fields, each on its field", () => {
    for (const time of ["6:00", "24:00", "12:60", "noon", "06:00:00"]) {
      expect(messagesOf(nightlySyncRequestSchema.safeParse({ enabled: true, time, timeZone: "UTC" })), time).toEqual([
        "time: Give a time of day as HH:MM on the 24-hour clock, e.g. 06:00 or 18:30.",
      ]);
    }
    for (const timeZone of ["Mars/Olympus", "", "GMT+25"]) {
      expect(messagesOf(nightlySyncRequestSchema.safeParse({ enabled: true, time: "06:00", timeZone })), timeZone).toEqual([
        "timeZone: Choose a time zone from the list: an IANA name such as Europe/London or America/New_York.",
      ]);
    }
    expect(messagesOf(nightlySyncRequestSchema.safeParse({ enabled: true, time: "06:00", timeZone: "UTC", at: "now" }))).toEqual([": Unknown field: at."]);
  });
});

describe("QuickBooks webhook notification", () => {
  it("reads Intuit's payload and keeps fields it does not know", () => {
    const body = {
      eventNotifications: [
        { realmId: "1185883450", dataChangeEvent: { entities: [{ name: "Customer", id: "1", operation: "Merge", lastUpdated: "2015-10-05T14:42:19-0700", deletedId: "2" }] }, extra: true },
      ],
    };
    expect(qboWebhookPayloadSchema.parse(body)).toEqual(body);
    expect(qboWebhookPayloadSchema.safeParse({ eventNotifications: [{ dataChangeEvent: { entities: [] } }] }).success).toBe(false);
    expect(qboWebhookPayloadSchema.safeParse({}).success).toBe(false);
  });
});

describe("segments query (issue 23: any statement by class or location)", () => {
  const base = { from: "2026-01", to: "2026-03" };
  it("takes the four statements, the P&L by default", () => {
    for (const statement of ["income", "balance", "cashflow", "equity"]) expect(segmentQuerySchema.parse({ ...base, statement }).statement).toBe(statement);
    expect(segmentQuerySchema.parse(base)).toEqual({ ...base, by: "class", statement: "income" });
  });
  it("says which statements there are when asked for another", () => {
    const r = segmentQuerySchema.safeParse({ ...base, statement: "cash" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("statement is income (the profit and loss), balance (the balance sheet at the period's end), cashflow (the statement of cash flows) or equity (the changes in equity).");
  });
});
