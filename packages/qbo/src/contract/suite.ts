/**
 * The client's contract with a QBO service: the same tests for every target that speaks Intuit's
 * wire format (our emulator today; Intuit's own sandbox given app keys and a consented company).
 * Targets supply a way to obtain an authorization code without a browser, and may supply fault
 * injection; tests that need what a target lacks are skipped, not faked.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectCompany, QboClient, type NewJournalEntry, type QboClientOptions } from "../client.ts";
import type { QboEndpoints } from "../endpoints.ts";
import { QboError } from "../errors.ts";
import { QboOAuth } from "../oauth.ts";
import { accountSchema, customerSchema, journalEntrySchema, vendorSchema, type JournalEntry } from "../entities.ts";
import type { BatchOutcome } from "../batch.ts";
import { balancesByAccount, type Report } from "../reports.ts";
import { MemoryTokenStore } from "../tokens.ts";

export interface ContractCompany {
  readonly realmId: string;
  readonly companyName: string;
  readonly homeCurrency: string;
}

export interface ContractFaults {
  readonly latencyMs?: number;
  readonly rate429?: number;
  readonly rate5xx?: number;
  readonly dropRate?: number;
  readonly expireAccessTokens?: boolean;
  readonly seed?: number;
}

export interface ContractTarget {
  readonly endpoints: QboEndpoints;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
  readonly companies: readonly ContractCompany[];
  /** A single-use authorization code, as if the user had consented for `realmId`. */
  authorize(realmId: string): Promise<string>;
  /** Absent on targets that cannot inject faults (real Intuit). */
  setFaults?(faults: ContractFaults): void;
  reset?(): void | Promise<void>;
  close(): Promise<void>;
}

const NO_FAULTS: ContractFaults = { latencyMs: 0, rate429: 0, rate5xx: 0, dropRate: 0, expireAccessTokens: false };

/** Fast retries: tests must not sit out a real Retry-After. */
const FAST_RETRY = { maxAttempts: 12, baseDelayMs: 5, maxDelayMs: 50 };

export function describeQboContract(name: string, factory: () => Promise<ContractTarget>): void {
  describe(`QBO contract: ${name}`, () => {
    let target: ContractTarget;

    beforeAll(async () => {
      target = await factory();
    });
    afterAll(async () => {
      await target?.close();
    });
    beforeEach(async () => {
      await target.reset?.();
      target.setFaults?.(NO_FAULTS);
    });

    async function connect(realmId: string, extra: Partial<QboClientOptions> = {}) {
      const store = new MemoryTokenStore();
      const oauth = new QboOAuth({ clientId: target.clientId, clientSecret: target.clientSecret, redirectUri: target.redirectUri, endpoints: target.endpoints, retry: FAST_RETRY });
      const code = await target.authorize(realmId);
      await connectCompany(oauth, store, realmId, code);
      const client = new QboClient({ realmId, oauth, tokens: store, retry: FAST_RETRY, ...extra });
      /** Another client on the same store: a second process, as far as tokens go. */
      const another = () => new QboClient({ realmId, oauth, tokens: store, retry: FAST_RETRY, ...extra });
      return { client, store, oauth, another };
    }

    const first = (): ContractCompany => {
      const company = target.companies[0];
      if (company === undefined) throw new Error("the target has no companies");
      return company;
    };

    it("exchanges a code, then reads CompanyInfo, Preferences and every account of every company, paging", async () => {
      expect(target.companies.length).toBeGreaterThan(0);
      for (const company of target.companies) {
        const { client } = await connect(company.realmId);
        const info = await client.companyInfo();
        expect(info.companyName).toBe(company.companyName);
        const prefs = await client.preferences();
        expect(prefs.homeCurrency).toBe(company.homeCurrency);
        const accounts = await client.accounts();
        expect(accounts.length).toBeGreaterThan(0);
        expect(new Set(accounts.map((a) => a.id)).size).toBe(accounts.length);
        for (const a of accounts) expect(a.classification === undefined || ["Asset", "Liability", "Equity", "Revenue", "Expense"].includes(a.classification)).toBe(true);

        // The same accounts again, 7 a page: paging must neither lose nor repeat a row.
        let pages = 0;
        const { client: small } = await connect(company.realmId, { pageSize: 7, onCall: (c) => void (c.path === "query" && pages++) });
        const paged = await small.accounts();
        expect(paged.map((a) => a.id)).toEqual(accounts.map((a) => a.id));
        expect(pages).toBe(Math.floor(accounts.length / 7) + 1);
      }
    });

    it("reads reports: a balanced TrialBalance, a BalanceSheet that balances each month, a P&L by month", async () => {
      const { client } = await connect(first().realmId);
      const year = await lastFullYear(client);
      const tb = await client.report("TrialBalance", { start_date: `${year}-01-01`, end_date: `${year}-12-31`, accounting_method: "Accrual" });
      const net = balancesByAccount(tb);
      expect(net.size).toBeGreaterThan(5);
      expect([...net.values()].reduce((sum, [v]) => sum + (v ?? 0), 0)).toBe(0); // debits = credits, to the cent

      const bs = await client.report("BalanceSheet", { start_date: `${year}-01-01`, end_date: `${year}-12-31`, summarize_column_by: "Month" });
      const months = bs.columns.filter((c) => c.money && c.startDate !== undefined);
      expect(months).toHaveLength(12);
      expect(months[0]?.startDate).toBe(`${year}-01-01`);
      const assets = summary(bs, "TotalAssets");
      const liabilitiesAndEquity = summary(bs, "TotalLiabilitiesAndEquity");
      for (const m of months) expect(assets.amounts[m.index] ?? 0).toBe(liabilitiesAndEquity.amounts[m.index] ?? 0);

      const pl = await client.report("ProfitAndLoss", { start_date: `${year}-01-01`, end_date: `${year}-12-31`, summarize_column_by: "Month" });
      expect(pl.columns.filter((c) => c.money && c.startDate !== undefined)).toHaveLength(12);
      const plNet = summary(pl, "NetIncome");
      const total = pl.columns.find((c) => c.key === "total");
      if (total !== undefined) {
        const sumOfMonths = months.reduce((s, m) => s + (plNet.amounts[m.index] ?? 0), 0);
        expect(plNet.amounts[total.index] ?? 0).toBe(sumOfMonths);
      }
    });

    it("posts a journal entry once per requestid, shows it in the TrialBalance, reads, finds it by CDC and deletes it", async () => {
      const company = first();
      const { client } = await connect(company.realmId);
      const accounts = (await client.accounts()).filter((a) => a.active && a.classification === "Asset" && a.accountType !== "Accounts Receivable" && a.accountType !== "Accounts Payable");
      const [debit, credit] = accounts;
      if (debit === undefined || credit === undefined) throw new Error("need two active asset accounts");
      const year = await lastFullYear(client);
      const date = `${year}-06-30`;
      const tbParams = { start_date: `${year}-01-01`, end_date: date } as const;
      const before = balancesByAccount(await client.report("TrialBalance", tbParams));
      const since = new Date(Date.now() - 60_000);

      const entry = {
        txnDate: date,
        currency: company.homeCurrency,
        privateNote: "contract test",
        lines: [
          { postingType: "Debit" as const, amount: 12345, accountId: debit.id, description: "contract" },
          { postingType: "Credit" as const, amount: 12345, accountId: credit.id },
        ],
      };
      const requestId = `contract-${Date.now()}`;
      const created = await client.createJournalEntry(entry, requestId);
      const replay = await client.createJournalEntry(entry, requestId);
      expect(replay.id).toBe(created.id);
      expect(created.lines.map((l) => [l.postingType, l.amount, l.accountId])).toEqual([
        ["Debit", 12345, debit.id],
        ["Credit", 12345, credit.id],
      ]);

      const after = balancesByAccount(await client.report("TrialBalance", tbParams));
      expect((after.get(debit.id)?.[0] ?? 0) - (before.get(debit.id)?.[0] ?? 0)).toBe(12345); // posted once, not twice
      expect((after.get(credit.id)?.[0] ?? 0) - (before.get(credit.id)?.[0] ?? 0)).toBe(-12345);

      const read = await client.readJournalEntry(created.id);
      expect(read).toMatchObject({ id: created.id, txnDate: date });

      const changes = await client.changeDataCapture(["JournalEntry"], since);
      expect(changes["JournalEntry"]?.some((c) => c.id === created.id && !c.deleted)).toBe(true);

      expect(await client.deleteJournalEntry(read.id, read.syncToken)).toEqual({ id: created.id, status: "Deleted" });
      const restored = balancesByAccount(await client.report("TrialBalance", tbParams));
      expect(restored.get(debit.id)?.[0] ?? 0).toBe(before.get(debit.id)?.[0] ?? 0);
      await expect(client.readJournalEntry(created.id)).rejects.toBeInstanceOf(QboError);
    });

    it("lists customers and vendors (inactive ones too), creates one of each; a name taken by a customer cannot go to a vendor (6240)", async () => {
      const { client } = await connect(first().realmId);
      const unique = `GL contract ${Date.now()}`;
      const before = await client.customers();
      const customer = await client.createCustomer(unique);
      expect(customer).toMatchObject({ displayName: unique, active: true });
      const after = await client.customers();
      expect(after).toHaveLength(before.length + 1);
      expect(after.find((c) => c.id === customer.id)).toEqual(customer);
      // Customers and vendors are one list of names at QBO.
      await expect(client.createVendor(unique)).rejects.toMatchObject({ code: "6240", kind: "validation" });
      const vendor = await client.createVendor(`${unique} supplier`);
      expect(vendor.id).not.toBe(customer.id);
      expect((await client.vendors()).find((v) => v.id === vendor.id)).toEqual(vendor);

      await deactivate(client, "customer", customer);
      await deactivate(client, "vendor", vendor);
      expect((await client.customers()).find((c) => c.id === customer.id)?.active).toBe(false);
      expect((await client.vendors()).find((v) => v.id === vendor.id)?.active).toBe(false);
    });

    it("posts journal lines naming a customer; BalanceSheet and ProfitAndLoss filtered by it show exactly those lines", async () => {
      const company = first();
      const { client } = await connect(company.realmId);
      const customer = await client.createCustomer(`GL contract IC ${Date.now()}`);
      const accounts = (await client.accounts()).filter((a) => a.active);
      const asset = accounts.find((a) => a.classification === "Asset" && a.accountType !== "Accounts Receivable" && a.accountType !== "Accounts Payable");
      const income = accounts.find((a) => a.classification === "Revenue");
      if (asset === undefined || income === undefined) throw new Error("need an active asset and an income account");
      const year = await lastFullYear(client);
      const date = `${year}-06-30`;
      const entity = { type: "Customer", id: customer.id } as const;
      const created = await client.createJournalEntry(
        {
          txnDate: date,
          currency: company.homeCurrency,
          privateNote: "contract test: named lines",
          lines: [
            { postingType: "Debit", amount: 12345, accountId: asset.id, entity },
            { postingType: "Credit", amount: 12345, accountId: income.id, entity },
          ],
        },
        `contract-ic-${Date.now()}`,
      );
      const named = { type: "Customer", id: customer.id, name: customer.displayName };
      expect(created.lines.map((l) => l.entity)).toEqual([named, named]);
      expect((await client.readJournalEntry(created.id)).lines.map((l) => l.entity)).toEqual([named, named]);

      const pl = await client.report("ProfitAndLoss", { start_date: `${year}-06-01`, end_date: date, summarize_column_by: "Month", customer: customer.id });
      expect(pl.customer).toBe(customer.id);
      const plAccounts = balancesByAccount(pl);
      expect([...plAccounts.keys()]).toEqual([income.id]);
      expect(plAccounts.get(income.id)?.every((v) => v === 12345)).toBe(true);
      const bs = await client.report("BalanceSheet", { start_date: date, end_date: date, customer: customer.id });
      expect(bs.customer).toBe(customer.id);
      expect([...balancesByAccount(bs)]).toEqual([[asset.id, [12345]]]);

      await client.deleteJournalEntry(created.id, created.syncToken);
      const gone = await client.report("ProfitAndLoss", { start_date: `${year}-06-01`, end_date: date, customer: customer.id });
      expect(gone.noReportData).toBe(true);
      await deactivate(client, "customer", customer);
    });

    it("runs queries and writes in batches of 30, each item answered on its own: a Fault classified as a call's would be", async () => {
      const company = first();
      let batches = 0;
      const { client } = await connect(company.realmId, { onCall: (c) => void (c.path === "batch" && batches++) });
      const unique = `GL batch ${Date.now()}`;
      const taken = await client.createCustomer(`${unique} taken`);
      const [made, duplicate, accounts, missing, badQuery] = await client.batch([
        { operation: "create", entity: "Customer", body: { DisplayName: unique }, schema: customerSchema },
        { operation: "create", entity: "Vendor", body: { DisplayName: taken.displayName }, schema: vendorSchema },
        { query: "SELECT * FROM Account WHERE Active IN (true, false)", schema: accountSchema },
        { operation: "delete", entity: "JournalEntry", body: { Id: "987654321", SyncToken: "0" }, schema: journalEntrySchema },
        { query: "SELECT * FROM Custmoer", schema: customerSchema },
      ]);
      expect(batches).toBe(1);
      expect(made.ok && made.value).toMatchObject({ displayName: unique, active: true });
      expect(duplicate.ok ? duplicate.value : duplicate.error).toMatchObject({ code: "6240", kind: "validation", status: 400 });
      expect(accounts.ok && accounts.value.map((a) => a.id).sort()).toEqual((await client.accounts()).map((a) => a.id).sort());
      expect(missing.ok ? missing.value : missing.error).toMatchObject({ code: "610", kind: "not_found" });
      expect(badQuery.ok ? badQuery.value : badQuery.error).toMatchObject({ code: "4001", kind: "validation" });

      // A lone item goes as a call of its own, with the same outcome.
      const calls: string[] = [];
      const { client: counted } = await connect(company.realmId, { onCall: (c) => void calls.push(`${c.method} ${c.path}`) });
      const [alone] = await counted.batch([{ operation: "create", entity: "Vendor", body: { DisplayName: taken.displayName }, schema: vendorSchema }]);
      expect(alone.ok ? alone.value : alone.error).toMatchObject({ code: "6240", kind: "validation", status: 400 });
      const [rows] = await counted.batch([{ query: `SELECT * FROM Customer WHERE DisplayName = '${unique}'`, schema: customerSchema }]);
      expect(rows.ok && rows.value.map((c) => c.displayName)).toEqual([unique]);
      expect(calls).toEqual(["POST vendor", "GET query"]);

      // 65 items go as 30 + 30 + 5, answered in order.
      batches = 0;
      const names = await client.batch(Array.from({ length: 65 }, (_, i) => ({ query: `SELECT * FROM Customer WHERE DisplayName = '${i % 2 === 0 ? unique : `${unique} taken`}'`, schema: customerSchema })));
      expect(batches).toBe(3);
      expect(names.map((n) => (n.ok ? n.value.map((c) => c.displayName) : []))).toEqual(Array.from({ length: 65 }, (_, i) => [i % 2 === 0 ? unique : `${unique} taken`]));
      if (made.ok) await deactivate(client, "customer", made.value);
      await deactivate(client, "customer", taken);
    });

    it("posts journal entries in one batch request under the caller's requestid: each answered on its own, the same request again replayed, not made twice", async () => {
      const company = first();
      const calls: { path: string; requestId: string | null }[] = [];
      const seen: typeof fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (init?.method === "POST") calls.push({ path: url.pathname.split("/").pop()!, requestId: url.searchParams.get("requestid") });
        return fetch(input, init);
      };
      const { client } = await connect(company.realmId, { fetch: seen });
      const [debit, credit] = (await client.accounts()).filter((a) => a.active && a.classification === "Asset" && a.accountType !== "Accounts Receivable" && a.accountType !== "Accounts Payable");
      if (debit === undefined || credit === undefined) throw new Error("need two active asset accounts");
      const year = await lastFullYear(client);
      const stamp = Date.now();
      const entry = (n: number, accountId = debit.id): NewJournalEntry => ({
        txnDate: `${year}-07-31`,
        currency: company.homeCurrency,
        docNumber: `GLB${String(stamp).slice(-8)}-${n}`,
        privateNote: "contract test: a batch of entries",
        lines: [{ postingType: "Debit", amount: 500 + n, accountId }, { postingType: "Credit", amount: 500 + n, accountId: credit.id }],
      });
      const entries = [entry(1), entry(2, "987654321"), entry(3)];
      const requestId = `contract-batch-${stamp}`;
      calls.length = 0;
      const answered = await client.createJournalEntries(entries, requestId);
      expect(calls).toEqual([{ path: "batch", requestId }]);
      const shown = answered.map((a) => (a.ok ? { docNumber: a.value.docNumber } : { status: a.error.status }));
      expect(shown).toEqual([{ docNumber: entries[0]!.docNumber }, { status: 400 }, { docNumber: entries[2]!.docNumber }]);

      // The answer lost and the same batch sent again: QuickBooks answers what it made the first time.
      const again = await client.createJournalEntries(entries, requestId);
      const ids = (list: readonly BatchOutcome<JournalEntry>[]) => list.map((a) => (a.ok ? a.value.id : a.error.code));
      expect(ids(again)).toEqual(ids(answered));
      for (const e of [entries[0]!, entries[2]!]) {
        expect(await client.query(`SELECT * FROM JournalEntry WHERE DocNumber = '${e.docNumber}'`, journalEntrySchema)).toHaveLength(1);
      }
      // One entry still goes as a batch under the caller's requestid (a batch is what was recorded).
      calls.length = 0;
      const alone = await client.createJournalEntries([entry(4)], `${requestId}-alone`);
      expect(calls).toEqual([{ path: "batch", requestId: `${requestId}-alone` }]);
      for (const made of [...answered, ...alone]) if (made.ok) await client.deleteJournalEntry(made.value.id, made.value.syncToken);
    });

    it("reads posted journal entries by id in one call: a deleted or unknown id is absent", async () => {
      const company = first();
      const calls: string[] = [];
      const { client } = await connect(company.realmId, { onCall: (c) => void calls.push(`${c.method} ${c.path}`) });
      const [debit, credit] = (await client.accounts()).filter((a) => a.active && a.classification === "Asset" && a.accountType !== "Accounts Receivable" && a.accountType !== "Accounts Payable");
      if (debit === undefined || credit === undefined) throw new Error("need two active asset accounts");
      const year = await lastFullYear(client);
      const post = (n: number) =>
        client.createJournalEntry(
          { txnDate: `${year}-06-30`, currency: company.homeCurrency, privateNote: "contract test: read back by id", lines: [{ postingType: "Debit", amount: 100 + n, accountId: debit.id }, { postingType: "Credit", amount: 100 + n, accountId: credit.id }] },
          `contract-byid-${Date.now()}-${n}`,
        );
      const kept = await post(1);
      const gone = await post(2);
      await client.deleteJournalEntry(gone.id, gone.syncToken);
      calls.length = 0;
      const found = await client.journalEntriesById([kept.id, gone.id, "987654321", kept.id]);
      expect(calls).toEqual(["GET query"]);
      expect([...found.keys()]).toEqual([kept.id]);
      expect(found.get(kept.id)).toEqual(await client.readJournalEntry(kept.id));
      // More ids than one query takes: one batch of queries.
      calls.length = 0;
      const many = await client.journalEntriesById([...Array.from({ length: 250 }, (_, i) => String(900_000_000 + i)), kept.id]);
      expect(calls).toEqual(["POST batch"]);
      expect([...many.keys()]).toEqual([kept.id]);
      await expect(client.journalEntriesById(["1 OR 1=1"])).rejects.toThrow(RangeError);
      await client.deleteJournalEntry(kept.id, kept.syncToken);
    });

    it("answers faults the way Intuit does: 4001 for a bad query, a ValidationFault for an unbalanced entry", async () => {
      const company = first();
      const { client } = await connect(company.realmId);
      await expect(client.query("SELECT * FROM Custmoer WHERE")).rejects.toMatchObject({ kind: "validation", code: "4001" });
      const [a] = await client.accounts();
      const unbalanced = {
        TxnDate: "2024-01-31",
        Line: [{ DetailType: "JournalEntryLineDetail", Amount: 10, JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: a?.id } } }],
      };
      const err = await client.raw({ method: "POST", path: "journalentry", body: unbalanced, requestId: `unbalanced-${Date.now()}` }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QboError);
      expect(err).toMatchObject({ kind: "validation", status: 400 });
    });

    it("rotates refresh tokens: a refresh stores the new one and the client keeps working", async () => {
      const { client, store, oauth, another } = await connect(first().realmId);
      const initial = await store.load(first().realmId);
      if (initial === null) throw new Error("not connected");
      const next = await oauth.refresh(initial.refreshToken);
      await store.save(first().realmId, next);
      expect(next.accessToken).not.toBe(initial.accessToken);
      await expect(client.companyInfo()).resolves.toMatchObject({ companyName: first().companyName });
      // An expired access token is refreshed before use, exactly once for many callers.
      await store.save(first().realmId, { ...next, accessTokenExpiresAt: Date.now() - 1 });
      const [a, b] = [another(), another()];
      await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).companyInfo()));
      expect(a.accessTokens.refreshes + b.accessTokens.refreshes).toBe(1);
      const rotated = await store.load(first().realmId);
      // Intuit may hand back the same refresh token for up to a day, so only the access token must change.
      expect(rotated?.refreshToken).toBeTruthy();
      expect(rotated?.accessToken).not.toBe(next.accessToken);
    });

    it("handles 3200: an access token the service no longer accepts is refreshed once", async () => {
      const { client, store } = await connect(first().realmId);
      const tokens = await store.load(first().realmId);
      if (tokens === null) throw new Error("not connected");
      await store.save(first().realmId, { ...tokens, accessToken: `${tokens.accessToken}-tampered` });
      await expect(client.companyInfo()).resolves.toMatchObject({ companyName: first().companyName });
      expect(client.accessTokens.refreshes).toBe(1);
    });

    it("while the service calls every access token expired: one refresh, then a 'reauthorize' error", async (ctx) => {
      if (target.setFaults === undefined) return ctx.skip();
      const { client } = await connect(first().realmId);
      await client.companyInfo();
      target.setFaults({ ...NO_FAULTS, expireAccessTokens: true });
      const err = await client.companyInfo().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QboError);
      expect(err).toMatchObject({ kind: "reauthorize", code: "3200", status: 401 });
      expect(client.accessTokens.refreshes).toBe(1); // refreshed once, not in a loop
      target.setFaults(NO_FAULTS);
      await expect(client.companyInfo()).resolves.toMatchObject({ companyName: first().companyName });
    });

    it("after revoke, calls fail with a 'reauthorize' error", async () => {
      const { client, store, oauth } = await connect(first().realmId);
      const tokens = await store.load(first().realmId);
      if (tokens === null) throw new Error("not connected");
      await oauth.revoke(tokens.refreshToken);
      const err = await client.companyInfo().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QboError);
      expect((err as QboError).kind).toBe("reauthorize");
    });

    it("keeps within 10 concurrent requests without a single 429 from the service", async () => {
      const statuses: number[] = [];
      const { client } = await connect(first().realmId, { onCall: (c) => void statuses.push(c.status) });
      await Promise.all(Array.from({ length: 40 }, () => client.companyInfo()));
      expect(statuses.filter((s) => s === 429)).toEqual([]);
      expect(statuses).toHaveLength(40);
    });

    it("under injected 429s, 5xx and dropped connections returns exactly what a clean run returns", async (ctx) => {
      if (target.setFaults === undefined) return ctx.skip();
      const company = first();
      const pull = async () => {
        const { client } = await connect(company.realmId, { pageSize: 20 });
        const year = await lastFullYear(client);
        return {
          info: await client.companyInfo(),
          accounts: await client.accounts(),
          tb: await client.report("TrialBalance", { start_date: `${year}-01-01`, end_date: `${year}-12-31` }),
        };
      };
      const clean = await pull();
      const statuses: number[] = [];
      target.setFaults({ rate429: 0.25, rate5xx: 0.15, dropRate: 0.1, seed: 42 });
      const { client } = await connect(company.realmId, { pageSize: 20, onCall: (c) => void statuses.push(c.status) });
      const year = await lastFullYear(client);
      const faulty = { info: await client.companyInfo(), accounts: await client.accounts(), tb: await client.report("TrialBalance", { start_date: `${year}-01-01`, end_date: `${year}-12-31` }) };
      expect(faulty.info).toEqual(clean.info);
      expect(faulty.accounts).toEqual(clean.accounts);
      expect(faulty.tb.rows).toEqual(clean.tb.rows);
      // A batch is retried too (its requestid makes a repeat answer the first), and creates once.
      const name = `GL batch under faults ${Date.now()}`;
      const created = await client.batch([
        { operation: "create", entity: "Customer", body: { DisplayName: name }, schema: customerSchema },
        { operation: "create", entity: "Vendor", body: { DisplayName: `${name} supplier` }, schema: vendorSchema },
      ]);
      expect(created.map((c) => c.ok)).toEqual([true, true]);
      target.setFaults(NO_FAULTS);
      expect((await client.customers()).filter((c) => c.displayName === name)).toHaveLength(1);
      expect((await client.vendors()).filter((v) => v.displayName === `${name} supplier`)).toHaveLength(1);
      // The faults really happened and were retried.
      expect(statuses.some((s) => s === 429)).toBe(true);
      expect(statuses.some((s) => s >= 500 || s === 0)).toBe(true);
    });
  });
}

/** Makes a name inactive (a sparse update): QBO never deletes customers or vendors. */
async function deactivate(client: QboClient, path: "customer" | "vendor", record: { id: string; syncToken: string }): Promise<void> {
  await client.raw({ method: "POST", path, body: { Id: record.id, SyncToken: record.syncToken, sparse: true, Active: false }, requestId: randomUUID() });
}

/** The last complete calendar year with activity, from CompanyInfo's start date and today. */
async function lastFullYear(client: QboClient): Promise<number> {
  const info = await client.companyInfo();
  const started = Number((info.companyStartDate ?? "").slice(0, 4));
  const year = new Date().getUTCFullYear() - 1;
  return Number.isFinite(started) && started > year ? started : year;
}

function summary(report: Report, group: string) {
  const row = report.rows.find((r) => r.kind === "summary" && r.group === group) ?? report.rows.find((r) => r.group === group);
  if (row === undefined) throw new Error(`${report.name} has no ${group} row`);
  return row;
}
