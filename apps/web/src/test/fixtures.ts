import type { Account, Company, CompanyStatus, ObalState, SessionUser } from "@groupledger/contract";

export const USER: SessionUser = {
  id: "u1",
  email: "controller@northwind.example",
  permissionLevel: 1, // an admin, as whoever signs an account up is; member views set 0
  accountId: "a1",
  emailVerified: true,
  releaseNotesVersion: "1",
  createdAt: "2026-01-01T00:00:00.000Z",
};

export const ACCOUNT: Account = {
  id: "a1",
  name: "Northwind group",
  onboarding: false,
  onboardingStep: 0,
  nabAccounts: [],
  createdAt: "2026-01-01T00:00:00.000Z",
};

export const OBAL: ObalState = {
  year: null,
  month: null,
  naturalYear: null,
  naturalMonth: null,
  reviewed: {},
  confirmed: {},
  posted: {},
  trialBalanceJournalEntryUrl: "",
};

/** Everything the authenticated shell loads, for a user past onboarding with no companies yet. */
export function shellApi(over: { user?: Partial<SessionUser>; account?: Partial<Account> } = {}) {
  return {
    "GET /session": { ...USER, ...over.user },
    "GET /account": { ...ACCOUNT, ...over.account },
    "GET /companies": [],
    "GET /companies/status": {},
    "GET /obal": OBAL,
    "GET /config": { idleTimeoutMs: 900_000, devMailbox: true },
  };
}

export const PARENT_CO: Company = {
  realmId: "9341453172384015",
  companyName: "Northwind Holdings Inc.",
  country: "US",
  homeCurrency: "USD",
  parent: true,
  earliestTransactionDate: null,
  fiscalYearStartMonth: 1,
  ownershipPercent: "100",
  archivedAt: null,
  connectedAt: "2026-01-02T00:00:00.000Z",
};

export const UK_CO: Company = {
  ...PARENT_CO,
  realmId: "9341453172384023",
  companyName: "Northwind UK Ltd",
  country: "GB",
  homeCurrency: "GBP",
  parent: false,
  earliestTransactionDate: "2023-01-03",
  fiscalYearStartMonth: 4,
  ownershipPercent: "80",
};

export const syncedStatus = (over: Partial<CompanyStatus["sync"]> = {}, connection: CompanyStatus["connection"] = "connected"): CompanyStatus => ({
  connection,
  sync: { state: "succeeded", progress: null, message: null, lastSyncedAt: "2026-03-01T10:00:00.000Z", ...over },
});

/** The companies' status answer with every one of them connected and synced. */
export const syncedStatuses = (companies: Company[], over: Partial<CompanyStatus["sync"]> = {}): Record<string, CompanyStatus> =>
  Object.fromEntries(companies.map((c) => [c.realmId, syncedStatus(over)]));
