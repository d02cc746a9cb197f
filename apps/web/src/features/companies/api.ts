import {
  deleteCompany,
  getCompanies,
  getCompaniesAccounts,
  getCompaniesStatus,
  getCompanyAccounts,
  getQboAuthorize,
  getQboCalls,
  postCompanyArchive,
  postCompanyParent,
  postCompanySync,
  postQboCallback,
  putCompanyDisconnect,
  type AuthorizationCallbackRequest,
  type CompanyStatus,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/http.ts";

export type StatusMap = Record<string, CompanyStatus>;

/** Everything about companies lives under ["companies"], so one invalidation refreshes list, status and accounts. */
export const companyKeys = {
  all: ["companies"] as const,
  list: ["companies"] as const,
  status: ["companies", "status"] as const,
  calls: ["companies", "calls"] as const,
  /** Keyed by the last sync time too: a finished sync is new data, fetched without an explicit invalidation. */
  accounts: (realmId: string, lastSyncedAt: string | null) => ["companies", "accounts", realmId, lastSyncedAt] as const,
};


export const companiesApi = {
  list: (signal?: AbortSignal) => call(getCompanies, {}, { signal }),
  status: (signal?: AbortSignal) => call(getCompaniesStatus, {}, { signal }),
  calls: (signal?: AbortSignal) => call(getQboCalls, {}, { signal }),
  accounts: (realmId: string, signal?: AbortSignal) => call(getCompanyAccounts, { params: { realmId } }, { signal }),
  allAccounts: (signal?: AbortSignal) => call(getCompaniesAccounts, {}, { signal }),
  setParent: (realmId: string) => call(postCompanyParent, { body: { realmId } }),
  remove: (realmId: string) => call(deleteCompany, { params: { realmId } }),
  disconnect: (realmId: string) => call(putCompanyDisconnect, { params: { realmId } }),
  archive: (realmId: string, date: string | null) => call(postCompanyArchive, { params: { realmId }, body: { date } }),
  sync: (realmId: string) => call(postCompanySync, { params: { realmId } }),
};

/**
 * The QuickBooks connection calls. Both run inside the pop-up, which shows or posts its own
 * errors, so they bypass the global handler (no error bar or page reload inside a 600x544 window).
 */
export const qboApi = {
  authorize: () => call(getQboAuthorize, {}, { skipGlobalHandler: true }),
  callback: (body: AuthorizationCallbackRequest) => call(postQboCallback, { body }, { skipGlobalHandler: true }),
};

export function useCompanies() {
  return useQuery({ queryKey: companyKeys.list, queryFn: ({ signal }) => companiesApi.list(signal) });
}

/** A sync that is waiting or under way: its company's status is polled until it ends. */
export function syncActive(status: CompanyStatus | undefined): boolean {
  return status?.sync.state === "queued" || status?.sync.state === "running";
}

export const STATUS_POLL_MS = 1000;

/** GET /api/companies/status, polled every second while any company is syncing (progress is shown live). */
export function useCompanyStatus() {
  return useQuery({
    queryKey: companyKeys.status,
    queryFn: ({ signal }) => companiesApi.status(signal),
    refetchInterval: (query) => (Object.values(query.state.data ?? {}).some(syncActive) ? STATUS_POLL_MS : false),
  });
}

/** GET /api/companies/calls: each company's requests to QuickBooks today and this month, and the group's month against Intuit's allowance. */
export function useQboCalls() {
  return useQuery({ queryKey: companyKeys.calls, queryFn: ({ signal }) => companiesApi.calls(signal) });
}

export function useCompanyAccounts(realmId: string, lastSyncedAt: string | null) {
  return useQuery({
    queryKey: companyKeys.accounts(realmId, lastSyncedAt),
    queryFn: ({ signal }) => companiesApi.accounts(realmId, signal),
  });
}

export type CompanyAction =
  | { kind: "setParent"; realmId: string }
  | { kind: "remove"; realmId: string }
  | { kind: "disconnect"; realmId: string }
  | { kind: "archive"; realmId: string; date: string | null }
  | { kind: "sync"; realmId: string };

function runAction(action: CompanyAction): Promise<unknown> {
  switch (action.kind) {
    case "setParent":
      return companiesApi.setParent(action.realmId);
    case "remove":
      return companiesApi.remove(action.realmId);
    case "disconnect":
      return companiesApi.disconnect(action.realmId);
    case "archive":
      return companiesApi.archive(action.realmId, action.date);
    case "sync":
      return companiesApi.sync(action.realmId);
  }
}

/** Every company change, then a refetch of companies and status (SPEC §4 Companies). */
export function useCompanyAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runAction,
    onSettled: () => client.invalidateQueries({ queryKey: companyKeys.all }),
  });
}
