/**
 * The emulator's state: the demo group's ledgers, OAuth grants, the requestid replay cache, the
 * fault settings and the validation rules. With `dataDir` every change (posted, updated and
 * deleted entries, created classes, created and updated accounts, customers and vendors, tokens,
 * replays) is written to `sandbox-state.json` there and restored on start; the demo data itself is
 * regenerated, since it is deterministic. Faults and rules are configuration: not persisted.
 *
 * Every change is written before the answer that reports it leaves (write-through): a requestid's
 * replay must outlive a restart, or a retried POST would post twice. The file is replaced
 * atomically (a synced temporary file renamed over it), so a process killed at any moment leaves
 * either the previous state or the new one, never half a file.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dateIn } from "./calendar.ts";
import { buildDemoCompanies } from "./demo/index.ts";
import { INTUIT_TIME_ZONE } from "./faults.ts";
import type { WireResponse } from "./faults.ts";
import type { JournalRules } from "./journal.ts";
import type { Account, CompanyCurrencyRow, CompanyData, ExchangeRateRow, JournalEntry, Party, Tag } from "./ledger.ts";
import { CompanyLedger } from "./ledger.ts";
import type { OAuthState } from "./oauth.ts";
import { emptyOAuthState, OAuthStore } from "./oauth.ts";
import type { FaultSettings } from "./throttle.ts";
import { FaultInjector, RealmLimiter } from "./throttle.ts";
import type { WebhookEntity, WebhookSettings } from "./webhooks.ts";
import { WebhookSender } from "./webhooks.ts";

export type { FaultSettings } from "./throttle.ts";

/**
 * Validations of real QBO that a test may switch off to reach behaviour behind them.
 * `requireNamesOnReceivablesAndPayables` (on by default, as in QBO): a journal line on an Accounts
 * Receivable account must name a customer, one on Accounts Payable a vendor (400 ValidationFault 6000).
 */
export interface SandboxRules {
  requireNamesOnReceivablesAndPayables?: boolean;
}

export interface SandboxOptions {
  /** Default "sandbox-client-id". */
  clientId?: string;
  /** Default "sandbox-client-secret". */
  clientSecret?: string;
  /** When set, the ledger (incl. posted entries, tokens) persists there as JSON; default in memory. */
  dataDir?: string;
  /** Default 3600. */
  accessTokenTtlSeconds?: number;
  /** Default 100 days, like Intuit. */
  refreshTokenTtlSeconds?: number;
  faults?: FaultSettings;
  /** Validation rules (all on by default, as QBO applies them); `setRules` changes them later. */
  rules?: SandboxRules;
  /** Clock, for tests. */
  now?: () => Date;
  /**
   * Send Intuit's webhook notifications of changes made through the API to this endpoint, signed
   * with this verifier token (webhooks.ts); `webhooks.configure` changes it later. Default off.
   */
  webhooks?: WebhookSettings;
  /**
   * The companies served, built afresh on start and by `reset()` (so deterministic books, like
   * `generatedGroup`'s); default the demo group. Benchmarks serve generated groups this way.
   */
  companies?: () => CompanyData[];
  /**
   * A state file that cannot be read (not JSON) is moved aside and the emulator starts fresh
   * instead of refusing to start; this hears where it went. The companies connected to it then
   * need connecting again, which the product shows.
   */
  onDiscardedState?: (message: string) => void;
}

export interface SandboxCompany {
  realmId: string;
  companyName: string;
  country: string;
  homeCurrency: string;
}

interface PersistedRealm {
  entries: JournalEntry[];
  classes: Tag[];
  /** Created and updated accounts; absent in state files written before accounts could be created. */
  accounts?: Account[];
  /** Created and updated customers and vendors; absent in older state files. */
  parties?: Party[];
  /** Created and updated CompanyCurrency rows; absent in older state files. */
  currencies?: CompanyCurrencyRow[];
  /** Exchange rates set through the API; absent in older state files. */
  exchangeRates?: ExchangeRateRow[];
}

interface PersistedState {
  version: 1;
  realms: Record<string, PersistedRealm>;
  oauth: OAuthState;
  replays: Record<string, WireResponse>;
}

const STATE_FILE = "sandbox-state.json";

interface Touched {
  entries: Set<string>;
  classes: Set<string>;
  accounts: Set<string>;
  parties: Set<string>;
  currencies: Set<string>;
  /** `${source}:${asOfDate}`. */
  exchangeRates: Set<string>;
}

export class Sandbox {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly faults: FaultInjector;
  readonly limiter = new RealmLimiter();
  readonly oauth: OAuthStore;
  /** Intuit's webhooks: where changes are sent (`configure`), `flush` for tests. */
  readonly webhooks = new WebhookSender();
  private ledgers = new Map<string, CompanyLedger>();
  /** Entries, classes and accounts changed through the API, per realm: what persistence has to keep. */
  private touched = new Map<string, Touched>();
  private replays = new Map<string, WireResponse>();
  private currentRules: Required<SandboxRules>;
  private readonly clock: () => Date;
  private readonly dataDir: string | undefined;
  private readonly buildCompanies: () => CompanyData[];

  constructor(opts: SandboxOptions = {}) {
    this.clientId = opts.clientId ?? "sandbox-client-id";
    this.clientSecret = opts.clientSecret ?? "sandbox-client-secret";
    this.clock = opts.now ?? (() => new Date());
    this.dataDir = opts.dataDir;
    this.buildCompanies = opts.companies ?? buildDemoCompanies;
    this.faults = new FaultInjector(opts.faults ?? {});
    this.currentRules = resolveRules(opts.rules ?? {});
    this.oauth = new OAuthStore(
      emptyOAuthState(),
      (opts.accessTokenTtlSeconds ?? 3600) * 1000,
      (opts.refreshTokenTtlSeconds ?? 100 * 24 * 3600) * 1000,
    );
    this.loadCompanies();
    if (this.dataDir !== undefined) this.restore(opts.onDiscardedState);
    if (opts.webhooks !== undefined) this.webhooks.configure(opts.webhooks);
  }

  now(): Date {
    return this.clock();
  }

  /** The company's "today" (Intuit's clock is US Pacific). */
  today(): string {
    return dateIn(this.clock(), INTUIT_TIME_ZONE);
  }

  /** Restores the companies' books (the demo group's by default), drops tokens, codes, replays, posted entries and unsent webhooks. */
  reset(): void {
    this.webhooks.cancel();
    this.loadCompanies();
    this.oauth.state = emptyOAuthState();
    this.replays.clear();
    this.limiter.resetWindow();
    this.save();
  }

  setFaults(f: FaultSettings): void {
    this.faults.set(f);
  }

  /** The validation rules in force, every one spelled out. */
  get rules(): Required<SandboxRules> & JournalRules {
    return { ...this.currentRules };
  }

  /** Replaces the rules (a rule left out is off). Survives `reset()`, like the fault settings. */
  setRules(rules: SandboxRules): void {
    this.currentRules = resolveRules(rules);
  }

  companies(): SandboxCompany[] {
    return [...this.ledgers.values()].map((l) => ({
      realmId: l.realmId,
      companyName: l.profile.name,
      country: l.profile.country,
      homeCurrency: l.profile.currency,
    }));
  }

  ledger(realmId: string): CompanyLedger | undefined {
    return this.ledgers.get(realmId);
  }

  /** For tests and the consent page: an authorization code as if the user picked this company. */
  issueAuthorizationCode(realmId: string, redirectUri: string): string {
    if (!this.ledgers.has(realmId)) throw new Error(`unknown realm ${realmId}`);
    const code = this.oauth.issueCode(realmId, redirectUri, this.clock().getTime());
    this.save();
    return code;
  }

  private readonly minorVersions = new Map<string, number>();

  /** Counts a `/v3` request's `minorversion` (absent as "none"); Intuit answers every value below 75 as 75. */
  noteMinorVersion(value: string | undefined): void {
    const key = value ?? "none";
    this.minorVersions.set(key, (this.minorVersions.get(key) ?? 0) + 1);
  }

  /** How many `/v3` requests came with each `minorversion` value ("none" when absent), since start. */
  minorVersionsSeen(): Record<string, number> {
    return Object.fromEntries(this.minorVersions);
  }

  private readonly requests = new Map<string, Map<string, number>>();

  /**
   * Counts an API request the realm answered (after authentication, a requestid replay included),
   * by method and route, e.g. "GET query", "POST batch", "GET journalentry/:id".
   */
  noteRequest(realmId: string, route: string): void {
    let counts = this.requests.get(realmId);
    if (counts === undefined) this.requests.set(realmId, (counts = new Map()));
    counts.set(route, (counts.get(route) ?? 0) + 1);
  }

  /** The realm's API requests since start, by method and route (see `noteRequest`): what tests measure calls with. */
  requestCounts(realmId: string): Record<string, number> {
    return Object.fromEntries(this.requests.get(realmId) ?? []);
  }

  replay(realmId: string, requestId: string): WireResponse | undefined {
    return this.replays.get(`${realmId}:${requestId}`);
  }

  remember(realmId: string, requestId: string, response: WireResponse): void {
    this.replays.set(`${realmId}:${requestId}`, response);
  }

  /** A change made through the API, for the webhooks (sent only when they are configured). */
  changed(realmId: string, entity: WebhookEntity): void {
    this.webhooks.record(realmId, entity);
  }

  markEntry(realmId: string, id: string): void {
    this.touchedOf(realmId).entries.add(id);
  }

  markClass(realmId: string, id: string): void {
    this.touchedOf(realmId).classes.add(id);
  }

  markAccount(realmId: string, id: string): void {
    this.touchedOf(realmId).accounts.add(id);
  }

  markParty(realmId: string, id: string): void {
    this.touchedOf(realmId).parties.add(id);
  }

  markCurrency(realmId: string, id: string): void {
    this.touchedOf(realmId).currencies.add(id);
  }

  markExchangeRate(realmId: string, source: string, asOfDate: string): void {
    this.touchedOf(realmId).exchangeRates.add(`${source}:${asOfDate}`);
  }

  /** Writes the state when a data folder is configured; a no-op in memory. */
  save(): void {
    if (this.dataDir === undefined) return;
    this.oauth.prune(this.clock().getTime());
    const realms: Record<string, PersistedRealm> = {};
    for (const [realmId, t] of this.touched) {
      const ledger = this.ledgers.get(realmId);
      if (ledger === undefined) continue;
      realms[realmId] = {
        entries: [...t.entries].map((id) => ledger.entry(id)).filter((e): e is JournalEntry => e !== undefined),
        classes: ledger.classes.filter((c) => t.classes.has(c.id)),
        accounts: ledger.accounts.filter((a) => t.accounts.has(a.id)),
        parties: ledger.parties.filter((p) => t.parties.has(p.id)),
        currencies: ledger.currencies.filter((c) => t.currencies.has(c.id)),
        exchangeRates: ledger.exchangeRates.filter((r) => t.exchangeRates.has(`${r.source}:${r.asOfDate}`)),
      };
    }
    const state: PersistedState = { version: 1, realms, oauth: this.oauth.state, replays: Object.fromEntries(this.replays) };
    mkdirSync(this.dataDir, { recursive: true });
    const file = join(this.dataDir, STATE_FILE);
    const fd = openSync(`${file}.tmp`, "w");
    try {
      writeFileSync(fd, JSON.stringify(state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(`${file}.tmp`, file);
  }

  private touchedOf(realmId: string): Touched {
    let t = this.touched.get(realmId);
    if (t === undefined) this.touched.set(realmId, (t = { entries: new Set(), classes: new Set(), accounts: new Set(), parties: new Set(), currencies: new Set(), exchangeRates: new Set() }));
    return t;
  }

  private loadCompanies(): void {
    this.ledgers = new Map(this.buildCompanies().map((d) => [d.profile.realmId, new CompanyLedger(d)]));
    this.touched = new Map();
  }

  private restore(onDiscarded?: (message: string) => void): void {
    const file = join(this.dataDir as string, STATE_FILE);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return; // a fresh folder
    }
    let state: PersistedState;
    try {
      state = JSON.parse(text) as PersistedState;
    } catch (e) {
      const aside = `${file}.unreadable-${this.clock().toISOString().replaceAll(":", "-")}`;
      renameSync(file, aside);
      onDiscarded?.(`${STATE_FILE} could not be read (${e instanceof Error ? e.message : String(e)}); moved to ${aside}, the emulator starts fresh`);
      return;
    }
    if (state.version !== 1) throw new Error(`${STATE_FILE}: unsupported version ${String(state.version)}`);
    for (const [realmId, persisted] of Object.entries(state.realms)) {
      const ledger = this.ledgers.get(realmId);
      if (ledger === undefined) continue;
      // Currencies before accounts: a restored account may hold one.
      for (const c of persisted.currencies ?? []) {
        if (ledger.currencies.some((x) => x.id === c.id)) ledger.replaceCurrency(c);
        else ledger.addCurrency(c);
        this.markCurrency(realmId, c.id);
      }
      for (const r of persisted.exchangeRates ?? []) {
        ledger.putExchangeRate(r);
        this.markExchangeRate(realmId, r.source, r.asOfDate);
      }
      // Accounts first: restored entries may post to them. A demo account updated through the
      // API (renamed, made inactive) replaces the regenerated one.
      for (const a of persisted.accounts ?? []) {
        if (ledger.account(a.id) === undefined) ledger.addAccount(a);
        else ledger.replaceAccount(a);
        this.markAccount(realmId, a.id);
      }
      // Names before entries too: restored lines may carry them.
      for (const p of persisted.parties ?? []) {
        if (ledger.party(p.id) === undefined) ledger.addParty(p);
        else ledger.replaceParty(p);
        this.markParty(realmId, p.id);
      }
      for (const e of persisted.entries) {
        if (ledger.entry(e.id) === undefined) ledger.addEntry(e);
        else ledger.replaceEntry(e);
        this.markEntry(realmId, e.id);
      }
      for (const c of persisted.classes) {
        if (!ledger.classes.some((x) => x.id === c.id)) ledger.addClass(c);
        this.markClass(realmId, c.id);
      }
    }
    this.oauth.state = state.oauth;
    this.replays = new Map(Object.entries(state.replays));
  }
}

function resolveRules(rules: SandboxRules): Required<SandboxRules> {
  return { requireNamesOnReceivablesAndPayables: rules.requireNamesOnReceivablesAndPayables ?? true };
}
