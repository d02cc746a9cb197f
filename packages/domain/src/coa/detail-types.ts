import type { ChartAccount } from "./mapping-rules.ts";

/**
 * What an account holds, as far as its QuickBooks detail type (AccountSubType) and, for the
 * catch-all detail types, its name tell: the mapping suggestions' test of "the same kind of
 * account". A tax payable and a payroll liability are both "Other Current Liability" in QuickBooks;
 * their natures differ, so one never lands on the other without a person deciding.
 */

/**
 * Detail types that say nothing about the contents ("Other current liabilities"): an account of
 * one of these is known only by its name, and two of them are alike only if their names say so.
 */
export const CATCH_ALL_DETAIL_TYPES: ReadonlySet<string> = new Set([
  "OtherCurrentAssets",
  "OtherAssets",
  "OtherLongTermAssets",
  "OtherFixedAssets",
  "OtherCurrentLiabilities",
  "OtherLongTermLiabilities",
  "OtherPrimaryIncome",
  "OtherMiscellaneousIncome",
  "OtherMiscellaneousServiceCost",
  "OtherMiscellaneousExpense",
  "OtherBusinessExpenses",
]);

/**
 * Detail types QuickBooks keeps apart but an accountant treats as one kind: VAT/GST ("global tax")
 * is the parent's sales tax, a savings account its money market account, an LLC member's capital
 * its share capital. Any detail type not listed is its own kind.
 */
const SAME_KIND: Readonly<Record<string, string>> = {
  Savings: "savings",
  MoneyMarket: "savings",
  SalesTaxPayable: "salesTax",
  GlobalTaxPayable: "salesTax",
  FederalIncomeTaxPayable: "incomeTax",
  StateLocalIncomeTaxPayable: "incomeTax",
  IncomeTaxPayable: "incomeTax",
  PayrollTaxPayable: "payroll",
  PayrollClearing: "payroll",
  NotesPayable: "debt",
  LoanPayable: "debt",
  ShareholderNotesPayable: "relatedParty",
  CommonStock: "shareCapital",
  PartnerContributions: "shareCapital",
  DividendDisbursed: "distributions",
  PartnerDistributions: "distributions",
  TravelMeals: "meals",
  EntertainmentMeals: "meals",
};

/**
 * Natures a catch-all account's name reveals, first match wins (so "Steuerrückstellungen", a tax
 * provision, is income tax before it is a provision, and "PAYE" payroll before income tax). Names
 * are compared lower-case without accents; English, with the German, French and Canadian terms the
 * subsidiaries' charts use.
 */
const NAME_NATURES: readonly (readonly [string, RegExp])[] = [
  ["relatedParty", /\b(directors?|shareholders?|officers?|owners?|gesellschafter\w*)\b/],
  ["retirement", /\b(401 ?k|pensions?|retirement|superannuation|rrsp|altersvorsorge)\b/],
  ["payroll", /\b(payroll|paye|wages|salar(y|ies)|source deductions|wsib|workers comp\w*|vacation pay|holiday pay|social security|sozialen sicherheit|sozialversicherung\w*|lohn\w*|gehalt\w*)\b/],
  ["incomeTax", /\b(income tax(es)?|corporation tax|corporate tax|franchise tax|korperschaftsteuer|gewerbesteuer|steuerruckstellung(en)?|ertragsteuer\w*|impots? sur le revenu)\b/],
  ["salesTax", /\b(vat|gst|hst|pst|qst|sales tax|use tax|umsatzsteuer|vorsteuer|mwst|tva)\b/],
  ["accrued", /\b(accrued|accruals?|provisions?|ruckstellung(en)?)\b/],
  ["debt", /\b(loans?|debt|borrowings?|notes? payable|hire purchase|darlehen|kredit\w*|mortgage|financing)\b/],
  ["freight", /\b(freight|shipping|carriage|fracht)\b/],
  ["fx", /\b(exchange|kursdifferenz\w*|foreign currency|forex|fx)\b/],
  ["gainOnDisposal", /\b((gains?|loss(es)?) on (the )?(sale|disposal)|disposal of|anlagenabgang|anlagenverkauf)\b/],
];

/** Lower case, accents and punctuation gone: "Steuerrückstellungen" → "steuerruckstellungen", "401(k)" → "401 k". */
export const plainName = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

export const isCatchAll = (accountSubType: string | null): boolean => accountSubType === null || CATCH_ALL_DETAIL_TYPES.has(accountSubType);

/** The nature a name reveals, or null. */
export function natureFromName(name: string): string | null {
  const plain = plainName(name);
  return NAME_NATURES.find(([, re]) => re.test(plain))?.[0] ?? null;
}

/**
 * What the account holds: its detail type's kind, or for a catch-all detail type what its name
 * reveals (null when the name says nothing either).
 */
export function natureOf(a: Pick<ChartAccount, "name" | "accountSubType">): string | null {
  if (!isCatchAll(a.accountSubType)) return SAME_KIND[a.accountSubType ?? ""] ?? a.accountSubType;
  return natureFromName(a.name);
}

/**
 * How well a subsidiary account's detail type agrees with a parent account's, best first:
 * - "same": the same specific detail type;
 * - "kind": the same nature (VAT onto sales tax; "Corporation Tax", a catch-all, onto income tax payable);
 * - "name": the same catch-all detail type and names that say the same thing, where neither name
 *   reveals a nature;
 * - "none": anything else, including a catch-all account whose name says nothing.
 */
export type DetailAgreement = "same" | "kind" | "name" | "none";

export const DETAIL_RANK: Readonly<Record<DetailAgreement, number>> = { same: 3, kind: 2, name: 1, none: 0 };

/** Names at least this similar (nameSimilarity) say the same thing. */
export const SAME_NAME = 0.6;

export function detailAgreement(sub: Pick<ChartAccount, "name" | "accountSubType">, parent: Pick<ChartAccount, "name" | "accountSubType">, similarity: number): DetailAgreement {
  if (!isCatchAll(sub.accountSubType) && sub.accountSubType === parent.accountSubType) return "same";
  const a = natureOf(sub);
  const b = natureOf(parent);
  if (a !== null && a === b) return "kind";
  if (a === null && b === null && isCatchAll(sub.accountSubType) && sub.accountSubType === parent.accountSubType && similarity >= SAME_NAME) return "name";
  return "none";
}
