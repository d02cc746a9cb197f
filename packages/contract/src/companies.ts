import { z } from "zod";

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

/** SPEC §3 "Company status": a map keyed by realmId. */
export const companyStatusSchema = z.object({
  connection: z.enum(connectionStates),
  sync: z.object({
    state: z.enum(syncStates),
    /** 0..1 while running. */
    progress: z.number().min(0).max(1).nullable(),
    message: z.string().nullable(),
    lastSyncedAt: z.string().nullable(),
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
