import type { IssueList } from "./errors.ts";
import type { ConsolidationInput } from "./input-schema.ts";
import { compiledAccount, LineKind, type CompiledAccount, type CompiledEntity, type CompiledGroup } from "./model.ts";

/**
 * Why a subsidiary account may not feed a parent account, or undefined when it may.
 * Classifications must be equal (an asset never lands on an expense), and equity must keep its
 * nature: contributed capital to contributed capital, retained earnings and dividends to either
 * of those two, other reserves to other reserves.
 */
export function mappingProblem(from: CompiledAccount, to: CompiledAccount): string | undefined {
  if (from.classification !== to.classification) {
    return `${from.classification} account "${from.id}" cannot map to ${to.classification} account "${to.id}"`;
  }
  if (from.classification !== "Equity") return undefined;
  const group = (k: LineKind) => (k === LineKind.RetainedEarnings || k === LineKind.Dividends ? "retained" : k === LineKind.ContributedCapital ? "contributed" : "other");
  if (group(from.kind) !== group(to.kind)) {
    return `equity account "${from.id}" (${from.equityKind}) cannot map to "${to.id}" (${to.equityKind})`;
  }
  return undefined;
}

export type RowRole = "account" | "unmapped" | "nciShareOfProfit";

/** The worksheet's rows: the parent's chart, then suspense rows for unmapped balances. */
export class WorksheetRows {
  readonly ids: string[] = [];
  readonly names: string[] = [];
  readonly classifications: string[] = [];
  readonly kinds: (LineKind | undefined)[] = [];
  readonly roles: RowRole[] = [];
  private readonly index = new Map<string, number>();

  add(id: string, name: string, classification: string, kind: LineKind | undefined, role: RowRole): number {
    const existing = this.index.get(id);
    if (existing !== undefined) return existing;
    const row = this.ids.length;
    this.ids.push(id);
    this.names.push(name);
    this.classifications.push(classification);
    this.kinds.push(kind);
    this.roles.push(role);
    this.index.set(id, row);
    return row;
  }

  row(id: string): number | undefined {
    return this.index.get(id);
  }

  get size(): number {
    return this.ids.length;
  }
}

export interface EntityMapping {
  /** Index in the parent's accounts (= its worksheet row) for each of the entity's accounts, or −1 when unmapped. */
  readonly target: Int32Array;
}

/** Validates every map and returns, per entity, where each of its accounts lands. */
export function compileMappings(input: ConsolidationInput, group: CompiledGroup, issues: IssueList): Map<string, EntityMapping> {
  const parent = group.parent;
  const result = new Map<string, EntityMapping>();
  result.set(parent.id, { target: Int32Array.from(parent.accounts, (_, k) => k) });
  const byId = new Map(group.entities.map((e) => [e.id, e] as const));
  input.maps.forEach((map, m) => {
    const entity = byId.get(map.entity);
    if (!entity) {
      issues.add(["maps", m, "entity"], `unknown entity "${map.entity}"`);
      return;
    }
    if (entity.role === "parent") {
      issues.add(["maps", m, "entity"], "the parent's accounts are the worksheet rows and need no map");
      return;
    }
    if (result.has(entity.id)) {
      issues.add(["maps", m, "entity"], `entity "${map.entity}" has more than one map`);
      return;
    }
    result.set(entity.id, { target: mapTargets(entity, parent, map.lines, m, issues) });
  });
  for (const e of group.entities) if (!result.has(e.id)) result.set(e.id, { target: new Int32Array(e.accounts.length).fill(-1) });
  return result;
}

function mapTargets(entity: CompiledEntity, parent: CompiledEntity, lines: Readonly<Record<string, string>>, m: number, issues: IssueList): Int32Array {
  const accounts = entity.accounts;
  const target = new Int32Array(accounts.length).fill(-1);
  // Maps usually list the accounts in the chart's order: line k is first tried against account k
  // (one string comparison) before the id map is asked, while the ids are unique (the map keeps a
  // repeated id's last row).
  const unique = entity.accountIndex.size === accounts.length;
  const kinds = entity.kinds;
  const parentKinds = parent.kinds;
  // The keys and the values, each in one array and in the same order: Object.entries would make a
  // pair array per line, and reading each line by its key is a lookup in an object of a thousand
  // keys (dictionary mode) per line.
  const keys = Object.keys(lines);
  const values = Object.values(lines);
  for (let k = 0; k < keys.length; k++) {
    const from = keys[k]!;
    const to = values[k]!;
    const fromRow = unique && k < accounts.length && accounts[k]!.id === from ? k : entity.accountIndex.get(from);
    const toRow = parent.accountIndex.get(to);
    if (fromRow === undefined) {
      issues.add(["maps", m, "lines", from], `"${from}" is not an account of ${entity.name}`);
      continue;
    }
    if (toRow === undefined) {
      issues.add(["maps", m, "lines", from], `"${to}" is not an account of the parent ${parent.name}`);
      continue;
    }
    // Accounts of the same kind always fit; only other pairs need mappingProblem's rules.
    const problem = kinds[fromRow] === parentKinds[toRow] ? undefined : mappingProblem(compiledAccount(entity, fromRow), compiledAccount(parent, toRow));
    if (problem) {
      issues.add(["maps", m, "lines", from], problem);
      continue;
    }
    target[fromRow] = toRow;
  }
  return target;
}

/**
 * The subsidiary `id` names, or undefined (with an issue at `path`) when it names none, or (with
 * `once`) one an earlier elimination of that kind already has (`seen`).
 */
export function requireSubsidiary(
  group: CompiledGroup,
  id: string,
  path: readonly (string | number)[],
  issues: IssueList,
  once?: { seen: { has(id: string): boolean }; kind: string },
): CompiledEntity | undefined {
  const sub = group.entities.find((e) => e.id === id);
  if (!sub || sub.role !== "subsidiary") {
    issues.add(path, `"${id}" is not a subsidiary`);
    return undefined;
  }
  if (once?.seen.has(sub.id)) {
    issues.add(path, `${sub.name} has more than one ${once.kind} elimination`);
    return undefined;
  }
  return sub;
}

export function requireParentAccount(
  parent: CompiledEntity,
  id: string | undefined,
  path: readonly (string | number)[],
  allowed: readonly LineKind[],
  what: string,
  issues: IssueList,
): string | undefined {
  if (id === undefined) return undefined;
  const row = parent.accountIndex.get(id);
  if (row === undefined) {
    issues.add(path, `"${id}" is not an account of the parent ${parent.name}`);
    return undefined;
  }
  if (!allowed.includes(parent.kinds[row]! as LineKind)) {
    issues.add(path, `"${id}" cannot hold ${what}: it is ${parent.accounts[row]!.classification}${parent.accounts[row]!.equityKind ? ` (${parent.accounts[row]!.equityKind})` : ""}`);
    return undefined;
  }
  return id;
}
