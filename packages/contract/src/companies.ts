import { z } from "zod";
import { DELETE, GET, POST, PUT, noContent } from "./endpoint.ts";

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2026-10-31.");

/** SPEC §3 Company, with what ARCHITECTURE.md adds (currency, fiscal year, ownership, archive). */
export const companySchema = z.object({
  realmId: z.string(),
  companyName: z.string(),
  /** ISO 3166-1 alpha-2, e.g. "US", "GB". */
  country: z.string(),
  /** ISO 4217, from QBO Preferences.CurrencyPrefs.HomeCurrency. */
  homeCurrency: z.string(),
  parent: z.boolean(),
  /** YYYY-MM-DD; known for subsidiaries once synced. */
  earliestTransactionDate: isoDate.nullable(),
  fiscalYearStartMonth: z.number().int().min(1).max(12),
  /** QuickBooks' "Close the books" date (YYYY-MM-DD): nothing dated on or before it can be posted into this company; null: open. */
  bookCloseDate: isoDate.nullable().optional(),
  /** Parent's ownership of this subsidiary, a decimal percentage such as "100" or "80". */
  ownershipPercent: z.string(),
  archivedAt: isoDate.nullable(),
  connectedAt: z.string(),
});
export type Company = z.infer<typeof companySchema>;
export const companiesResponseSchema = z.array(companySchema);

export const connectionStates = ["connected", "needs_reauthorization", "disconnected"] as const;
export const syncStates = ["never", "queued", "running", "succeeded", "failed"] as const;

/** Why a sync read the company's whole history again instead of the months CDC named. */
export const fullSyncReasons = ["first_sync", "cdc_window_passed", "transactions_deleted"] as const;

/** What the last successful sync of a company found changed and read again. */
export const syncChangesSchema = z.object({
  /** incremental: the months from the earliest transaction CDC reported changed; full: the whole history. */
  kind: z.enum(["incremental", "full"]),
  /** A full read's cause: the first sync, the previous one older than CDC's 30 days, a deleted transaction; null when incremental. */
  reason: z.enum(fullSyncReasons).nullable(),
  /** The months read again, "YYYY-MM", both included. */
  from: z.string(),
  to: z.string(),
  months: z.number().int(),
  /** Transactions CDC reported created or changed since the previous sync, by QuickBooks entity ("JournalEntry": 2). */
  changed: z.record(z.string(), z.number().int()),
  /** Transactions CDC reported deleted. */
  deleted: z.number().int(),
});
export type SyncChanges = z.infer<typeof syncChangesSchema>;

/** SPEC §3 "Company status": a map keyed by realmId. */
export const companyStatusSchema = z.object({
  connection: z.enum(connectionStates),
  sync: z.object({
    state: z.enum(syncStates),
    /** 0..1 while running. */
    progress: z.number().min(0).max(1).nullable(),
    message: z.string().nullable(),
    /** When the company was last fresh: the start of its last successful sync (changes after it are read by the next). */
    lastSyncedAt: z.string().nullable(),
    /** What the last successful sync found changed; null before the first (or before syncs kept it). */
    lastChanges: syncChangesSchema.nullable().optional(),
  }),
});
export type CompanyStatus = z.infer<typeof companyStatusSchema>;
export const companyStatusMapSchema = z.record(z.string(), companyStatusSchema);

/** SPEC §3: a foreign currency is in use when an active subsidiary keeps its books in another currency than the parent. */
export function foreignCurrencyInUse(companies: readonly Company[]): boolean {
  const parent = companies.find((c) => c.parent);
  if (!parent) return false;
  return companies.some((c) => !c.parent && c.archivedAt === null && c.homeCurrency !== parent.homeCurrency);
}

export const isoDateSchema = isoDate;

export const realmParamsSchema = z.object({ realmId: z.string().trim().min(1, "realmId is required.").max(32, "realmId is too long.") });
export const setParentRequestSchema = realmParamsSchema;
/** A date archives the company from that day; null brings it back. */
export const archiveRequestSchema = z.object({ date: isoDate.nullable() });
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

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getCompanies = GET("/companies", { 200: companiesResponseSchema });
export const getCompaniesStatus = GET("/companies/status", { 200: companyStatusMapSchema });
export const postCompanyParent = POST("/companies/parent", { 200: companiesResponseSchema }, { body: setParentRequestSchema });
export const deleteCompany = DELETE("/companies/:realmId", noContent, { params: realmParamsSchema });
export const putCompanyDisconnect = PUT("/companies/disconnect/:realmId", noContent, { params: realmParamsSchema });
export const postCompanyArchive = POST("/companies/archive/:realmId", noContent, { params: realmParamsSchema, body: archiveRequestSchema });
export const postCompanySync = POST("/companies/:realmId/sync", { 202: syncStartedSchema }, { params: realmParamsSchema });
export const getCompanyAccounts = GET("/companies/:realmId/accounts", { 200: companyAccountsSchema }, { params: realmParamsSchema });
export const getCompaniesAccounts = GET("/companies/accounts", { 200: accountsByCompanySchema });
export const getNeverABalance = GET("/companies/neverabalance", { 200: neverABalanceResponseSchema }, { query: neverABalanceQuerySchema });
