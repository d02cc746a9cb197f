import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { Company, CompanyAccount, CompanyStatus, neverABalanceQuerySchema } from "@groupledger/contract";
import { byQboId } from "@groupledger/domain";
import type { Database } from "../../db/client.ts";
import { companies } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { audit, type Actor } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import type { PgTokenStore } from "../../services/qbo-token-store.ts";
import { loadGroup, NO_SUCH_COMPANY, toCompany, type CompanyRow } from "../group/service.ts";
import { enqueueSync } from "../sync/enqueue.ts";
import { accountsWithLatestAmounts } from "./chart.ts";

const toStatus = (c: CompanyRow): CompanyStatus => ({
  connection: c.connection,
  sync: {
    state: c.syncState,
    progress: c.syncProgress === null ? null : Number(c.syncProgress),
    message: c.syncMessage,
    lastSyncedAt: c.lastSyncedAt?.toISOString() ?? null,
    lastChanges: c.lastSyncChanges,
  },
});

/**
 * The group's companies (SPEC §4 Companies): which is the parent, removing, disconnecting and
 * archiving one, syncing it, and reading their synced charts. Another account's realm is
 * indistinguishable from none: 404 "No such company in your account.".
 */
export class CompaniesService {
  constructor(
    private readonly database: Database,
    private readonly queue: JobQueue,
    private readonly provider: QboProvider,
    private readonly tokenStore: PgTokenStore,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** The account's company, or 404. */
  private async own(accountId: string, realmId: string): Promise<CompanyRow> {
    return (await loadGroup(this.db, accountId)).company(realmId, NO_SUCH_COMPANY);
  }

  private log(actor: Actor, action: string, details: Record<string, unknown>): Promise<void> {
    return audit(this.db, { action, ...actor, details });
  }

  /** Parent first, then subsidiaries by name. */
  async list(accountId: string): Promise<Company[]> {
    return (await loadGroup(this.db, accountId)).companies.map(toCompany);
  }

  /** Connection and sync status of each company, keyed by realmId. */
  async statuses(accountId: string): Promise<Record<string, CompanyStatus>> {
    const group = await loadGroup(this.db, accountId);
    return Object.fromEntries(group.companies.map((c) => [c.realmId, toStatus(c)]));
  }

  /** The previous parent becomes a subsidiary; the parent owns itself wholly. An archived company cannot be the parent. */
  async setParent(actor: Actor, realmId: string): Promise<Company[]> {
    const { accountId } = actor;
    const target = await this.own(accountId, realmId);
    if (target.archivedAt) throw errors.conflict("company_archived", "An archived company cannot be the parent. Unarchive it first.");
    await this.db.transaction(async (tx) => {
      await tx.update(companies).set({ isParent: false, updatedAt: new Date() }).where(and(eq(companies.accountId, accountId), eq(companies.isParent, true)));
      await tx.update(companies).set({ isParent: true, ownershipPercent: "100", updatedAt: new Date() }).where(eq(companies.realmId, target.realmId));
    });
    await this.log(actor, "company.parent_set", { realmId: target.realmId });
    return this.list(accountId);
  }

  /** Removes the company and its synced data (QuickBooks itself is untouched). */
  async remove(actor: Actor, realmId: string, logger: FastifyBaseLogger): Promise<void> {
    const company = await this.own(actor.accountId, realmId);
    await this.revokeQuietly(company.realmId, logger);
    await this.db.delete(companies).where(eq(companies.realmId, company.realmId));
    await this.log(actor, "company.removed", { realmId: company.realmId, companyName: company.companyName });
  }

  /** Revokes the tokens at QuickBooks; the synced data stays. */
  async disconnect(actor: Actor, realmId: string, logger: FastifyBaseLogger): Promise<void> {
    const company = await this.own(actor.accountId, realmId);
    await this.revokeQuietly(company.realmId, logger);
    await this.db.update(companies).set({ connection: "disconnected", updatedAt: new Date() }).where(eq(companies.realmId, company.realmId));
    await this.log(actor, "company.disconnected", { realmId: company.realmId });
  }

  /** Archives a company from `date` (it leaves consolidations after it); null unarchives. The parent cannot be archived. */
  async archive(actor: Actor, realmId: string, date: string | null): Promise<void> {
    const company = await this.own(actor.accountId, realmId);
    if (company.isParent && date) throw errors.conflict("parent_archive", "The parent cannot be archived. Make another company the parent first.");
    await this.db.update(companies).set({ archivedAt: date, updatedAt: new Date() }).where(eq(companies.realmId, company.realmId));
    await this.log(actor, date ? "company.archived" : "company.unarchived", { realmId: company.realmId, date });
  }

  /** Queues a sync, or returns the one already queued or running. Only a connected company syncs. */
  async sync(accountId: string, realmId: string) {
    const company = await this.own(accountId, realmId);
    if (company.connection !== "connected") throw errors.conflict("not_connected", "Reconnect this company before syncing it.");
    return enqueueSync(this.database, this.queue, company);
  }

  /** A company's synced chart of accounts with latest amounts. */
  async accounts(accountId: string, realmId: string): Promise<CompanyAccount[]> {
    const company = await this.own(accountId, realmId);
    return (await accountsWithLatestAmounts(this.db, [company.realmId])).get(company.realmId) ?? [];
  }

  /** Every company's synced chart, keyed by realmId. */
  async allAccounts(accountId: string): Promise<Record<string, CompanyAccount[]>> {
    const realms = (await loadGroup(this.db, accountId)).companies.map((c) => c.realmId);
    const byRealm = await accountsWithLatestAmounts(this.db, realms);
    return Object.fromEntries(realms.map((r) => [r, byRealm.get(r) ?? []]));
  }

  /** The ids of the accounts that never had a balance, per company, in QBO id order. */
  async neverABalance(accountId: string, query: z.output<typeof neverABalanceQuerySchema>): Promise<{ realmId: string; neverABalanceAccountsForCompany: string[] }[]> {
    const { realmId, forAllCompanies, status } = query;
    const group = await loadGroup(this.db, accountId);
    const realms = forAllCompanies === "true" ? group.companies.map((c) => c.realmId) : [group.company(realmId ?? "", NO_SUCH_COMPANY).realmId];
    const byRealm = await accountsWithLatestAmounts(this.db, realms);
    return realms.map((r) => ({
      realmId: r,
      neverABalanceAccountsForCompany: (byRealm.get(r) ?? [])
        .filter((a) => !a.everHadBalance && (status === "all" || a.active === (status === "active")))
        .map((a) => a.Id)
        .sort(byQboId),
    }));
  }

  /** Revoking is best effort: the company is disconnected on our side whatever QuickBooks says. */
  private async revokeQuietly(realmId: string, logger: FastifyBaseLogger): Promise<void> {
    const tokens = await this.tokenStore.load(realmId).catch(() => null);
    if (tokens) {
      await this.provider
        .oauth("http://localhost/qbo/auth/complete")
        .revoke(tokens.refreshToken)
        .catch((err: unknown) => logger.warn({ err, realmId }, "revoking at QuickBooks failed; the tokens are deleted anyway"));
    }
    await this.tokenStore.delete(realmId);
  }
}
