import { z } from "zod";
import { onboardingStepSchema } from "@groupledger/domain";
import { GET, PATCH, POST } from "./endpoint.ts";

export const nabAccountsEntrySchema = z.object({
  realmId: z.string().trim().min(1, "realmId is required.").max(32),
  neverABalanceAccountsForCompany: z.array(z.string().trim().min(1).max(64)).max(20_000),
});

export const accountSchema = z.object({
  id: z.string(),
  name: z.string(),
  onboarding: z.boolean(),
  onboardingStep: z.number(),
  nabAccounts: z.array(nabAccountsEntrySchema),
  createdAt: z.string(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountPatchSchema = z
  .strictObject(
    {
      name: z.string().trim().min(1, "Please enter a name.").max(200).optional(),
      onboarding: z.boolean({ error: "onboarding must be true or false." }).optional(),
      onboardingStep: onboardingStepSchema.optional(),
      nabAccounts: z.array(nabAccountsEntrySchema).max(1000).optional(),
    },
    { error: (iss) => (iss.code === "unrecognized_keys" ? `Unknown field: ${iss.keys.join(", ")}.` : undefined) },
  )
  .refine((v) => Object.keys(v).length > 0, { message: "Send at least one of name, onboarding, onboardingStep, nabAccounts." });
export type AccountPatch = z.input<typeof accountPatchSchema>;

export const releaseNotesVersionSchema = z.object({ releaseNotesVersion: z.string() });
export const releaseNotesVersionRequestSchema = z.object({
  version: z.string().regex(/^\d{1,9}$/, "version must be a whole number such as '1'."),
});

export const auditEntrySchema = z.object({
  id: z.number(),
  action: z.string(),
  userEmail: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export const auditListSchema = z.object({ entries: z.array(auditEntrySchema) });
/** How many entries of the audit log, newest first. */
export const auditQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getAccount = GET("/account", { 200: accountSchema });
export const patchAccount = PATCH("/account", { 200: accountSchema }, { body: accountPatchSchema });
export const getAccountAudit = GET("/account/audit", { 200: auditListSchema }, { query: auditQuerySchema });
export const getReleaseNotesVersion = GET("/userpermission/releasenotesversion", { 200: releaseNotesVersionSchema });
export const postReleaseNotesVersion = POST("/userpermission/releasenotesversion", { 200: releaseNotesVersionSchema }, { body: releaseNotesVersionRequestSchema });
