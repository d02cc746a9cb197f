import type { Account, ObalState, SessionUser } from "@groupledger/contract";

export const USER: SessionUser = {
  id: "u1",
  email: "controller@northwind.example",
  permissionLevel: 0,
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
