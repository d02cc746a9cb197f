import { and, eq, inArray, sql } from "drizzle-orm";
import type { CompanyMap } from "@groupledger/contract";
import { chartMappingProblem, groupNames, isCompanyMapped, suggestMappings } from "@groupledger/domain";
import type { z } from "zod";
import type { suggestionsResponseSchema } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { accountMaps } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit, type RequestMeta } from "../../services/audit.ts";
import { chartOf } from "../companies/chart.ts";
import { loadGroup, NO_SUCH_COMPANY } from "../group/service.ts";

/** A subsidiary of the caller's account and the account's parent, or the error that says what is missing. */
async function subsidiaryAndParent(db: Db, accountId: string, realmId: string) {
  const group = await loadGroup(db, accountId);
  const company = group.company(realmId, NO_SUCH_COMPANY);
  const parent = group.requireParent("subsidiaries are mapped onto the parent's chart of accounts");
  if (company.isParent) throw errors.conflict("parent_not_mapped", "The parent's chart is the one subsidiaries map onto; it is not mapped itself.");
  return { company, parent, all: group.companies };
}

type Chart = Awaited<ReturnType<typeof chartOf>>;

/** `charts`: both charts when the caller has just read them (a change writes maps, never charts). */
async function loadMap(db: Db, realmId: string, parentRealmId: string, charts?: { sub: Chart; parent: Chart }): Promise<CompanyMap> {
  const [sub, parentChart, rows] = await Promise.all([
    charts?.sub ?? chartOf(db, realmId),
    charts?.parent ?? chartOf(db, parentRealmId),
    db.select({ subAccountId: accountMaps.subAccountId, parentAccountId: accountMaps.parentAccountId }).from(accountMaps).where(eq(accountMaps.realmId, realmId)),
  ]);
  const subById = new Map(sub.map((a) => [a.id, a]));
  const parentById = new Map(parentChart.map((a) => [a.id, a]));
  const map: Record<string, string> = {};
  const invalid: CompanyMap["invalid"] = [];
  for (const row of rows) {
    map[row.subAccountId] = row.parentAccountId;
    const s = subById.get(row.subAccountId);
    const p = parentById.get(row.parentAccountId);
    const reason = !s
      ? "This account is no longer in the subsidiary's QuickBooks chart."
      : !p
        ? "The parent account it maps to is no longer in the parent's QuickBooks chart."
        : chartMappingProblem(s, p);
    if (reason) invalid.push({ accountId: row.subAccountId, parentAccountId: row.parentAccountId, reason });
  }
  const neverABalance = sub.filter((a) => !a.everHadBalance).map((a) => a.id);
  const withBalance = sub.filter((a) => a.everHadBalance);
  return {
    realmId,
    parentRealmId,
    map,
    mapped: withBalance.filter((a) => map[a.id] !== undefined).length,
    toMap: withBalance.length,
    complete: sub.length > 0 && isCompanyMapped(sub.map((a) => a.id), Object.keys(map), neverABalance),
    invalid,
  };
}

/**
 * A subsidiary's account map onto the parent's chart (SPEC §4 Account mapping): reading it, the
 * progress of every subsidiary, changing it (every change audited, a batch all or nothing) and the
 * ranked suggestions.
 */
export class MappingService {
  constructor(private readonly db: Db) {}

  async companyMap(user: UserRow, realmId: string): Promise<CompanyMap> {
    const { parent } = await subsidiaryAndParent(this.db, user.accountId, realmId);
    return loadMap(this.db, realmId, parent.realmId);
  }

  /** Every subsidiary's map, keyed by realmId; none before a parent is chosen. */
  async allMaps(user: UserRow): Promise<Record<string, CompanyMap>> {
    const { parent, subsidiaries } = await loadGroup(this.db, user.accountId);
    if (!parent) return {};
    return Object.fromEntries(await Promise.all(subsidiaries.map(async (c) => [c.realmId, await loadMap(this.db, c.realmId, parent.realmId)] as const)));
  }

  /** Subsidiary account id → parent account id. */
  async map(user: UserRow, realmId: string, map: Record<string, string>, meta: RequestMeta): Promise<CompanyMap> {
    return this.writePairs(user, realmId, Object.entries(map), meta);
  }

  /** Parent account id → the subsidiary accounts mapped onto it; an account listed under two parents is refused. */
  async multimap(user: UserRow, realmId: string, map: Record<string, string[]>, meta: RequestMeta): Promise<CompanyMap> {
    const pairs = Object.entries(map).flatMap(([parentId, subIds]) => subIds.map((s) => [s, parentId] as [string, string]));
    const seen = new Set<string>();
    const twice = pairs.find(([s]) => (seen.has(s) ? true : (seen.add(s), false)));
    if (twice) throw errors.badRequest("invalid_mapping", `Account ${twice[0]} is listed under two parent accounts; an account maps to one.`);
    return this.writePairs(user, realmId, pairs, meta);
  }

  async unmap(user: UserRow, realmId: string, accountIds: string[], meta: RequestMeta): Promise<CompanyMap> {
    return this.removeMaps(user, realmId, accountIds, "mapping.unmapped", meta);
  }

  async clear(user: UserRow, realmId: string, meta: RequestMeta): Promise<CompanyMap> {
    return this.removeMaps(user, realmId, null, "mapping.cleared", meta);
  }

  /** Removes the maps of these accounts that are invalid; valid ones are kept (and nothing is audited when none is). */
  async unmapInvalid(user: UserRow, realmId: string, accountIds: string[], meta: RequestMeta): Promise<CompanyMap> {
    const { parent } = await subsidiaryAndParent(this.db, user.accountId, realmId);
    const current = await loadMap(this.db, realmId, parent.realmId);
    const asked = new Set(accountIds);
    const invalidIds = current.invalid.map((i) => i.accountId).filter((id) => asked.has(id));
    if (invalidIds.length === 0) return current;
    return this.removeMaps(user, realmId, invalidIds, "mapping.invalid_unmapped", meta);
  }

  /** Ranked parent accounts for each unmapped account with a balance (`all`: mapped ones too). */
  async suggestions(user: UserRow, realmId: string, all: boolean): Promise<z.infer<typeof suggestionsResponseSchema>> {
    const { company, parent, all: companies } = await subsidiaryAndParent(this.db, user.accountId, realmId);
    const [sub, parentChart] = await Promise.all([chartOf(this.db, realmId), chartOf(this.db, parent.realmId)]);
    const current = await loadMap(this.db, realmId, parent.realmId, { sub, parent: parentChart });
    const todo = sub.filter((a) => a.everHadBalance && (all || current.map[a.id] === undefined));
    // Intercompany accounts are recognised by the group's company names (archived ones too: their balances still name them).
    const group = groupNames({ parent: parent.companyName, self: company.companyName, others: companies.map((c) => c.companyName) }, parentChart);
    const suggestions = suggestMappings(todo, parentChart, { group });
    return {
      suggestions: Object.fromEntries(
        [...suggestions].map(([id, list]) => [
          id,
          list.map((s) => ({ parentAccountId: s.parentId, score: s.score, reasons: s.reasons, confident: s.confident, caution: s.caution })),
        ]),
      ),
    };
  }

  /** Checks every pair before writing any: a batch with one bad pair changes nothing. */
  private async writePairs(user: UserRow, realmId: string, pairs: [string, string][], meta: RequestMeta): Promise<CompanyMap> {
    const { db } = this;
    const { parent } = await subsidiaryAndParent(db, user.accountId, realmId);
    const [sub, parentChart] = await Promise.all([chartOf(db, realmId), chartOf(db, parent.realmId)]);
    const subById = new Map(sub.map((a) => [a.id, a]));
    const parentById = new Map(parentChart.map((a) => [a.id, a]));
    const fields: { path: string; message: string }[] = [];
    for (const [subId, parentId] of pairs) {
      const s = subById.get(subId);
      const p = parentById.get(parentId);
      const problem = !s
        ? `Account ${subId} is not in this subsidiary's chart of accounts.`
        : !p
          ? `Account ${parentId} is not in the parent's chart of accounts.`
          : chartMappingProblem(s, p);
      if (problem) fields.push({ path: `map.${subId}`, message: problem });
    }
    if (fields.length > 0) {
      throw new AppError(400, "invalid_mapping", fields.length === 1 ? fields[0]!.message : `${fields.length} accounts cannot be mapped as asked; nothing was changed.`, { fields });
    }
    const userId = user.id;
    await db.transaction(async (tx) => {
      for (let i = 0; i < pairs.length; i += 2000) {
        const batch = pairs.slice(i, i + 2000).map(([subAccountId, parentAccountId]) => ({ realmId, subAccountId, parentAccountId, mappedBy: userId, updatedAt: new Date() }));
        await tx
          .insert(accountMaps)
          .values(batch)
          .onConflictDoUpdate({
            target: [accountMaps.realmId, accountMaps.subAccountId],
            set: { parentAccountId: sql`excluded.parent_account_id`, mappedBy: userId, updatedAt: new Date() },
          });
      }
    });
    await audit(db, { action: "mapping.mapped", accountId: user.accountId, userId, details: { realmId, count: pairs.length, pairs: pairs.slice(0, 50) }, ...meta });
    return loadMap(db, realmId, parent.realmId, { sub, parent: parentChart });
  }

  private async removeMaps(user: UserRow, realmId: string, accountIds: string[] | null, action: string, meta: RequestMeta): Promise<CompanyMap> {
    const { db } = this;
    const { parent } = await subsidiaryAndParent(db, user.accountId, realmId);
    const where = accountIds === null ? eq(accountMaps.realmId, realmId) : and(eq(accountMaps.realmId, realmId), inArray(accountMaps.subAccountId, accountIds));
    const removed = await db.delete(accountMaps).where(where).returning({ id: accountMaps.subAccountId });
    await audit(db, {
      action,
      accountId: user.accountId,
      userId: user.id,
      details: { realmId, removed: removed.length, accountIds: removed.slice(0, 50).map((r) => r.id) },
      ...meta,
    });
    return loadMap(db, realmId, parent.realmId);
  }
}
