/**
 * QuickBooks sub-accounts as a chart shows them: each sub-account right after its parent account,
 * indented one level deeper, and labelled by its FullyQualifiedName ("Parent:Child"), since only
 * the full name is unique (QuickBooks allows "Film Crew:Salaries" beside "Acting Staff:Salaries").
 * The parent is found from the FullyQualifiedName: QuickBooks allows no colon in a name.
 */

/** What an account needs to be placed: its full name, and its number when the company uses them. */
export interface NamedAccount {
  readonly name: string;
  readonly acctNum: string | null;
  /** Absent: a top-level account, whose full name is its name. */
  readonly fullyQualifiedName?: string | undefined;
}

/** An account's FullyQualifiedName, its name when it has none. */
export const fullNameOf = (a: NamedAccount): string => a.fullyQualifiedName ?? a.name;

/**
 * How screens name an account: its number (when the company uses numbers) and its full name,
 * "1510 · Computer Equipment:Laptops"; without a number the full name alone. (Messages quote the
 * name instead: bridge/problems.ts accountLabel.)
 */
export function chartAccountLabel(a: NamedAccount): string {
  return a.acctNum ? `${a.acctNum} · ${fullNameOf(a)}` : fullNameOf(a);
}

/**
 * The accounts with every sub-account placed right after its parent account (and the parent's
 * earlier sub-accounts), keeping the given order among siblings and at the top; `depth` is how
 * many of its parent accounts are in the list (0 at the top level). A sub-account whose parent is
 * not in the list stays where it is, at depth 0.
 */
export function inChartOrder<T extends NamedAccount>(accounts: readonly T[]): { account: T; depth: number }[] {
  const byFullName = new Map(accounts.map((a) => [fullNameOf(a), a]));
  const parentOf = (a: T): T | undefined => {
    const full = fullNameOf(a);
    const cut = full.lastIndexOf(":");
    return cut < 0 ? undefined : byFullName.get(full.slice(0, cut));
  };
  const children = new Map<T, T[]>();
  const roots: T[] = [];
  for (const a of accounts) {
    const p = parentOf(a);
    if (p === undefined || p === a) roots.push(a);
    else children.set(p, [...(children.get(p) ?? []), a]);
  }
  const out: { account: T; depth: number }[] = [];
  const visit = (a: T, depth: number) => {
    out.push({ account: a, depth });
    for (const c of children.get(a) ?? []) visit(c, depth + 1);
  };
  for (const r of roots) visit(r, 0);
  return out;
}
