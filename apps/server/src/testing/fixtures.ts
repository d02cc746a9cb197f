import { expect } from "vitest";
import { AppError } from "../http/errors.ts";
import type { CompanyRow } from "../modules/group/group.ts";

/*
 * Fixtures shared by the server's unit tests beside the code (`*.test.ts` under src); nothing
 * outside tests imports this.
 */

/** A stored company (`companies` row) with plain defaults: a connected USD subsidiary. */
export const companyRow = (realmId: string, over: Partial<CompanyRow> = {}): CompanyRow => ({
  id: `company-${realmId}`,
  realmId,
  accountId: "acc-1",
  companyName: `Company ${realmId}`,
  country: "US",
  homeCurrency: "USD",
  isParent: false,
  ownershipPercent: "100",
  archivedAt: null,
  fiscalYearStartMonth: 1,
  earliestTransactionDate: null,
  bookCloseDate: null,
  connection: "connected",
  syncState: "succeeded",
  syncProgress: null,
  syncMessage: null,
  lastSyncedAt: null,
  lastSyncChanges: null,
  booksVersion: 0,
  ctaAccountId: null,
  createdAt: new Date("2026-01-02T03:04:05Z"),
  updatedAt: new Date("2026-01-02T03:04:05Z"),
  ...over,
});

/** What a call throws, as the client sees it: the AppError's status, code and message. */
export function thrown(fn: () => unknown): { status: number; code: string; message: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    const { status, code, message } = e as AppError;
    return { status, code, message };
  }
  throw new Error("expected a throw");
}
