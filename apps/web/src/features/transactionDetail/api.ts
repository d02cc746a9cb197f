import { getTransactionDetail } from "@groupledger/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";
import type { DetailQuery } from "./model.ts";

export const transactionDetailKeys = {
  all: ["transactionDetail"] as const,
  detail: (q: DetailQuery) => ["transactionDetail", q.account, q.from, q.to, q.realmId ?? "all"] as const,
};

export const transactionDetailApi = {
  get: (q: DetailQuery, signal?: AbortSignal) =>
    call(getTransactionDetail, { query: { account: q.account, from: q.from, to: q.to, ...(q.realmId ? { realmId: q.realmId } : {}) } }, signal ? { signal } : {}),
};

/** The transactions behind a parent account for a range; read from each company's QuickBooks ledger, so kept for a minute only. */
export function useTransactionDetail(query: DetailQuery | null) {
  return useQuery({
    queryKey: query ? transactionDetailKeys.detail(query) : ["transactionDetail", "none"],
    queryFn: ({ signal }) => transactionDetailApi.get(query!, signal),
    enabled: query !== null,
    staleTime: 60_000,
  });
}
