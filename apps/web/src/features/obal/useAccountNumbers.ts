import { getCompanyAccounts } from "@groupledger/contract";
import { useQueries } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";
import { companyKeys } from "../companies/api.ts";

/**
 * Account numbers (QBO AcctNum) by account id for each company's chart, under the companies
 * feature's cache key so a chart already loaded elsewhere is not fetched again. They only label
 * the trial balance: a chart that fails to load leaves the labels off and raises no error bar.
 */
export function useAccountNumbers(companies: { realmId: string; lastSyncedAt: string | null }[]): Map<string, ReadonlyMap<string, string>> {
  const results = useQueries({
    queries: companies.map((c) => ({
      queryKey: companyKeys.accounts(c.realmId, c.lastSyncedAt),
      queryFn: ({ signal }: { signal: AbortSignal }) => call(getCompanyAccounts, { params: { realmId: c.realmId } }, { signal, skipGlobalHandler: true }),
      staleTime: 5 * 60_000,
      retry: false,
    })),
  });
  return new Map(
    companies.map((c, i) => [c.realmId, new Map((results[i]?.data ?? []).flatMap((a) => (a.acctNum ? [[a.Id, a.acctNum] as const] : [])))]),
  );
}
