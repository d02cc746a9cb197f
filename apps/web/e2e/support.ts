import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import type { CompanyAccount } from "@groupledger/contract";
import { chartMappingProblem } from "@groupledger/domain";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";
import { chartAccount } from "../src/features/mapping/model.ts";
import { startServer, type RunningServer } from "./global-setup.ts";

/** What every browser journey shares: launching Chromium, signing in, the QuickBooks pop-up, the API beside the page. */

export const SHOTS = fileURLToPath(new URL("../../../artifacts/screenshots/", import.meta.url));
export const PASSWORD = "Ledger#2026x";

/** The offline sandbox's demo group (packages/qbo-sandbox). */
export const DEMO = {
  parent: { realmId: "9341453172384015", name: "Northwind Holdings Inc." },
  uk: { realmId: "9341453172384023", name: "Northwind UK Ltd" },
  canada: { realmId: "9341453172384031", name: "Northwind Canada Inc." },
  germany: { realmId: "9341453172384049", name: "Northwind Deutschland GmbH" },
  retail: { realmId: "9341453172384056", name: "Northwind Retail LLC" },
} as const;

/** "$1,234.56" → 123456, "($1,234.56)" → -123456: an amount as the screen shows it, back in cents. */
export function cents(text: string): number {
  const t = text.trim();
  const negative = t.startsWith("(") || t.startsWith("-");
  return (negative ? -1 : 1) * Math.round(Number(t.replace(/[^0-9.]/g, "")) * 100);
}

export const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`) });

export interface Session {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * Headless Debian Chromium (never a downloaded browser), one context, one page.
 * `scrollbars`: the classic 15 px scroll bars of a desktop Chromium, which headless hides by
 * default; layout tests need them, since they take that much width from the page.
 */
export async function openBrowser(viewport = { width: 1440, height: 900 }, opts: { scrollbars?: boolean } = {}): Promise<Session> {
  mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    ...(opts.scrollbars ? { ignoreDefaultArgs: ["--hide-scrollbars"] } : {}),
  });
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  return { browser, context, page };
}

/**
 * A server (and emulator) of the calling file's own, for a journey whose user connects the demo
 * parent (a QuickBooks company belongs to one account): started before the file's tests, stopped
 * after them. `started` gets its address.
 */
export function ownServer(started: (url: string) => void): void {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer(inject("pgliteTemplate"), inject("serverBundle"));
    started(server.url);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
}

/** A browser (openBrowser's arguments) for the calling file's tests, closed after them; `opened` gets it. */
export function browserForFile(opened: (session: Session) => void, ...args: Parameters<typeof openBrowser>): void {
  let session: Session | undefined;
  beforeAll(async () => {
    session = await openBrowser(...args);
    opened(session);
  });
  // A failed step leaves a picture of every open page (FAILED-<file>-<step>-<n>.png): CI keeps no
  // browser, and a timeout alone does not say what the screen showed.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== "fail" || !session) return;
    const name = `${ctx.task.file.name.replace(/^.*\//, "").replace(/\.e2e\.ts$/, "")}-${ctx.task.name.slice(0, 60).replace(/[^A-Za-z0-9]+/g, "-")}`;
    const pages = session.context.pages();
    for (const [i, p] of pages.entries()) await p.screenshot({ path: join(SHOTS, `FAILED-${name}-${i}.png`), fullPage: true }).catch(() => undefined);
  });
  afterAll(async () => {
    await session?.browser.close();
  });
}

/**
 * Picks a month in one of Mantine's month pickers (labelled From or To) inside `scope`, moving the
 * shown year until the month is there; `monthName` is how the picker names its months.
 */
export async function pickMonth(page: Page, scope: Locator, field: "From" | "To", month: string, monthName: (month: string) => string) {
  await scope.getByRole("button", { name: field, exact: true }).click();
  const dropdown = page.locator(".mantine-Popover-dropdown").filter({ visible: true }).last();
  const shownYear = async () => Number(((await dropdown.getByRole("button", { name: "Choose a year" }).textContent()) ?? "").trim());
  const wanted = Number(month.slice(0, 4));
  for (let shown = await shownYear(); shown !== wanted; shown = await shownYear()) {
    await dropdown.getByRole("button", { name: shown > wanted ? "Previous year" : "Next year" }).click();
  }
  await dropdown.getByRole("button", { name: monthName(month), exact: true }).click();
  await dropdown.waitFor({ state: "hidden" });
}

/**
 * The built-in QuickBooks emulator's simulated latency per call, through its admin API (the e2e
 * servers set QBO_EMULATOR_ADMIN=true). The emulator answers in microseconds: a journey that must
 * act while work is under way (watch a sync's progress, pause a run) slows it down for that step.
 */
export async function sandboxLatency(baseUrl: string, latencyMs: number) {
  const res = await fetch(`${baseUrl}/qbo-sandbox/_sandbox/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ latencyMs }),
  });
  expect(res.status).toBe(200);
}

/** Calls the API with the page's session token, as the screens do; throws on a non-2xx answer. */
export async function api<T>(page: Page, baseUrl: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem("t"));
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

export const onboardingStep = async (page: Page, baseUrl: string) => (await api<{ onboardingStep: number }>(page, baseUrl, "/account")).onboardingStep;

/** Signs up and verifies through the API (the screens are covered by app.e2e.ts). */
export async function signUp(baseUrl: string, email: string, password = PASSWORD) {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}/api/session${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await post("/signup", { email, password })).status).toBeLessThan(300);
  const mail = (await (await fetch(`${baseUrl}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
  const code = /code is ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(mail.messages[0]?.text ?? "")?.[1];
  expect(code).toBeTruthy();
  expect((await post("/validationcode", { validationCode: code, email })).status).toBeLessThan(300);
}

/** Fills in and submits the login form the page shows. */
export async function logIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Signs up through the API, then logs in through the page; a new account lands on /setup/companies. */
export async function signUpAndLogIn(page: Page, baseUrl: string, email: string, password = PASSWORD) {
  await signUp(baseUrl, email, password);
  await page.goto(`${baseUrl}/login`);
  await logIn(page, email, password);
  await page.waitForURL("**/setup/companies");
}

/**
 * Clicks through `open`, which must open the QuickBooks pop-up, picks `company` on the consent page
 * and clicks Connect (or Cancel); resolves once the pop-up has closed itself.
 */
export async function connectThroughPopup(
  context: BrowserContext,
  open: () => Promise<void>,
  company: string | RegExp,
  opts: { decision?: "Connect" | "Cancel"; onConsent?: (popup: Page) => Promise<void> } = {},
) {
  const popupOpened = context.waitForEvent("page");
  await open();
  const popup = await popupOpened;
  await popup.getByRole("heading", { name: "Connect to GroupLedger" }).waitFor();
  const closed = popup.waitForEvent("close");
  await popup.getByRole("radio", { name: company }).check();
  await opts.onConsent?.(popup);
  await popup.getByRole("button", { name: opts.decision ?? "Connect", exact: true }).click();
  await closed;
}

/** Closes the milestone modal with this title once it is (or comes) up. */
export async function continueModal(page: Page, name: string | RegExp) {
  const modal = page.getByRole("dialog", { name });
  await modal.waitFor();
  await modal.getByRole("button", { name: "Continue" }).click();
  await modal.waitFor({ state: "hidden" });
}

/** Waits until every connected company's sync has succeeded (fails fast on a failed sync). */
export async function waitForSyncs(page: Page, baseUrl: string, count: number, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = Object.values(await api<Record<string, { sync: { state: string } }>>(page, baseUrl, "/companies/status")).map((s) => s.sync.state);
    if (states.length === count && states.every((s) => s === "succeeded")) return;
    if (states.includes("failed") || Date.now() > deadline) throw new Error(`syncs did not finish: ${states.join(", ")}`);
    await page.waitForTimeout(250);
  }
}

/**
 * Welcome → connect the demo parent through the pop-up (the first-company milestone) → set it as parent → connect each
 * subsidiary; resolves with every sync finished, on /setup/companies.
 */
export async function connectDemoGroup(s: Session, baseUrl: string, subsidiaries: readonly { name: string }[]) {
  const { page, context } = s;
  await page.getByRole("dialog", { name: "Welcome to GroupLedger" }).getByRole("button", { name: "Get Started" }).click();
  await connectThroughPopup(context, () => page.getByRole("button", { name: "Connect company" }).click(), DEMO.parent.name);
  await continueModal(page, "Your first company is connected!");
  await page.getByTestId("next-step").getByRole("button", { name: "Set a parent" }).click();
  await page.getByRole("menuitem", { name: DEMO.parent.name }).click();
  for (const sub of subsidiaries) {
    await connectThroughPopup(context, () => page.getByRole("button", { name: "Connect a subsidiary" }).first().click(), sub.name);
  }
  await waitForSyncs(page, baseUrl, subsidiaries.length + 1);
}

type ChartRow = Pick<CompanyAccount, "Id" | "name" | "fullyQualifiedName" | "acctNum" | "classification" | "accountType" | "accountSubType" | "active" | "everHadBalance">;

/**
 * Maps every account of a subsidiary that ever had a balance through the API, as a user accepting
 * the suggestions would (the mapping screens have their own e2e): the best suggestion, else the
 * first compatible parent account. Resolves once the server counts the company as mapped.
 */
export async function mapAllAccounts(page: Page, baseUrl: string, parentRealmId: string, realmId: string) {
  const parentChart = await api<ChartRow[]>(page, baseUrl, `/companies/${parentRealmId}/accounts`);
  const accounts = await api<ChartRow[]>(page, baseUrl, `/companies/${realmId}/accounts`);
  const { suggestions } = await api<{ suggestions: Record<string, { parentAccountId: string }[]> }>(page, baseUrl, `/companies/${realmId}/map/suggestions`);
  const map: Record<string, string> = {};
  for (const [id, list] of Object.entries(suggestions)) if (list[0]) map[id] = list[0].parentAccountId;
  for (const a of accounts.filter((x) => x.everHadBalance && map[x.Id] === undefined)) {
    const target = parentChart.find((p) => chartMappingProblem(chartAccount(a), chartAccount(p)) === null);
    if (!target) throw new Error(`no parent account can take ${a.name} (${a.classification})`);
    map[a.Id] = target.Id;
  }
  const saved = await api<{ complete: boolean }>(page, baseUrl, `/companies/${realmId}/map`, { method: "POST", body: { map } });
  expect(saved.complete, `${realmId} fully mapped`).toBe(true);
}

/** Where "Open in QuickBooks" goes for an entry of an emulator company: the emulator's own read-only view of it. */
export const journalEntryUrl = (realmId: string, txnId: string) => `/qbo-sandbox/app/journal?realmId=${realmId}&txnId=${txnId}`;

/** The emulator mounted in the e2e server, and the app's client credentials for it (apps/server qbo-provider SANDBOX_CLIENT). */
const SANDBOX = { prefix: "/qbo-sandbox", clientId: "sandbox-client-id", clientSecret: "sandbox-client-secret" } as const;

export interface SandboxQbo {
  /** A QBO query (`SELECT * FROM JournalEntry WHERE ...`): the entity's rows, [] when none. */
  query<T>(entity: string, where?: string): Promise<T[]>;
  /** A QBO report as QuickBooks sends it. */
  report<T>(name: string, params: Record<string, string>): Promise<T>;
  /** POST to an entity endpoint (create, or `?operation=delete`). */
  post<T>(path: string, body: unknown): Promise<T>;
}

/**
 * The test's own connection to a QuickBooks company of the server's emulator: an OAuth grant of
 * its own through the consent form, as a second user of the same company (an auditor checking the
 * books) would have; it never touches the app's tokens. Reads what the app posted the way
 * QuickBooks shows it.
 */
export async function sandboxQbo(baseUrl: string, realmId: string): Promise<SandboxQbo> {
  const root = `${baseUrl}${SANDBOX.prefix}`;
  const redirectUri = `${baseUrl}/e2e-auditor/callback`;
  const consent = await fetch(`${root}/connect/oauth2`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: SANDBOX.clientId,
      redirect_uri: redirectUri,
      scope: "com.intuit.quickbooks.accounting",
      state: "e2e-auditor",
      response_type: "code",
      realmId,
      decision: "connect",
    }),
  });
  const code = new URL(consent.headers.get("location") ?? "about:blank").searchParams.get("code");
  if (!code) throw new Error(`the emulator's consent answered ${consent.status} without a code: ${await consent.text()}`);
  const tokenRes = await fetch(`${root}/oauth2/v1/tokens/bearer`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      authorization: `Basic ${Buffer.from(`${SANDBOX.clientId}:${SANDBOX.clientSecret}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri }),
  });
  if (!tokenRes.ok) throw new Error(`the emulator refused the token exchange: ${tokenRes.status} ${await tokenRes.text()}`);
  const { access_token: token } = (await tokenRes.json()) as { access_token: string };
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${root}/v3/company/${realmId}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(init.headers ?? {}) },
    });
    if (!res.ok) throw new Error(`QuickBooks (emulator) ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    async query<T>(entity: string, where?: string) {
      const q = `SELECT * FROM ${entity}${where ? ` WHERE ${where}` : ""} MAXRESULTS 1000`;
      const body = await call<{ QueryResponse: Record<string, T[] | undefined> }>(`/query?minorversion=75&query=${encodeURIComponent(q)}`);
      return body.QueryResponse[entity] ?? [];
    },
    report: <T>(name: string, params: Record<string, string>) => call<T>(`/reports/${name}?${new URLSearchParams({ ...params, minorversion: "75" })}`),
    post: <T>(path: string, body: unknown) =>
      call<T>(`${path}${path.includes("?") ? "&" : "?"}minorversion=75`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  };
}

/**
 * Translation settings through the API, as the CTA & Historical and FOREX screens would save them
 * (they have their own browser tests): rates fetched for `rates`, and for every translated
 * subsidiary the suggested CTA account (the parent's Accumulated OCI) and its contributed equity at the
 * average rate of `historicalMonth` (when the demo books start). Resolves with the CTA account.
 */
export async function configureTranslation(page: Page, baseUrl: string, rates: { from: string; to: string }, historicalMonth = rates.from): Promise<string> {
  const call = <T>(path: string, init?: { method?: string; body?: unknown }) => api<T>(page, baseUrl, path, init);
  await call("/fxrates/fetch", { method: "POST", body: rates });
  const first = await call<{ rates: { currency: string; avgfx: string }[] }>(`/fxrates?from=${historicalMonth}&to=${historicalMonth}`);
  const cta = await call<{
    ctaAccountSuggestions: { accountId: string; name: string }[];
    subsidiaries: { realmId: string; currency: string; equity: { accountId: string; localAmount: number | null }[] }[];
  }>("/cta");
  // The best suggestion; the demo parent's Accumulated OCI when it is among them.
  const aoci = cta.ctaAccountSuggestions.find((s) => s.name === "Accumulated OCI") ?? cta.ctaAccountSuggestions[0];
  if (!aoci) throw new Error("no parent account is suggested for the CTA");
  for (const sub of cta.subsidiaries) {
    const rate = first.rates.find((r) => r.currency === sub.currency)?.avgfx;
    if (!rate) throw new Error(`no ${sub.currency} rate for ${historicalMonth}`);
    const historical = sub.equity.filter((e) => e.localAmount).map((e) => ({ accountId: e.accountId, historicalRate: rate }));
    await call(`/cta/${sub.realmId}`, { method: "PUT", body: { ctaAccountId: aoci.accountId, historical } });
  }
  return aoci.accountId;
}

/**
 * Locks the opening month (a calendar-year parent: fiscal and calendar months agree) and reviews,
 * confirms and posts each subsidiary's opening balance through the API (Opening Balance Sheet has
 * its own browser test).
 */
export async function postOpeningBalances(page: Page, baseUrl: string, month: string, realmIds: readonly string[]) {
  const call = <T>(path: string, body?: unknown) => api<T>(page, baseUrl, path, { method: "POST", body });
  const [year, m] = month.split("-").map(Number) as [number, number];
  await call("/obal", { year, month: m, naturalYear: year, naturalMonth: m });
  for (const realmId of realmIds) {
    await call("/obal/review", { realmId });
    await call("/obal/confirm", { realmId });
    await call(`/balances/post/${realmId}`);
  }
  const state = await api<{ posted: Record<string, boolean> }>(page, baseUrl, "/obal");
  for (const realmId of realmIds) expect(state.posted[realmId], `${realmId}'s opening balance posted`).toBe(true);
}
