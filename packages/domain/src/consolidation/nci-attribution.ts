import type { EliminationContext } from "./elimination-types.ts";
import { LineKind, type CompiledEntity } from "./model.ts";
import { requireSubsidiary } from "./mapping.ts";

/**
 * What the eliminations attribute to one subsidiary's non-controlling interests beyond the
 * subsidiary's own translated books (IFRS 10 B94, ASC 810-10-45-20): the NCI shares the
 * subsidiary's profit as adjusted by the group, and its share of equity-line adjustments.
 * nci.ts turns this into the NCI's shares; subsidiaries with nothing attributed have no entry,
 * so the NCI of a group without these inputs is computed exactly as before.
 */
export interface NciAttribution {
  /** Unrealised profit eliminated at the period's end less that realised in it, debit positive (reduces profit). */
  unrealisedProfitInPeriod: number;
  /** Profit-or-loss lines of manual entries attributed to the subsidiary, debit positive (reduces profit). */
  manualProfit: number;
  /** Equity-row amounts (debit positive) of which the NCI takes its share, moved from the row to the NCI account. */
  readonly equityLines: { readonly row: number; readonly amount: number; readonly source: "unrealisedProfit" | "manual" }[];
}

export type NciAttributions = Map<string, NciAttribution>;

/** The attribution of a subsidiary with NCI, created on first use; undefined when it has none to share. */
export function attributionOf(attributions: NciAttributions, e: CompiledEntity): NciAttribution | undefined {
  if (e.role !== "subsidiary" || e.nciShare.num === 0n) return undefined;
  let a = attributions.get(e.id);
  if (!a) {
    a = { unrealisedProfitInPeriod: 0, manualProfit: 0, equityLines: [] };
    attributions.set(e.id, a);
  }
  return a;
}

/**
 * Manual entries with `attributeTo`: an adjustment to one subsidiary's results (e.g. an expense
 * it should have booked). Their profit-or-loss lines change the profit the subsidiary's NCI takes
 * its share of, and the NCI takes its share of their equity lines (retained earnings, reserves,
 * CTA), so the NCI schedule keeps agreeing with the balance sheet. The entry itself stays in the
 * eliminations column in full; nci.ts moves the NCI's shares.
 */
export function attributeManualEntries(ctx: EliminationContext, attributions: NciAttributions): void {
  const parent = ctx.group.parent;
  ctx.input.eliminations.manual.forEach((entry, k) => {
    if (!entry.attributeTo) return;
    const path = ["eliminations", "manual", k, "attributeTo", "subsidiary"];
    const sub = requireSubsidiary(ctx.group, entry.attributeTo.subsidiary, path, ctx.issues);
    if (!sub) return;
    const attribution = attributionOf(attributions, sub);
    entry.lines.forEach((line, j) => {
      const index = parent.accountIndex.get(line.account);
      if (index === undefined) return; // manualEliminations reports it
      const row = ctx.parentRow(line.account)!;
      if (row === ctx.nciRow) {
        ctx.issues.add(["eliminations", "manual", k, "lines", j, "account"], `an entry attributed to ${sub.name} is shared with its NCI by the engine: do not post it to the NCI account`);
        return;
      }
      if (!attribution) return; // wholly owned: nothing to share
      const kind = parent.kinds[index]! as LineKind;
      if (kind === LineKind.Revenue || kind === LineKind.Expense) attribution.manualProfit += line.amount;
      else if (kind !== LineKind.Asset && kind !== LineKind.Liability) attribution.equityLines.push({ row, amount: line.amount, source: "manual" });
    });
  });
}
