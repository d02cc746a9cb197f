import { comparableCompanyName } from "../coa/company-name.ts";

/**
 * A company's customers and vendors as a pair side offers them: each with the group company it
 * stands for by name ("Northwind UK Ltd." is the company "Northwind UK Limited": accents, case,
 * punctuation and legal forms ignored), or null. Those standing for a group member come first
 * (the usual choice), then by name, then by kind.
 */
export function namesWithGroupMembers<N extends { readonly kind: string; readonly displayName: string }, C extends { readonly companyName: string }>(
  names: readonly N[],
  /** The group's other companies (not the one whose names these are). */
  companies: readonly C[],
): (N & { represents: C | null })[] {
  const keyed = companies.map((company) => ({ key: comparableCompanyName(company.companyName), company }));
  return names
    .map((n) => {
      const key = comparableCompanyName(n.displayName);
      return { ...n, represents: keyed.find((c) => c.key !== "" && c.key === key)?.company ?? null };
    })
    .sort((a, b) => Number(b.represents !== null) - Number(a.represents !== null) || a.displayName.localeCompare(b.displayName) || a.kind.localeCompare(b.kind));
}
