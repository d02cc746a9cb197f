import { z } from "zod";
import { DELETE, GET, POST } from "./endpoint.ts";
import { realmParamsSchema } from "./companies.ts";

const accountId = z.string().trim().min(1, "Account ids must not be empty.").max(64, "Account ids are at most 64 characters.");
const MAX_PAIRS = 20_000;

/** A map that cannot be used as it is, and why (SPEC §7 "unmap invalid maps"). */
export const invalidMapSchema = z.object({ accountId: z.string(), parentAccountId: z.string(), reason: z.string() });

/**
 * SPEC §3 Account map, per subsidiary: `map` from the subsidiary's account Id to the parent's.
 * `mapped`/`toMap` count accounts with a balance (never-a-balance accounts excluded, SPEC §4).
 */
export const companyMapSchema = z.object({
  realmId: z.string(),
  parentRealmId: z.string(),
  map: z.record(z.string(), z.string()),
  mapped: z.number().int(),
  toMap: z.number().int(),
  /** SPEC §4: mapped count equals the account count, or one more. */
  complete: z.boolean(),
  invalid: z.array(invalidMapSchema),
});
export type CompanyMap = z.infer<typeof companyMapSchema>;
export const companyMapsSchema = z.record(z.string(), companyMapSchema);

/** POST /map: one or more pairs, subsidiary account Id → parent account Id. */
export const mapRequestSchema = z.object({
  map: z
    .record(accountId, accountId)
    .refine((m) => Object.keys(m).length > 0, "Send at least one account to map.")
    .refine((m) => Object.keys(m).length <= MAX_PAIRS, `At most ${MAX_PAIRS} accounts at once.`),
});
/** POST /multimap: several subsidiary accounts onto one parent account each, keyed by the parent account. */
export const multimapRequestSchema = z.object({
  map: z
    .record(accountId, z.array(accountId).min(1, "List at least one subsidiary account.").max(MAX_PAIRS))
    .refine((m) => Object.keys(m).length > 0, "Send at least one parent account."),
});
export const accountIdsRequestSchema = z.object({
  accountIds: z.array(accountId).min(1, "List at least one account.").max(MAX_PAIRS, `At most ${MAX_PAIRS} accounts at once.`),
});

/**
 * A suggested parent account. Only an account's first suggestion can be `confident`: "Accept all
 * suggestions" takes those alone; `caution` says why the first one is not ("Low confidence: detail
 * type differs", "Intercompany: no matching account in the parent").
 */
export const suggestionSchema = z.object({
  parentAccountId: z.string(),
  score: z.number(),
  reasons: z.array(z.string()),
  confident: z.boolean(),
  caution: z.string().nullable(),
});
export const suggestionsResponseSchema = z.object({ suggestions: z.record(z.string(), z.array(suggestionSchema)) });

/** `all=true` ranks every account with a balance, mapped ones too; by default only the unmapped. */
export const suggestionsQuerySchema = z.object({ all: z.enum(["true", "false"]).default("false") });

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getCompanyMap = GET("/companies/:realmId/map", { 200: companyMapSchema }, { params: realmParamsSchema });
export const getCompanyMaps = GET("/companies/maps", { 200: companyMapsSchema });
/** A change to one subsidiary's map: what to change in the body, the map as it now is in the answer. */
const mapChange = <const P extends string, const B extends z.ZodType>(path: P, body: B) =>
  POST(path, { 200: companyMapSchema }, { params: realmParamsSchema, body });
export const postCompanyMap = mapChange("/companies/:realmId/map", mapRequestSchema);
export const postCompanyMultimap = mapChange("/companies/:realmId/multimap", multimapRequestSchema);
export const postCompanyUnmap = mapChange("/companies/:realmId/unmap", accountIdsRequestSchema);
export const deleteCompanyMap = DELETE("/companies/:realmId/map", { 200: companyMapSchema }, { params: realmParamsSchema });
export const postCompanyUnmapInvalid = mapChange("/companies/:realmId/unmap/invalidmaps", accountIdsRequestSchema);
export const getCompanyMapSuggestions = GET("/companies/:realmId/map/suggestions", { 200: suggestionsResponseSchema }, { params: realmParamsSchema, query: suggestionsQuerySchema });
