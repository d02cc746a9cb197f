import type { Company } from "@groupledger/contract";
import type { companies } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";

/** A connected company as stored (`companies` row). */
export type CompanyRow = typeof companies.$inferSelect;

/**
 * The other wording of "that realm is not yours" (404 not_found), answered by the companies,
 * mapping, CTA and opening-balance routes; the rest say `Company <realmId> is not in your account.`
 * Both are kept as clients see them today.
 */
export const NO_SUCH_COMPANY = "No such company in your account.";

/**
 * An account's group: its companies, the parent (at most one, a unique index says so) and the
 * subsidiaries. Every feature reads the group through this, so "which company is the parent",
 * "is this realm ours" and the errors that answer them are written once.
 */
export interface Group {
  /** Every company of the account: the parent first, then subsidiaries by name (the order every screen lists them in). */
  readonly companies: readonly CompanyRow[];
  readonly parent: CompanyRow | null;
  /** Every company but the parent, archived ones included. */
  readonly subsidiaries: readonly CompanyRow[];
  /** The subsidiaries not archived: the ones in the group today. */
  readonly unarchivedSubsidiaries: readonly CompanyRow[];
  /** The account's company with this realm id, if it has one. */
  find(realmId: string): CompanyRow | undefined;
  /**
   * The account's company with this realm id, or 404 not_found: another account's realm is
   * indistinguishable from none. The message is `Company <realmId> is not in your account.` unless
   * the caller answers with another (`NO_SUCH_COMPANY`).
   */
  company(realmId: string, notFoundMessage?: string): CompanyRow;
  /**
   * The parent, or 409 parent_required "Choose a parent company first." — with `why`, "Choose a
   * parent company first: <why>." (why the feature needs one, without the final period).
   */
  requireParent(why?: string): CompanyRow;
}

/** The group of an account's companies, given as `loadGroup` reads them (parent first, then by name). */
export function groupOf(rows: readonly CompanyRow[]): Group {
  const parent = rows.find((c) => c.isParent) ?? null;
  const subsidiaries = rows.filter((c) => !c.isParent);
  const byRealm = new Map(rows.map((c) => [c.realmId, c]));
  return {
    companies: rows,
    parent,
    subsidiaries,
    unarchivedSubsidiaries: subsidiaries.filter((c) => !c.archivedAt),
    find: (realmId) => byRealm.get(realmId),
    company(realmId, notFoundMessage = `Company ${realmId} is not in your account.`) {
      const company = byRealm.get(realmId);
      if (!company) throw errors.notFound(notFoundMessage);
      return company;
    },
    requireParent(why) {
      if (!parent) throw errors.conflict("parent_required", why ? `Choose a parent company first: ${why}.` : "Choose a parent company first.");
      return parent;
    },
  };
}

/** A company as the API shows it. */
export const toCompany = (c: CompanyRow): Company => ({
  realmId: c.realmId,
  companyName: c.companyName,
  country: c.country,
  homeCurrency: c.homeCurrency,
  parent: c.isParent,
  earliestTransactionDate: c.earliestTransactionDate,
  fiscalYearStartMonth: c.fiscalYearStartMonth,
  bookCloseDate: c.bookCloseDate,
  ownershipPercent: String(Number(c.ownershipPercent)),
  archivedAt: c.archivedAt,
  connectedAt: c.createdAt.toISOString(),
});
