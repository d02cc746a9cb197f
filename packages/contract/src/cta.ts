import { z } from "zod";
import { GET, POST, PUT } from "./endpoint.ts";
import { companyAccountSchema, realmParamsSchema } from "./companies.ts";

export const dividendRatePolicies = ["declarationDate", "profitPeriod"] as const;

/** A contributed-equity account of a foreign subsidiary with its historical translation. */
export const historicalEquitySchema = z.object({
  accountId: z.string(),
  name: z.string(),
  acctNum: z.string().nullable(),
  /** Closing balance in the subsidiary's currency, minor units (debit positive); null before a sync. */
  localAmount: z.number().int().nullable(),
  /** Parent units per one local unit at the date the equity was contributed; "" when not set. */
  historicalRate: z.string(),
  /** Or the translated amount itself, parent-currency minor units (debit positive); null when not set. */
  historicalAmount: z.number().int().nullable(),
});

export const ctaSubsidiarySchema = z.object({
  realmId: z.string(),
  companyName: z.string(),
  currency: z.string(),
  ownershipPercent: z.string(),
  dividendRatePolicy: z.enum(dividendRatePolicies),
  /** currentRate, or temporal (remeasurement) for a subsidiary whose functional currency is the parent's or hyperinflationary. */
  translationMethod: z.enum(["currentRate", "temporal"]),
  /** The group's CTA account (the same for every subsidiary, set with PUT /api/cta/account); null until chosen. */
  ctaAccountId: z.string().nullable(),
  equity: z.array(historicalEquitySchema),
  /**
   * Temporal method only (empty under the current rate): the non-monetary asset and liability
   * accounts with a balance, each remeasured at its historical rate (entered like equity's).
   */
  nonMonetary: z.array(historicalEquitySchema),
  /** What still needs doing before a consolidation can translate this subsidiary. */
  missing: z.array(z.string()),
});
export type CtaSubsidiary = z.infer<typeof ctaSubsidiarySchema>;

export const ctaSettingsSchema = z.object({
  parentRealmId: z.string().nullable(),
  parentCurrency: z.string().nullable(),
  /** The group's CTA account: the parent's equity account that receives every foreign subsidiary's CTA; null until chosen. */
  ctaAccountId: z.string().nullable(),
  /** The parent's equity accounts that look like a translation reserve, best first, each with why. */
  ctaAccountSuggestions: z.array(z.object({ accountId: z.string(), name: z.string(), score: z.number(), reason: z.string() })),
  subsidiaries: z.array(ctaSubsidiarySchema),
});
export type CtaSettings = z.infer<typeof ctaSettingsSchema>;

/** The parent's share of a subsidiary, as exact decimal text; the web form validates with the same rule. */
export const ownershipPercentSchema = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,4})?$/, "Ownership is a percentage such as 80 or 62.5.")
  .refine((s) => Number(s) > 0 && Number(s) <= 100, "Ownership must be more than 0 and at most 100.");

/** PUT /api/cta/account: the group's one CTA account, for every foreign subsidiary at once. */
export const ctaGroupAccountSchema = z.strictObject({
  ctaAccountId: z.string({ error: "ctaAccountId is the id of one of the parent's equity accounts." }).trim().min(1, "Choose one of the parent's equity accounts.").max(64),
});
export type CtaGroupAccount = z.input<typeof ctaGroupAccountSchema>;

export const ctaUpdateSchema = z
  .strictObject({
    /**
     * The group's CTA account, kept for callers that set it per subsidiary: it chooses the group's
     * account while none is chosen; another account than the group's is refused (409). The
     * web sets it with PUT /api/cta/account.
     */
    ctaAccountId: z.string().trim().min(1).max(64).nullable().optional(),
    ownershipPercent: ownershipPercentSchema.optional(),
    dividendRatePolicy: z.enum(dividendRatePolicies, { error: "dividendRatePolicy is declarationDate or profitPeriod." }).optional(),
    translationMethod: z.enum(["currentRate", "temporal"], { error: "translationMethod is currentRate or temporal." }).optional(),
    historical: z
      .array(
        z.object({
          accountId: z.string().trim().min(1).max(64),
          /** "" or absent clears it. */
          historicalRate: z.string().max(40).optional(),
          historicalAmount: z.number().int().safe().nullable().optional(),
        }),
      )
      .max(500)
      .optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "Send at least one of ctaAccountId, ownershipPercent, dividendRatePolicy, translationMethod, historical.");
export type CtaUpdate = z.input<typeof ctaUpdateSchema>;

/** What "Create the CTA account in QuickBooks" names the account when the user gives no name. */
export const CTA_ACCOUNT_DEFAULT_NAME = "Accumulated OCI – Translation";
/** QuickBooks Online's limit on an account name. */
export const ACCOUNT_NAME_MAX = 100;

export const ctaAccountCreateSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "Give the account a name.")
    .max(ACCOUNT_NAME_MAX, `QuickBooks keeps account names to ${ACCOUNT_NAME_MAX} characters.`)
    .refine((n) => !/[:"]/.test(n), "QuickBooks does not allow a colon (:) or a double quote (\") in an account name.")
    .optional(),
});
export type CtaAccountCreate = z.input<typeof ctaAccountCreateSchema>;
/** The created account, as GET /api/companies/{realmId}/accounts lists it. */
export const ctaAccountCreatedSchema = companyAccountSchema;

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getCta = GET("/cta", { 200: ctaSettingsSchema });
export const putCtaAccount = PUT("/cta/account", { 200: ctaSettingsSchema }, { body: ctaGroupAccountSchema });
export const postCtaAccount = POST("/cta/account", { 200: ctaAccountCreatedSchema }, { body: ctaAccountCreateSchema });
export const putCtaSubsidiary = PUT("/cta/:realmId", { 200: ctaSubsidiarySchema }, { params: realmParamsSchema, body: ctaUpdateSchema });
