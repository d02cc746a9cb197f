import {
  accountsByCompanySchema,
  authorizationResultSchema,
  authorizeResponseSchema,
  companiesResponseSchema,
  companyAccountsSchema,
  companyStatusMapSchema,
  syncStartedSchema,
  type AuthorizationCallbackRequest,
  type AuthorizationResult,
  type AuthorizeResponse,
  type Company,
  type CompanyAccount,
  type CompanyStatus,
} from "@groupledger/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/http.ts";

export type StatusMap = Record<string, CompanyStatus>;

/** Everything about companies lives under ["companies"], so one invalidation refreshes list, status and accounts. */
export const companyKeys = {
  all: ["companies"] as const,
  list: ["companies"] as const,
  status: ["companies", "status"] as const,
  /** Keyed by the last sync time too: a finished sync is new data, fetched without an explicit invalidation. */
  accounts: (realmId: string, lastSyncedAt: string | null) => ["companies", "accounts", realmId, lastSyncedAt] as const,
};

const enc = encodeURIComponent;
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export const companiesApi = {
  list: (signal?: AbortSignal) => api<Company[]>("/companies", { schema: companiesResponseSchema, ...withSignal(signal) }),
  status: (signal?: AbortSignal) => api<StatusMap>("/companies/status", { schema: companyStatusMapSchema, ...withSignal(signal) }),
  accounts: (realmId: string, signal?: AbortSignal) =>
    api<CompanyAccount[]>(`/companies/${enc(realmId)}/accounts`, { schema: companyAccountsSchema, ...withSignal(signal) }),
  allAccounts: (signal?: AbortSignal) =>
    api<Record<string, CompanyAccount[]>>("/companies/accounts", { schema: accountsByCompanySchema, ...withSignal(signal) }),
  setParent: (realmId: string) => api("/companies/parent", { method: "POST", body: { realmId } }),
  remove: (realmId: string) => api(`/companies/${enc(realmId)}`, { method: "DELETE" }),
  disconnect: (realmId: string) => api(`/companies/disconnect/${enc(realmId)}`, { method: "PUT" }),
  archive: (realmId: string, date: string | null) => api(`/companies/archive/${enc(realmId)}`, { method: "POST", body: { date } }),
  sync: (realmId: string) => api(`/companies/${enc(realmId)}/sync`, { method: "POST", schema: syncStartedSchema }),
};

/**
 * The QuickBooks connection calls. Both run inside the pop-up, which shows or posts its own
 * errors, so they bypass the global handler (no error bar or page reload inside a 600x544 window).
 */
export const qboApi = {
  authorize: () => api<AuthorizeResponse>("/qbo/account/authorize", { schema: authorizeResponseSchema, skipGlobalHandler: true }),
  callback: (body: AuthorizationCallbackRequest) =>
    api<AuthorizationResult>("/qbo/account/callback", { method: "POST", body, schema: authorizationResultSchema, skipGlobalHandler: true }),
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
