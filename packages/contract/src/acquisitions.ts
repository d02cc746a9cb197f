import { z } from "zod";
import { ownershipPercentSchema } from "./cta.ts";
import { DELETE, GET, PUT, noContent } from "./endpoint.ts";
import { realmParamsSchema } from "./companies.ts";

/**
 * Acquisitions (issue 16): per subsidiary, how the parent acquired it. The consolidation eliminates
 * the investment against the subsidiary's equity at acquisition, with goodwill (or a bargain
 * purchase gain) and the non-controlling interests at acquisition.
 *
 * Amounts are integer minor units. `consideration` and `nciFairValue` are in the parent's
 * currency; equity and fair-value adjustments in the subsidiary's own currency, debit positive
 * (so equity, a credit, is negative), as every trial balance in GroupLedger.
 */

export const nciMeasurements = ["proportionateShare", "fairValue"] as const;
export const fairValueKinds = ["intangible", "inventory", "ppe", "other"] as const;
export const translationMethods = ["currentRate", "temporal"] as const;

/** The longest useful life a fair-value adjustment may state: 100 years. */
export const FAIR_VALUE_LIFE_MAX_MONTHS = 1200;

const accountId = (what: string) => z.string({ error: `Choose ${what}.` }).trim().min(1, `Choose ${what}.`).max(64);
const minor = z.number({ error: "Give an amount in minor units (cents)." }).int("Give an amount in whole minor units (cents).").safe();

/** A real calendar date written YYYY-MM-DD. */
export const calendarDateSchema = z
  .string({ error: "Give the date as YYYY-MM-DD, e.g. 2023-01-31." })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Give the date as YYYY-MM-DD, e.g. 2023-01-31.")
  .refine((d) => {
    const t = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
  }, "That date does not exist.");

export const fairValueAdjustmentSchema = z.strictObject({
  description: z.string().trim().min(1, "Describe the adjustment, e.g. \"Customer relationships\".").max(200),
  kind: z.enum(fairValueKinds, { error: "kind is intangible, inventory, ppe or other." }),
  assetAccountId: accountId("the parent's asset account the adjustment shows on"),
  /** Subsidiary's currency, minor units, debit positive: an uplift is positive. */
  amount: minor.refine((n) => n !== 0, "An adjustment of zero changes nothing; remove it instead."),
  usefulLifeMonths: z
    .number({ error: "Give the adjustment's useful life in months (1 or more); inventory's is the months in which it is sold." })
    .int("Give the useful life in whole months.")
    .min(1, "Give the adjustment's useful life in months (1 or more); inventory's is the months in which it is sold.")
    .max(FAIR_VALUE_LIFE_MAX_MONTHS, `A useful life is at most ${FAIR_VALUE_LIFE_MAX_MONTHS} months.`),
  expenseAccountId: accountId("the parent's expense account its amortisation goes to"),
});
export type FairValueAdjustment = z.infer<typeof fairValueAdjustmentSchema>;

export const equityAtAcquisitionLineSchema = z.strictObject({
  accountId: accountId("the subsidiary's equity account"),
  /** Subsidiary's currency, minor units, debit positive (equity is a credit, so negative). */
  localAmount: minor,
});

/** The most later changes in ownership one acquisition may list. */
export const OWNERSHIP_CHANGES_MAX = 24;

/**
 * A later purchase or sale of the subsidiary's shares that keeps control: an equity transaction
 * (IFRS 10.23 and B96, ASC 810-10-45-23). It takes effect at the end of the month of its date.
 */
export const ownershipChangeSchema = z.strictObject({
  effectiveOn: calendarDateSchema,
  /** The parent's share after the change. */
  ownershipPercent: ownershipPercentSchema,
  /** Paid for the shares bought, or received for the shares sold: parent's currency, minor units. */
  consideration: minor.refine((n) => n >= 0, "The consideration is what was paid or received: zero or more."),
  /** The parent account its books put the consideration on; null: the investment account. */
  accountId: z.string().trim().min(1).max(64).nullable().default(null),
});
export type OwnershipChange = z.infer<typeof ownershipChangeSchema>;

/** PUT /api/acquisitions/{realmId}: everything at once (the screen confirms the proposal or edits it). */
export const acquisitionInputSchema = z
  .strictObject({
    acquiredOn: calendarDateSchema,
    ownershipPercent: ownershipPercentSchema,
    consideration: minor.refine((n) => n > 0, "The consideration is what the parent paid, more than zero."),
    investmentAccountId: accountId("the parent's account that holds the investment"),
    nciMeasurement: z.enum(nciMeasurements, { error: "nciMeasurement is proportionateShare or fairValue." }).default("proportionateShare"),
    nciFairValue: minor.refine((n) => n > 0, "The NCI's fair value is more than zero.").nullable().default(null),
    equityAtAcquisition: z.array(equityAtAcquisitionLineSchema).min(1, "Give the subsidiary's equity at acquisition.").max(200),
    fairValueAdjustments: z.array(fairValueAdjustmentSchema).max(50).default([]),
    ownershipChanges: z.array(ownershipChangeSchema).max(OWNERSHIP_CHANGES_MAX, `List at most ${OWNERSHIP_CHANGES_MAX} changes in ownership.`).default([]),
  })
  .superRefine((v, ctx) => {
    if (v.nciMeasurement === "fairValue" && v.nciFairValue === null) {
      ctx.addIssue({ code: "custom", path: ["nciFairValue"], message: "Give the NCI's fair value at acquisition, or measure it at its share of net assets." });
    }
    if (v.nciMeasurement === "proportionateShare" && v.nciFairValue !== null) {
      ctx.addIssue({ code: "custom", path: ["nciFairValue"], message: "A fair value is used only when the NCI is measured at fair value." });
    }
    if (v.nciMeasurement === "fairValue" && Number(v.ownershipPercent) === 100) {
      ctx.addIssue({ code: "custom", path: ["nciMeasurement"], message: "The subsidiary is wholly owned: there is no NCI to measure at fair value." });
    }
    // Changes: each in a later month than the one before (the books are monthly), each moving the share.
    let month = v.acquiredOn.slice(0, 7);
    let share = v.ownershipPercent;
    v.ownershipChanges.forEach((c, i) => {
      const at = c.effectiveOn.slice(0, 7);
      if (at <= month) {
        ctx.addIssue({
          code: "custom",
          path: ["ownershipChanges", i, "effectiveOn"],
          message: i === 0 ? "A change in ownership comes in a month after the acquisition's." : "List the changes in date order, at most one a month.",
        });
      } else if (Number(c.ownershipPercent) === Number(share)) {
        ctx.addIssue({ code: "custom", path: ["ownershipChanges", i, "ownershipPercent"], message: `The share is already ${Number(share)}% then; a change moves it.` });
      }
      month = at > month ? at : month;
      share = c.ownershipPercent;
    });
    if (v.ownershipChanges.length > 0 && v.fairValueAdjustments.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["ownershipChanges"],
        message: "Changes in ownership of a subsidiary with fair-value adjustments are not supported yet: the adjustments' share between the parent and the NCI would have to be re-attributed too. Record one or the other.",
      });
    }
    const seen = new Set<string>();
    v.equityAtAcquisition.forEach((l, i) => {
      if (seen.has(l.accountId)) ctx.addIssue({ code: "custom", path: ["equityAtAcquisition", i, "accountId"], message: "This account is listed twice." });
      seen.add(l.accountId);
    });
  });
export type AcquisitionInput = z.input<typeof acquisitionInputSchema>;
/** The body once validated, defaults filled in. */
export type AcquisitionRequest = z.infer<typeof acquisitionInputSchema>;

const accountOption = z.object({ accountId: z.string(), name: z.string(), acctNum: z.string().nullable() });

/** The figures an acquisition gives, computed exactly as the consolidation computes them. */
export const acquisitionFiguresSchema = z.object({
  /** The month-end the acquisition takes effect at: the books are monthly. */
  acquisitionMonth: z.string(),
  /** Parent units per one subsidiary unit at that month-end; "1" for a same-currency subsidiary; null when missing. */
  closingRate: z.string().nullable(),
  /** Credit positive, parent currency minor units (null without a rate). */
  netAssets: z.number().int().nullable(),
  fairValueAdjustments: z.number().int().nullable(),
  nciAtAcquisition: z.number().int().nullable(),
  /** consideration + NCI − net assets (with fair-value adjustments); negative: a bargain purchase gain. */
  goodwill: z.number().int().nullable(),
});
export type AcquisitionFigures = z.infer<typeof acquisitionFiguresSchema>;

const acquisitionBody = z.object({
  acquiredOn: z.string(),
  ownershipPercent: z.string(),
  consideration: z.number().int(),
  investmentAccountId: z.string(),
  nciMeasurement: z.enum(nciMeasurements),
  nciFairValue: z.number().int().nullable(),
  equityAtAcquisition: z.array(z.object({ accountId: z.string(), name: z.string(), acctNum: z.string().nullable(), localAmount: z.number().int() })),
  fairValueAdjustments: z.array(fairValueAdjustmentSchema),
  ownershipChanges: z.array(z.object({ effectiveOn: z.string(), ownershipPercent: z.string(), consideration: z.number().int(), accountId: z.string().nullable() })),
});
export type AcquisitionBody = z.infer<typeof acquisitionBody>;

export const acquisitionSubsidiarySchema = z.object({
  realmId: z.string(),
  companyName: z.string(),
  currency: z.string(),
  /** False for a subsidiary that keeps its books in the parent's currency. */
  translated: z.boolean(),
  /** The acquisition as saved; null until the user confirms one. */
  saved: acquisitionBody.nullable(),
  savedFigures: acquisitionFiguresSchema.nullable(),
  /** What GroupLedger reads from the books, for the user to confirm or edit; null when nothing can be proposed. */
  proposal: acquisitionBody.nullable(),
  proposalFigures: acquisitionFiguresSchema.nullable(),
  /** How each proposed figure was found, in words. */
  reasons: z.array(z.string()),
  /** What stops the proposal or the consolidation, in words. */
  problems: z.array(z.string()),
  /** The subsidiary's equity accounts (the lines of equity at acquisition). */
  equityAccounts: z.array(accountOption),
});
export type AcquisitionSubsidiary = z.infer<typeof acquisitionSubsidiarySchema>;

export const acquisitionsSchema = z.object({
  parentRealmId: z.string().nullable(),
  parentCurrency: z.string().nullable(),
  /** The parent's asset accounts (the investment; fair-value adjustments' asset). */
  assetAccounts: z.array(accountOption),
  /** The parent's expense accounts (amortisation of fair-value adjustments). */
  expenseAccounts: z.array(accountOption),
  subsidiaries: z.array(acquisitionSubsidiarySchema),
});
export type Acquisitions = z.infer<typeof acquisitionsSchema>;

// --- Endpoints ----------------------------------------------------------------------------

export const getAcquisitions = GET("/acquisitions", { 200: acquisitionsSchema });
export const putAcquisition = PUT("/acquisitions/:realmId", { 200: acquisitionSubsidiarySchema }, { params: realmParamsSchema, body: acquisitionInputSchema });
export const deleteAcquisition = DELETE("/acquisitions/:realmId", noContent, { params: realmParamsSchema });
