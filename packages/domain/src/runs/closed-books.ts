/**
 * QuickBooks' "Close the books" (Preferences AccountingInfoPrefs.BookCloseDate): QuickBooks refuses,
 * through its API, to create, change or delete a transaction dated on or before the closing date
 * (Intuit errors 6200/6210). GroupLedger refuses such a posting before sending it, naming the date
 * and what to do; a refusal from QuickBooks itself (the date moved since the last sync) says the same.
 */

/** Where the closing date is kept in QuickBooks Online. */
export const CLOSE_THE_BOOKS_SETTING = "Settings → Account and settings → Advanced → Accounting → Close the books";

export interface ClosedBooksCompany {
  companyName: string;
  /** YYYY-MM-DD, or null when the books are open. */
  bookCloseDate: string | null;
}

/** True when an entry dated `txnDate` (YYYY-MM-DD) falls in the company's closed books. */
export const inClosedBooks = (company: Pick<ClosedBooksCompany, "bookCloseDate">, txnDate: string): boolean =>
  company.bookCloseDate !== null && txnDate <= company.bookCloseDate;

/**
 * Why `what` (e.g. "the opening entry of Northwind UK Ltd") dated `txnDate` cannot be posted into
 * the company's QuickBooks, or null when its books are open on that date. `instead` is the way
 * round it in GroupLedger (e.g. "choose a later opening month").
 */
export function closedBooksReason(company: ClosedBooksCompany, txnDate: string, what: string, instead: string): string | null {
  if (!inClosedBooks(company, txnDate)) return null;
  return (
    `${company.companyName}'s books are closed through ${company.bookCloseDate} in QuickBooks, so ${what}, dated ${txnDate}, cannot be posted there. ` +
    `Either ${instead}, or move the closing date before ${txnDate} in QuickBooks (${CLOSE_THE_BOOKS_SETTING}), sync ${company.companyName} and post again.`
  );
}

/** QuickBooks itself refused (its closing date moved after the last sync): the same advice without the date. */
export function closedBooksRefusal(companyName: string, txnDate: string, what: string): string {
  return (
    `QuickBooks refused ${what}, dated ${txnDate}: ${companyName}'s books are closed on that date (Account Period Closed). ` +
    `Move the closing date before ${txnDate} in QuickBooks (${CLOSE_THE_BOOKS_SETTING}), sync ${companyName} and post again. Nothing was posted.`
  );
}
