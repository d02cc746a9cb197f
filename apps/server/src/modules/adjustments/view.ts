import { and, eq, lt } from "drizzle-orm";
import type { AdjustmentsView, RunPeriod } from "@groupledger/contract";
import {
  type ConsolidationOutput,
  formatAmount,
  lastDayOfMonth,
  type Problem,
  shiftMonth,
  closedBooksReason,
} from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { acquisitions, consolidationPostings } from "../../db/schema.ts";
import { loadGroup } from "../group/service.ts";
import { buildConsolidationInput } from "../consolidation/input.ts";
import { adjustmentsDocNumber, ADJUSTMENTS_REALM } from "../posting/names.ts";
import { openingOf, resolvePeriod } from "../runs/entry.ts";
import { consolidateBuilt } from "../consolidation/engine.ts";


/** The engine's eliminations that are group adjustments (intercompany pairs have their own entry; manual ones are the user's). */
const ADJUSTMENT_KINDS = new Set(["investment", "preAcquisition", "unrealisedProfit", "dividend", "disposal", "ownershipChange"]);

type Line = { account: string; name: string; debit: number; credit: number };
type Elimination = ConsolidationOutput["eliminations"][number];

/**
 * The group adjustments of a period (contract adjustments.ts): the consolidation of every
 * subsidiary acquired by the period's end, and of its eliminations those that are the group's own
 * entries. The entry brings the parent's QuickBooks to them:
 *
 * - a balance-sheet line posts its amount at the period's end minus what earlier posted group
 *   adjustment entries put on that account (all of it the first time);
 * - a flow line (profit or loss, dividends) posts the period's amount;
 * - the parent's retained earnings line also counts what earlier entries posted to flows: the
 *   engine states a period's retained earnings at its start, which includes the results and
 *   dividends of earlier periods (QuickBooks closes the results into retained earnings itself;
 *   Verify compares retained earnings and dividends as one line).
 */
export async function computeAdjustments(db: Db, accountId: string, requested: RunPeriod): Promise<{ view: Omit<AdjustmentsView, "posted"> }> {
  const group = await loadGroup(db, accountId);
  const parent = group.requireParent("group adjustments are made in the parent's books");
  const period = resolvePeriod(parent, requested);
  const opening = await openingOf(db, accountId, parent).catch(() => null);
  const openingMonth = opening && opening.anchor < period.from ? opening.anchor : shiftMonth(period.from, -1);
  const base = { period: { kind: period.kind, from: period.from, to: period.to, label: period.label }, parentCurrency: parent.homeCurrency };

  // Like the reports: every active subsidiary, except one acquired after the period.
  const recorded = new Map((await db.select({ realmId: acquisitions.realmId, acquiredOn: acquisitions.acquiredOn }).from(acquisitions).where(eq(acquisitions.accountId, accountId))).map((r) => [r.realmId, r.acquiredOn]));
  const subsidiaries = group.unarchivedSubsidiaries.filter((c) => (recorded.get(c.realmId)?.slice(0, 7) ?? "") <= period.to).map((c) => c.realmId);
  if (subsidiaries.length === 0) return { view: { ...base, ok: true, problems: [], warnings: [], adjustments: [], entry: null } };

  const built = await buildConsolidationInput(db, { accountId, subsidiaries, period: { from: period.from, to: period.to }, openingMonth, groupAdjustments: true });
  const problems: Problem[] = [...built.problems];
  const closed = closedBooksReason(parent, lastDayOfMonth(period.to), `the ${period.label} group adjustments entry`, "post a later period");
  if (closed) problems.push({ code: "books_closed", realmId: parent.realmId, message: closed });
  const output = await consolidateBuilt(built.input, problems);
  const publicProblems = problems.map((p) => ({ code: p.code, message: p.message }));
  const warnings = [...built.warnings, ...(output?.warnings ?? [])];
  if (!output) return { view: { ...base, ok: false, problems: publicProblems, warnings, adjustments: [], entry: null } };

  const parentEntity = built.input.entities.find((e) => e.role === "parent")!;
  const kindOf = new Map(parentEntity.accounts.map((a) => [a.id, a]));
  const companyName = new Map(group.companies.map((c) => [c.realmId, c.companyName]));
  const designated = built.input.designatedAccounts;
  const money = (n: number) => formatAmount(n, parent.homeCurrency, { currency: "code", negative: "minus", locale: "en-US" });
  const adjustments = output.eliminations
    .filter((e) => ADJUSTMENT_KINDS.has(e.kind))
    .map((e) => ({ id: e.id, kind: e.kind, description: e.description, details: e.details, lines: explain(e, { designated, companyName, money }) }));

  // Lines that are not accounts of the parent (unmapped rows) cannot be posted.
  for (const a of adjustments) {
    for (const l of a.lines) {
      if (!kindOf.has(l.account)) publicProblems.push({ code: "unmapped_account", message: `${a.description}: the line "${l.name}" is not an account of ${parent.companyName}; map the subsidiary's account on the Mapping page.` });
    }
  }

  const earlier = await db
    .select({ lines: consolidationPostings.lines })
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.accountId, accountId), eq(consolidationPostings.realmId, ADJUSTMENTS_REALM), eq(consolidationPostings.status, "posted"), lt(consolidationPostings.periodTo, period.from)));
  // Flows (profit or loss, and dividends, which the engine states per period) post the period's
  // amounts; what earlier entries posted to them sits in retained earnings at this period's start.
  const isFlow = (id: string) => ["Revenue", "Expense"].includes(kindOf.get(id)?.classification ?? "") || kindOf.get(id)?.equityKind === "dividends";
  const postedBefore = new Map<string, number>();
  let flowsBefore = 0;
  for (const row of earlier) {
    for (const l of row.lines) {
      const amount = l.debit - l.credit;
      if (isFlow(l.account)) flowsBefore += amount;
      else postedBefore.set(l.account, (postedBefore.get(l.account) ?? 0) + amount);
    }
  }
  const target = new Map<string, number>();
  for (const a of adjustments) for (const l of a.lines) target.set(l.account, (target.get(l.account) ?? 0) + l.amount);
  const names = new Map(adjustments.flatMap((a) => a.lines.map((l) => [l.account, l.name] as const)));
  for (const [account] of postedBefore) if (!target.has(account)) target.set(account, 0);
  const retainedRow = parentEntity.retainedEarningsAccount ?? parentEntity.accounts.find((a) => a.equityKind === "retainedEarnings")?.id;
  if (flowsBefore !== 0 && retainedRow) {
    postedBefore.set(retainedRow, (postedBefore.get(retainedRow) ?? 0) + flowsBefore);
    if (!target.has(retainedRow)) target.set(retainedRow, 0);
  }
  const movement = [...target].map(([account, amount]) => [account, isFlow(account) ? amount : amount - (postedBefore.get(account) ?? 0)] as const);
  const lines: Line[] = movement
    .filter(([, a]) => a !== 0)
    .sort((a, b) => a[0].localeCompare(b[0], "en", { numeric: true }))
    .map(([account, amount]) => ({ account, name: names.get(account) ?? kindOf.get(account)?.name ?? account, debit: amount > 0 ? amount : 0, credit: amount < 0 ? -amount : 0 }));
  return {
    view: {
      ...base,
      ok: publicProblems.length === 0,
      problems: publicProblems,
      warnings,
      adjustments,
      entry: lines.length ? { lines, docNumber: adjustmentsDocNumber(period.code), txnDate: lastDayOfMonth(period.to) } : null,
    },
  };
}

/** Each line of an adjustment in words: which account it hits and why. */
function explain(
  e: Elimination,
  ctx: { designated: { goodwill?: string; nci?: string; cta: string; goodwillImpairment?: string }; companyName: Map<string, string>; money: (n: number) => string },
): { account: string; name: string; amount: number; explanation: string }[] {
  const d = e.details as Record<string, number | string>;
  if (e.kind === "unrealisedProfit") return e.lines.map((l) => ({ ...l, explanation: stockLine(l, d, ctx) }));
  if (e.kind === "dividend") return e.lines.map((l) => ({ ...l, explanation: dividendLine(l, d, e, ctx) }));
  if (e.kind === "preAcquisition") {
    return e.lines.map((l) => ({
      ...l,
      explanation: `${e.description}: results up to the acquisition are the former owners', part of the equity acquired (IFRS 10 B88, ASC 805-10-25-6).`,
    }));
  }
  if (e.kind !== "investment") return e.lines.map((l) => ({ ...l, explanation: e.description }));
  const sub = e.id.startsWith("acquisition:") ? (ctx.companyName.get(e.id.slice("acquisition:".length)) ?? "the subsidiary") : "the subsidiary";
  let goodwillSeen = 0;
  let investmentSeen = false;
  return e.lines.map((l) => {
    let explanation: string;
    if (l.account === ctx.designated.goodwill) {
      goodwillSeen++;
      explanation =
        goodwillSeen === 1
          ? `Goodwill on acquiring ${sub}: consideration ${ctx.money(Number(d["cost"]))} + NCI at acquisition ${ctx.money(Number(d["nciAtAcquisition"]))} − net assets acquired ${ctx.money(Number(d["netAssetsAtAcquisition"]))} (IFRS 3.32, ASC 805-30-30-1).`
          : d["ctaOnGoodwillCreditPositive"] !== undefined && l.amount === Number(d["ctaOnGoodwillCreditPositive"])
            ? `Goodwill is ${sub}'s asset, retranslated at the closing rate (IAS 21.47, ASC 830-30-45-11).`
            : `Goodwill impairment (IAS 36, ASC 350-20).`;
    } else if (!investmentSeen && l.amount === -Number(d["cost"]) && l.account !== ctx.designated.nci) {
      investmentSeen = true;
      explanation = `The parent's investment in ${sub}, its consideration ${ctx.money(Number(d["cost"]))}, eliminated (IFRS 10 B86(a), ASC 810-10-45-1).`;
    } else if (l.account === ctx.designated.nci) {
      explanation = `Non-controlling interests at acquisition, ${d["nciMeasurement"] === "fairValue" ? "at fair value" : "their share of the net assets"} (IFRS 3.19).`;
    } else if (l.account === ctx.designated.cta) {
      explanation = `Translation difference on goodwill, the parent's share (IAS 21.48, ASC 830-30-45-12).`;
    } else if (l.account === ctx.designated.goodwillImpairment) {
      explanation = `Goodwill impairment recognised in the period.`;
    } else {
      explanation = `${sub}'s ${l.name} at acquisition (${d["acquisitionMonth"]}), eliminated against the investment: pre-acquisition equity is not the group's.`;
    }
    return { account: l.account, name: l.name, amount: l.amount, explanation };
  });
}

type Ctx = Parameters<typeof explain>[1];
type EngineLine = Elimination["lines"][number];

/** A line of the unrealised profit in intra-group stock (IFRS 10 B86(c), ASC 810-10-45-1). */
function stockLine(l: EngineLine, d: Record<string, number | string>, ctx: Ctx): string {
  if (l.account === ctx.designated.cta) return "The stock's cost stays at the closing rate: the difference to the profit eliminated at the transfer rate is a translation difference.";
  if (d["closingProfitEliminated"] !== undefined && l.amount === Number(d["closingProfitEliminated"])) {
    return `Profit on stock still held at the period's end (${d["closingInventoryLocal"]} at ${d["closingMargin"] ?? d["closingMarkup"]} ${d["closingMargin"] !== undefined ? "margin" : "mark-up"}) is not yet earned by the group: out of cost of sales${d["sharedWithNci"] === "yes" ? ", shared with the seller's NCI" : ""}.`;
  }
  if (d["openingProfitRealised"] !== undefined && Math.abs(l.amount) === Number(d["openingProfitRealised"])) {
    return l.amount > 0
      ? "Last period's unrealised profit came off opening retained earnings."
      : "The stock held at the period's start was sold in it: last period's unrealised profit is earned now, back into cost of sales.";
  }
  return "Stock held at the period's end, reduced to what it cost the group.";
}

/** A line of an intra-group dividend's elimination. */
function dividendLine(l: EngineLine, d: Record<string, number | string>, e: Elimination, ctx: Ctx): string {
  if (l.amount === Number(d["parentBooked"]) && l.amount > 0) return `The parent's dividend income from the subsidiary, ${ctx.money(Number(d["parentBooked"]))} as it booked it: a transfer within the group, not income.`;
  if (l.amount === -Number(d["parentShare"])) return `The parent's share (${d["ownership"]}) of the dividends the subsidiary declared, ${ctx.money(Number(d["parentShare"]))} at ${d["translationRate"]}; the NCI's share stays a distribution to the NCI.`;
  return `What the parent booked differs from its share of the translated dividend (booked at ${d["parentBookedRate"]}, translated at ${d["translationRate"]}): an exchange difference. ${e.description}.`;
}
