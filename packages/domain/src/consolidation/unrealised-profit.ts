import { mulDivRound, mulRatioRound, parseRate, translationFactor, type Factor, type Ratio } from "../money/rate.ts";
import { formatMonth } from "../periods/month.ts";
import type { Elimination, EliminationContext, EntryLine } from "./eliminations.ts";
import type { ConsolidationInput } from "./input-schema.ts";
import { requireParentAccount } from "./mapping.ts";
import { LineKind } from "./model.ts";
import { attributionOf, type NciAttributions } from "./nci-attribution.ts";

type Rule = ConsolidationInput["eliminations"]["unrealisedProfit"][number];
type Held = NonNullable<Rule["closing"]>;

/** The seller's profit as an exact fraction of the transfer price: a margin as given, a mark-up m as m / (1 + m). */
export function profitFraction(held: { margin?: string | undefined; markup?: string | undefined }): Ratio {
  if (held.margin !== undefined) {
    const r = parseRate(held.margin);
    return { num: r.numerator, den: 10n ** BigInt(r.scale) };
  }
  const m = parseRate(held.markup!);
  const den = 10n ** BigInt(m.scale);
  return { num: m.numerator, den: den + m.numerator };
}

/**
 * Unrealised profit in inventory sold within the group (IFRS 10 B86(c), ASC 810-10-45-1): the
 * seller's profit on goods the buyer still holds is not the group's until they are sold outside.
 * - Held at the period's end: Dr cost of sales / Cr inventory by the profit, inventory × margin.
 * - Held at its start (eliminated last period, realised now): Dr opening retained earnings / Cr
 *   cost of sales by the amount eliminated then.
 * Both are computed in the buyer's currency and, for a translated buyer, the profit is taken at the
 * rate at the dates of the transfers (ASC 830-30-45-10: the rate at which the seller's profit
 * entered the group; default the buyer's average rate of the month the inventory was bought in:
 * the period's last month for closing inventory, the month before the period for opening), while
 * the inventory it is removed from is at the buyer's closing rate like the rest of its balance
 * sheet; the difference is an exchange difference on the buyer's net assets (CTA). A temporal
 * buyer carries inventory at historical rates, so it is removed at the profit's rate.
 * Sold by a subsidiary with NCI (upstream), the elimination is shared with that NCI: its share of
 * profit is taken of the seller's profit adjusted by the period's change, and it bears its share
 * of the opening amount (ASC 810-10-45-18 allows this allocation; Kaplan's FR/F7 workbooks make it).
 * Sold by the parent or a wholly owned subsidiary (downstream), it is all the parent's.
 */
/** What the details say of the stock held at one end of the period: its amount, margin or mark-up, the profit in it (local) and the rate that profit was translated at. */
function heldDetails(end: "closing" | "opening", held: Held, profit: { local: number; rate: string | undefined }): Record<string, number | string> {
  return {
    [`${end}InventoryLocal`]: held.inventory,
    ...(held.margin !== undefined ? { [`${end}Margin`]: held.margin } : { [`${end}Markup`]: held.markup! }),
    [`${end}UnrealisedLocal`]: profit.local,
    ...(profit.rate !== undefined ? { [`${end}ProfitRate`]: profit.rate } : {}),
  };
}

export function unrealisedProfitEliminations(ctx: EliminationContext, attributions: NciAttributions): Elimination[] {
  const out: Elimination[] = [];
  const byId = new Map(ctx.group.entities.map((e) => [e.id, e] as const));
  const parent = ctx.group.parent;
  const { period } = ctx.group;
  ctx.input.eliminations.unrealisedProfit.forEach((rule, k) => {
    const path = ["eliminations", "unrealisedProfit", k];
    const seller = byId.get(rule.seller);
    const buyer = byId.get(rule.buyer);
    if (!seller) ctx.issues.add([...path, "seller"], `unknown entity "${rule.seller}"`);
    if (!buyer) ctx.issues.add([...path, "buyer"], `unknown entity "${rule.buyer}"`);
    const inventoryId = requireParentAccount(parent, rule.inventoryAccount, [...path, "inventoryAccount"], [LineKind.Asset], "the inventory (it must be an Asset)", ctx.issues);
    const cogsId = requireParentAccount(parent, rule.cogsAccount, [...path, "cogsAccount"], [LineKind.Expense], "cost of sales (it must be an Expense)", ctx.issues);
    if (!seller || !buyer || !inventoryId || !cogsId) return;
    const issuesBefore = ctx.issues.items.length;
    if (seller.id === buyer.id) {
      ctx.issues.add([...path, "buyer"], "the buyer must be another entity than the seller");
      return;
    }

    const profitAt = (held: Held, side: "closing" | "opening") => {
      const local = mulRatioRound(held.inventory, profitFraction(held), 0);
      if (buyer.identity) {
        if (held.rate !== undefined) ctx.issues.add([...path, side, "rate"], `${buyer.name} keeps its books in the reporting currency: no rate applies`);
        return { local, factor: undefined, rate: undefined, profit: local };
      }
      let factor: Factor | undefined;
      let rate: string | undefined;
      if (held.rate !== undefined) {
        factor = translationFactor(parseRate(held.rate), buyer.exponent, buyer.reportingExponent);
        rate = held.rate;
      } else {
        const t = (side === "closing" ? period.to : period.from - 1) - buyer.start;
        if (t < 0) {
          ctx.issues.add([...path, side, "rate"], `${formatMonth(buyer.start + t)} is before ${buyer.name}'s opening month: give the rate at which the inventory was bought`);
          return undefined;
        }
        factor = buyer.average[t]!;
        rate = buyer.averageRates[t]?.text;
      }
      return { local, factor, rate, profit: mulDivRound(local, factor) };
    };
    const closing = rule.closing ? profitAt(rule.closing, "closing") : undefined;
    const opening = rule.opening ? profitAt(rule.opening, "opening") : undefined;
    if ((rule.closing && !closing) || (rule.opening && !opening) || ctx.issues.items.length > issuesBefore) return;

    const cogsRow = ctx.parentRow(cogsId)!;
    const lines: EntryLine[] = [];
    const push = (row: number, amount: number) => {
      if (amount !== 0) lines.push({ row, amount });
    };
    const details: Record<string, number | string> = {
      seller: seller.id,
      buyer: buyer.id,
      buyerCurrency: buyer.currency,
    };
    if (closing) {
      // The inventory is on the buyer's balance sheet at its closing rate (historical under the
      // temporal method); what stays is its cost component at the closing rate, rounded on its own,
      // so the group carries exactly round(cost × closing) for it (PwC FX 7.3, Deloitte 6.3).
      const closingFactor = buyer.closing[period.to - buyer.start]!;
      const held = rule.closing!.inventory;
      const reduction =
        buyer.identity || buyer.method === "temporal" ? closing.profit : mulDivRound(held, closingFactor) - mulDivRound(held - closing.local, closingFactor);
      push(cogsRow, closing.profit);
      push(ctx.parentRow(inventoryId)!, -reduction);
      push(ctx.ctaRow!, reduction - closing.profit);
      Object.assign(details, {
        ...heldDetails("closing", rule.closing!, closing),
        closingProfitEliminated: closing.profit,
        closingInventoryReduction: reduction,
        closingCtaCreditPositive: closing.profit - reduction,
      });
    }
    if (opening) {
      push(ctx.retainedEarningsRow, opening.profit);
      push(cogsRow, -opening.profit);
      Object.assign(details, {
        ...heldDetails("opening", rule.opening!, opening),
        openingProfitRealised: opening.profit,
      });
    }
    const attribution = attributionOf(attributions, seller);
    details.sharedWithNci = attribution ? "yes" : "no";
    if (attribution) {
      attribution.unrealisedProfitInPeriod += (closing?.profit ?? 0) - (opening?.profit ?? 0);
      if (opening && opening.profit !== 0) attribution.equityLines.push({ row: ctx.retainedEarningsRow, amount: opening.profit, source: "unrealisedProfit" });
    }
    out.push({
      id: rule.id,
      kind: "unrealisedProfit",
      description: rule.description || `Unrealised profit on inventory ${seller.name} sold to ${buyer.name}`,
      lines,
      details,
    });
  });
  return out;
}
