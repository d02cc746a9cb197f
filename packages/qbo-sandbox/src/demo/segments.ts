/**
 * The demo group's segments (issue 23, "Segments"): QuickBooks classes and locations
 * (Departments) on the profit-and-loss lines of the generated books, so a statement by class or
 * location has something to show. Only tags are added: every line keeps its account and amount,
 * so no balance changes (demo/segments.test.ts checks every report total against the untagged
 * books).
 *
 * The group sells through the same channels in several companies, so most classes share a name
 * across companies ("Wholesale", "Retail", "Online", "Services"; the parent also has "Corporate"
 * for its head-office costs), as a group that wants one segment report names them alike.
 * Each income account sells through one class (the one its name names, "Product Sales -
 * Wholesale", else one by its id); cost of sales and most expenses are spread over the classes,
 * the parent's head-office costs partly under "Corporate". Locations are each company's own
 * offices. Left untagged, as in real books: interest, tax, depreciation, exchange differences and
 * other income or expense (a "Not Specified" column), and about one operating line in five.
 *
 * An entry whose profit-and-loss lines all carry one class (one location) has it on its asset and
 * liability lines too (the invoice's receivable, the bill's payable, the bank line), as QuickBooks
 * carries a transaction's class to its balance-sheet side, so the balance sheet by class has
 * segment assets and liabilities; entries that mix classes, and the rest of the balance sheet,
 * stay untagged.
 */
import { classificationOf } from "../accountTypes.ts";
import type { Account, JournalEntry, Tag } from "../ledger.ts";

/** Classes that carry sales and direct costs, and the one (if any) for overheads, by the tags' names. */
export interface SegmentPlan {
  readonly sales: readonly string[];
  readonly overheads?: string | undefined;
}

/** A small deterministic spread of (entry, line) over `n` choices. */
function pick(entryId: string, lineId: string, n: number): number {
  let h = 2166136261;
  for (const ch of `${entryId}:${lineId}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return (h >>> 0) % n;
}

/** The entries with classes and locations on their income, cost-of-sales and expense lines. */
export function tagSegments(entries: readonly JournalEntry[], accounts: readonly Account[], classes: readonly Tag[], departments: readonly Tag[], plan: SegmentPlan): JournalEntry[] {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const classId = (name: string): string => {
    const tag = classes.find((c) => c.name === name && c.active);
    if (tag === undefined) throw new Error(`no active demo class ${name}`);
    return tag.id;
  };
  const sales = plan.sales.map(classId);
  const overheads = plan.overheads === undefined ? undefined : classId(plan.overheads);
  const locations = departments.map((d) => d.id);
  // Each income account sells through one class: the one its name names ("Product Sales -
  // Wholesale"), else one of the company's by the account's id.
  const salesClassOf = new Map<string, string>();
  for (const a of accounts) {
    const named = plan.sales.find((name) => a.name.toLowerCase().includes(name.toLowerCase().replace(/s$/, "")));
    salesClassOf.set(a.id, named === undefined ? sales[pick(a.id, "", sales.length)]! : classId(named));
  }
  return entries.map((entry) => withBalanceSheetSide({
    ...entry,
    lines: entry.lines.map((line) => {
      const account = byId.get(line.accountId);
      if (account === undefined) return line;
      const type = account.type;
      if (type === "Other Income" || type === "Other Expense") return line;
      const c = classificationOf(type);
      if (c !== "Revenue" && c !== "Expense") return line;
      const spread = pick(entry.id, line.id, 5 * sales.length);
      let klass: string | undefined;
      if (c === "Revenue") klass = salesClassOf.get(account.id);
      else if (type === "Cost of Goods Sold") klass = sales[spread % sales.length];
      else if (spread % 5 === 0) klass = undefined;
      else if (overheads !== undefined && spread % 5 === 1) klass = overheads;
      else klass = sales[spread % sales.length];
      const location = locations.length === 0 || spread % 5 === 4 ? undefined : locations[pick(entry.id, `${line.id}@`, locations.length)];
      return { ...line, ...(klass === undefined ? {} : { classId: klass }), ...(location === undefined ? {} : { departmentId: location }) };
    }),
  }));

  /** The entry's one class (location) of its P&L lines on its asset and liability lines. */
  function withBalanceSheetSide(entry: JournalEntry): JournalEntry {
    const pl = entry.lines.filter((l) => {
      const c = byId.get(l.accountId);
      return c !== undefined && ["Revenue", "Expense"].includes(classificationOf(c.type));
    });
    const only = (tags: readonly (string | undefined)[]): string | undefined => (tags.length > 0 && tags.every((t) => t !== undefined && t === tags[0]) ? tags[0] : undefined);
    const klass = only(pl.map((l) => l.classId));
    const location = only(pl.map((l) => l.departmentId));
    if (klass === undefined && location === undefined) return entry;
    return {
      ...entry,
      lines: entry.lines.map((line) => {
        const account = byId.get(line.accountId);
        if (account === undefined || !["Asset", "Liability"].includes(classificationOf(account.type))) return line;
        return { ...line, ...(klass === undefined ? {} : { classId: klass }), ...(location === undefined ? {} : { departmentId: location }) };
      }),
    };
  }
}
