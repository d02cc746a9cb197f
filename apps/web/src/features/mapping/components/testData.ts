import type { CompanyAccount, CompanyMap } from "@groupledger/contract";

/** A chart account as GET /companies/{realmId}/accounts answers it, with the usual defaults. */
export function acct(Id: string, name: string, over: Partial<CompanyAccount> = {}): CompanyAccount {
  return {
    Id,
    name,
    fullyQualifiedName: name,
    acctNum: null,
    accountType: "Bank",
    accountSubType: "Checking",
    classification: "Asset",
    currency: "USD",
    active: true,
    everHadBalance: true,
    latestAmount: 0,
    latestMonth: "2026-02",
    ...over,
  };
}

export function companyMap(realmId: string, map: Record<string, string>, over: Partial<CompanyMap> = {}): CompanyMap {
  return { realmId, parentRealmId: "P", map, mapped: Object.keys(map).length, toMap: 10, complete: false, invalid: [], ...over };
}

/**
 * `n` subsidiary accounts cycling through the five classifications, with a parent chart of
 * `parents` accounts to map onto: the bench's and the virtualization test's data.
 */
export function bigCharts(n: number, parents = 300) {
  const kinds = [
    { classification: "Asset", accountType: "Bank", accountSubType: "Checking" },
    { classification: "Liability", accountType: "Accounts Payable", accountSubType: "AccountsPayable" },
    { classification: "Equity", accountType: "Equity", accountSubType: "RetainedEarnings" },
    { classification: "Revenue", accountType: "Income", accountSubType: "SalesOfProductIncome" },
    { classification: "Expense", accountType: "Expense", accountSubType: "OfficeGeneralAdministrativeExpenses" },
  ] as const;
  const sub = Array.from({ length: n }, (_, i) =>
    acct(`s${i}`, `Account ${i} ${kinds[i % 5]!.accountType}`, {
      ...kinds[i % 5]!,
      acctNum: String(10000 + i),
      currency: "GBP",
      latestAmount: (i * 7919) % 10_000_000 - 5_000_000,
      everHadBalance: i % 13 !== 0,
    }),
  );
  const parent = Array.from({ length: parents }, (_, i) => acct(`p${i}`, `Parent ${i} ${kinds[i % 5]!.accountType}`, { ...kinds[i % 5]!, acctNum: String(1000 + i) }));
  // A parent account of the same kind as subsidiary account k, so every map and suggestion is compatible.
  const sameKind = (k: number, spread: number) => `p${5 * (spread % Math.floor(parents / 5)) + (k % 5)}`;
  const map = Object.fromEntries(sub.filter((_, k) => k % 3 === 0).map((a, k) => [a.Id, sameKind(k * 3, k)]));
  const suggestions = Object.fromEntries(
    sub
      .map((a, k) => [a, k] as const)
      .filter(([a]) => !(a.Id in map))
      .map(([a, k]) => [a.Id, [{ parentAccountId: sameKind(k, k * 7), score: 0.62, reasons: ["same type", "similar name (71%)"], confident: k % 4 !== 0, caution: k % 4 !== 0 ? null : "Low confidence: several parent accounts fit" }]]),
  );
  return { sub, parent, map, suggestions };
}
