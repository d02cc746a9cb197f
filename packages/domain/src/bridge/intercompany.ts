import type { ConsolidationInputJson } from "../consolidation/input-schema.ts";
import { monthList } from "../periods/month.ts";
import type { ChartRow } from "./books.ts";
import type { GroupCompany, IntercompanyPair, NameBalanceRow, NameKind, NameRow, PairSide } from "./group.ts";
import type { Problem } from "./problems.ts";

type IntercompanyJson = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["intercompany"]>[number];

const nameKey = (realmId: string, name: { kind: NameKind; id: string }) => `${realmId}|${name.kind}|${name.id}`;

/** The customers and vendors the pairs' sides are limited to (what the server reads names and balances of). */
export function pairNames(pairs: readonly IntercompanyPair[]): { realmId: string; kind: NameKind; id: string }[] {
  return pairs.flatMap((p) => [p.left, p.right]).flatMap((s) => (s.name ? [{ realmId: s.entity, ...s.name }] : []));
}

/**
 * The intercompany pairs (Interco Eliminations) whose two companies are both in the consolidation,
 * as the engine's eliminations. A side limited to a customer or vendor carries that name's own
 * balances in the account (sync/names.ts), which must be fetched through the period. A side whose
 * account or name is gone from QBO, or whose name balances are not fetched, is a Problem and the
 * pair is left out. Every pair carries the group's tolerance: the engine classifies it
 * (pair-match.ts) exactly as the eliminations screen shows it, so reports and posted entries agree.
 */
export function intercompanyRules(args: {
  pairs: readonly IntercompanyPair[];
  group: readonly GroupCompany[];
  charts: ReadonlyMap<string, readonly ChartRow[]>;
  names: readonly NameRow[];
  nameBalances: readonly NameBalanceRow[];
  opening: string;
  to: string;
  syncedThrough: ReadonlyMap<string, string>;
  /** The group's tolerance (GroupSnapshot.eliminationTolerance), given to every pair. */
  tolerance: number;
  problems: Problem[];
}): IntercompanyJson[] {
  const { problems } = args;
  const months = monthList(args.opening, args.to);
  const names = new Map(args.names.map((n) => [nameKey(n.realmId, { kind: n.kind, id: n.qboId }), n]));
  const amounts = new Map<string, number>();
  for (const r of args.nameBalances) {
    const month = r.month.slice(0, 7);
    if (month < args.opening || month > args.to) continue;
    const key = `${nameKey(r.realmId, { kind: r.nameKind, id: r.nameId })}|${r.qboAccountId}|${month}`;
    amounts.set(key, r.amountMinor);
  }
  const inGroup = new Map(args.group.map((c) => [c.realmId, c]));
  const sideOf = (p: IntercompanyPair, side: PairSide) => {
    const company = inGroup.get(side.entity)!;
    if (!args.charts.get(side.entity)?.some((a) => a.id === side.account)) {
      problems.push({
        code: "invalid_pair",
        realmId: side.entity,
        accountId: side.account,
        message: `The intercompany pair "${p.name}" names account ${side.account} of ${company.companyName}, which is no longer in its QuickBooks chart; fix the pair on Interco Eliminations.`,
      });
      return null;
    }
    if (!side.name) return { entity: side.entity, account: side.account };
    const key = nameKey(side.entity, side.name);
    const name = names.get(key);
    const kind = side.name.kind.toLowerCase();
    if (!name) {
      problems.push({
        code: "invalid_pair",
        realmId: side.entity,
        message: `The intercompany pair "${p.name}" is limited to ${kind} ${side.name.id} of ${company.companyName}, which is not in its QuickBooks; fix the pair on Interco Eliminations.`,
      });
      return null;
    }
    const needed = [months.at(-1)!, args.syncedThrough.get(side.entity) ?? months.at(-1)!].sort()[0]!;
    if (!name.balancesThrough || name.balancesThrough < needed) {
      problems.push({
        code: "name_not_synced",
        realmId: side.entity,
        message: `${company.companyName}'s balances with ${kind} ${name.displayName} (pair "${p.name}") ${name.balancesThrough ? `are fetched through ${name.balancesThrough} only` : "have not been fetched yet"}; sync ${company.companyName} to fetch them.`,
      });
      return null;
    }
    return { entity: side.entity, account: side.account, portion: { name: name.displayName, from: months[0]!, amounts: months.map((m) => amounts.get(`${key}|${side.account}|${m}`) ?? 0) } };
  };
  return args.pairs
    .filter((p) => inGroup.has(p.left.entity) && inGroup.has(p.right.entity))
    .flatMap((p) => {
      const left = sideOf(p, p.left);
      const right = sideOf(p, p.right);
      return left && right ? [{ id: p.id, kind: p.kind, left, right, differenceTo: p.differenceTo, tolerance: args.tolerance }] : [];
    });
}
