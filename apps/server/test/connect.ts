import type { FastifyInstance } from "fastify";
import { chartMappingProblem, type ChartAccount } from "@groupledger/domain";
import type { Sandbox } from "@groupledger/qbo-sandbox";
import { QboClient } from "@groupledger/qbo";
import { expect, vi } from "vitest";
import { get, post, signedInUser } from "./flows.ts";

export const DEMO = {
  parent: "9341453172384015",
  uk: "9341453172384023",
  canada: "9341453172384031",
  germany: "9341453172384049",
  retail: "9341453172384056",
} as const;

/** A historical rate for each demo subsidiary's contributed equity (what `configureForTranslation` needs for the whole group). */
export const DEMO_HISTORICAL_RATES = [
  { realmId: DEMO.uk, historicalRate: "1.2650" },
  { realmId: DEMO.canada, historicalRate: "0.7383" },
  { realmId: DEMO.germany, historicalRate: "1.0800" },
  { realmId: DEMO.retail, historicalRate: "1" },
];

/** Starts a connection and consents for `realmId` as the emulator's consent page would. */
export async function consent(app: FastifyInstance, sandbox: Sandbox, token: string, realmId: string) {
  const res = await get(app, "/api/qbo/account/authorize", token);
  expect(res.statusCode, res.body).toBe(200);
  const url = new URL(res.json().authorizeUrl, "http://localhost");
  const state = url.searchParams.get("state")!;
  const code = sandbox.issueAuthorizationCode(realmId, url.searchParams.get("redirect_uri")!);
  return { state, code, realmId, authorizeUrl: res.json().authorizeUrl as string };
}

export async function connectCompany(app: FastifyInstance, sandbox: Sandbox, token: string, realmId: string) {
  const { state, code } = await consent(app, sandbox, token, realmId);
  const res = await post(app, "/api/qbo/account/callback", { state, code, realmId }, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { company: { realmId: string; companyName: string }; reconnected: boolean };
}

/** A company's first active bank and expense accounts, from its synced chart. */
export async function bankAndExpense(app: FastifyInstance, token: string, realmId: string) {
  const chart = (await get(app, `/api/companies/${realmId}/accounts`, token)).json() as { Id: string; classification: string; accountType: string; active: boolean }[];
  return { bank: chart.find((a) => a.accountType === "Bank" && a.active)!, expense: chart.find((a) => a.classification === "Expense" && a.active)! };
}

/** An expense paid from the bank, as someone would book it in QuickBooks: the journal entry to create (amount in minor units). */
export function expenseEntry(accounts: { bank: { Id: string }; expense: { Id: string } }, txnDate: string, currency: string, amount: number) {
  return {
    txnDate,
    currency,
    lines: [
      { postingType: "Debit" as const, amount, accountId: accounts.expense.Id },
      { postingType: "Credit" as const, amount, accountId: accounts.bank.Id },
    ],
  };
}

/** Runs queued jobs until none is left. */
export async function drainJobs(app: FastifyInstance): Promise<void> {
  const { worker } = app.services;
  while ((await worker.poll()) > 0) await worker.idle();
  await worker.idle();
}

type ChartRow = { Id: string; name: string; acctNum: string | null; classification: string; accountType: string; accountSubType: string | null; active: boolean; everHadBalance: boolean };
const asChart = (a: ChartRow): ChartAccount => ({ id: a.Id, name: a.name, acctNum: a.acctNum, classification: a.classification, accountType: a.accountType, accountSubType: a.accountSubType, active: a.active });

/**
 * Everything a subsidiary needs before it can be translated, done through the API as a user
 * would: complete maps (best suggestion, else any compatible parent account), the parent's
 * Accumulated OCI as CTA account, a historical rate for contributed equity, and fetched rates.
 */
export async function configureForTranslation(
  app: FastifyInstance,
  token: string,
  subsidiaries: { realmId: string; historicalRate: string }[],
  rates: { from: string; to: string },
): Promise<void> {
  const parentRealm = (await get(app, "/api/companies", token)).json().find((c: { parent: boolean }) => c.parent).realmId;
  const parentAccounts: ChartRow[] = (await get(app, `/api/companies/${parentRealm}/accounts`, token)).json();
  for (const { realmId } of subsidiaries) {
    const accounts: ChartRow[] = (await get(app, `/api/companies/${realmId}/accounts`, token)).json();
    const { suggestions } = (await get(app, `/api/companies/${realmId}/map/suggestions`, token)).json();
    const map: Record<string, string> = {};
    for (const [subId, list] of Object.entries(suggestions) as [string, { parentAccountId: string }[]][]) if (list[0]) map[subId] = list[0].parentAccountId;
    for (const a of accounts.filter((x) => x.everHadBalance && map[x.Id] === undefined)) {
      map[a.Id] = parentAccounts.find((p) => chartMappingProblem(asChart(a), asChart(p)) === null)!.Id;
    }
    const saved = await post(app, `/api/companies/${realmId}/map`, { map }, token);
    expect(saved.json().complete, saved.body).toBe(true);
  }
  const cta = (await get(app, "/api/cta", token)).json();
  const aoci = cta.ctaAccountSuggestions[0].accountId;
  for (const { realmId, historicalRate } of subsidiaries) {
    const sub = cta.subsidiaries.find((s: { realmId: string }) => s.realmId === realmId);
    if (!sub) continue; // same currency as the parent: not translated
    const historical = sub.equity.filter((e: { localAmount: number | null }) => e.localAmount).map((e: { accountId: string }) => ({ accountId: e.accountId, historicalRate }));
    const res = await app.inject({ method: "PUT", url: `/api/cta/${realmId}`, payload: { ctaAccountId: aoci, historical }, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.body).toBe(200);
  }
  const fetched = await post(app, "/api/fxrates/fetch", rates, token);
  expect(fetched.statusCode, fetched.body).toBe(200);
}

/** `realms` connected and synced for the user, the first of them chosen as the parent. */
export async function connectGroup(app: FastifyInstance, sandbox: Sandbox, token: string, realms: readonly string[]): Promise<void> {
  for (const realm of realms) await connectCompany(app, sandbox, token, realm);
  await drainJobs(app);
  const parent = await post(app, "/api/companies/parent", { realmId: realms[0] }, token);
  expect(parent.statusCode, parent.body).toBe(200);
}

/** A user signed in as `email` with `realms` connected and synced, the first of them chosen as the parent; the user's token. */
export async function signedInGroup(app: FastifyInstance, sandbox: Sandbox, email: string, realms: readonly string[]): Promise<string> {
  const token = await signedInUser(app, email);
  await connectGroup(app, sandbox, token, realms);
  return token;
}

/** The opening month locked at December 2025, the demo companies' year end. */
export async function lockOpening(app: FastifyInstance, token: string): Promise<void> {
  const res = await post(app, "/api/obal", { year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 }, token);
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * The demo parent and `subsidiaries` connected for a new user (`email`), the subsidiaries ready to
 * translate with rates fetched over `rates` (before that, with `lockOpening`, the opening month
 * locked: lockOpening); the user's token.
 */
export async function translatedGroup(
  app: FastifyInstance,
  sandbox: Sandbox,
  email: string,
  subsidiaries: { realmId: string; historicalRate: string }[],
  rates: { from: string; to: string },
  options: { lockOpening?: boolean } = {},
): Promise<string> {
  const token = await signedInGroup(app, sandbox, email, [DEMO.parent, ...subsidiaries.map((s) => s.realmId)]);
  if (options.lockOpening) await lockOpening(app, token);
  await configureForTranslation(app, token, subsidiaries, rates);
  return token;
}

/** `translatedGroup` with the opening month locked first. */
export const openingGroup = (app: FastifyInstance, sandbox: Sandbox, email: string, subsidiaries: { realmId: string; historicalRate: string }[], rates: { from: string; to: string }) =>
  translatedGroup(app, sandbox, email, subsidiaries, rates, { lockOpening: true });

/** A subsidiary's opening balances reviewed and confirmed. */
export async function confirmOpening(app: FastifyInstance, token: string, realmId: string): Promise<void> {
  for (const action of ["review", "confirm"]) expect((await post(app, `/api/obal/${action}`, { realmId }, token)).statusCode).toBe(200);
}

/** A subsidiary's opening balances confirmed (confirmOpening) and posted. */
export async function postOpening(app: FastifyInstance, token: string, realmId: string): Promise<void> {
  await confirmOpening(app, token, realmId);
  expect((await post(app, `/api/balances/post/${realmId}`, undefined, token)).statusCode).toBe(200);
}

/**
 * The next journal entry the app asks QuickBooks for is created there, then the process dies
 * before it can record that: nothing after the create call runs (a spy; restore mocks after).
 */
export function dieAfterNextEntry(): void {
  const create = QboClient.prototype.createJournalEntry;
  vi.spyOn(QboClient.prototype, "createJournalEntry").mockImplementationOnce(async function (this: QboClient, ...args) {
    await create.apply(this, args);
    throw new Error("the process died here");
  });
}

/** The demo parent and its UK subsidiary connected and synced, the parent chosen, the UK ready to translate; the parent's and the UK's charts. */
export async function parentAndUk(app: FastifyInstance, sandbox: Sandbox, token: string) {
  await connectGroup(app, sandbox, token, [DEMO.parent, DEMO.uk]);
  await configureForTranslation(app, token, [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2024-11", to: "2026-10" });
  type Account = { Id: string; name: string };
  const chart = async (realm: string): Promise<Account[]> => (await get(app, `/api/companies/${realm}/accounts`, token)).json();
  const [parent, uk] = [await chart(DEMO.parent), await chart(DEMO.uk)];
  const idOf = (list: Account[], name: string) => list.find((a) => a.name === name)!.Id;
  return { parentAccount: (name: string) => idOf(parent, name), ukAccount: (name: string) => idOf(uk, name) };
}
