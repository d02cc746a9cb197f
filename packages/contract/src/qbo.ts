import { z } from "zod";
import { companySchema, isoDateSchema } from "./companies.ts";

/** SPEC §7: GET /api/qbo/account/authorize. `key` is the app's client id; `authorizeUrl` the consent page to open in the pop-up. */
export const authorizeResponseSchema = z.object({
  key: z.string(),
  authorizeUrl: z.string(),
  /** Seconds until this attempt's state expires (10 minutes). */
  expiresInSeconds: z.number().int(),
});
export type AuthorizeResponse = z.infer<typeof authorizeResponseSchema>;

/** What /qbo/auth/complete received from QuickBooks, passed on as is. */
export const authorizationCallbackSchema = z.object({
  state: z.string().min(1, "The authorization response has no state.").max(200),
  code: z.string().min(1).max(2000).optional(),
  realmId: z.string().min(1).max(32).optional(),
  error: z.string().max(200).optional(),
  errorDescription: z.string().max(2000).optional(),
});
export type AuthorizationCallbackRequest = z.infer<typeof authorizationCallbackSchema>;
export const authorizationResultSchema = z.object({
  company: companySchema,
  /** True when this realm was already connected to this account and was re-authorized in place. */
  reconnected: z.boolean(),
});
export type AuthorizationResult = z.infer<typeof authorizationResultSchema>;

/** SPEC §4: messages the pop-up posts to its opener. */
export const AUTHORIZATION_COMPLETE = "AUTHORIZATION_COMPLETE";
export const AUTHORIZATION_FAILED = "AUTHORIZATION_FAILED";
export const popupMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal(AUTHORIZATION_COMPLETE), realmId: z.string(), companyName: z.string() }),
  z.object({ type: z.literal(AUTHORIZATION_FAILED), error: z.string() }),
]);
export type PopupMessage = z.infer<typeof popupMessageSchema>;

export const realmParamsSchema = z.object({ realmId: z.string().trim().min(1, "realmId is required.").max(32, "realmId is too long.") });
export const setParentRequestSchema = realmParamsSchema;
/** A date archives the company from that day; null brings it back. */
export const archiveRequestSchema = z.object({ date: isoDateSchema.nullable() });
export const syncStartedSchema = z.object({ jobId: z.string(), alreadyRunning: z.boolean() });

/** SPEC §3 "Company accounts": each with an Id (QBO's id), plus what the mapping grid shows. */
export const companyAccountSchema = z.object({
  Id: z.string(),
  name: z.string(),
  fullyQualifiedName: z.string(),
  acctNum: z.string().nullable(),
  accountType: z.string(),
  accountSubType: z.string().nullable(),
  classification: z.string(),
  currency: z.string(),
  active: z.boolean(),
  /** False for a never-a-balance account. */
  everHadBalance: z.boolean(),
  /**
   * Minor units of `currency`, null before the first sync: a balance-sheet account's closing balance
   * at the end of `latestMonth` (the latest synced month), an income or expense account's activity in
   * `latestMonth`, the last full month (the current one is still being booked).
   */
  latestAmount: z.number().int().nullable(),
  latestMonth: z.string().nullable(),
});
export type CompanyAccount = z.infer<typeof companyAccountSchema>;
export const companyAccountsSchema = z.array(companyAccountSchema);
export const accountsByCompanySchema = z.record(z.string(), companyAccountsSchema);

export const neverABalanceQuerySchema = z
  .object({
    realmId: z.string().trim().min(1).max(32).optional(),
    forAllCompanies: z.enum(["true", "false"], { error: "forAllCompanies must be true or false." }).default("false"),
    status: z.enum(["active", "inactive", "all"], { error: "status must be active, inactive or all." }).default("all"),
  })
  .refine((q) => q.forAllCompanies === "true" || q.realmId !== undefined, { message: "Give a realmId, or forAllCompanies=true." });
/** Same shape as the account record's nabAccounts entries. */
export const neverABalanceResponseSchema = z.array(
  z.object({ realmId: z.string(), neverABalanceAccountsForCompany: z.array(z.string()) }),
);
