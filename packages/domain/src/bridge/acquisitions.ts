import { acquisitionFactor, engineEquityAtAcquisition } from "../acquisitions/acquisition.ts";
import type { ConsolidationInputJson } from "../consolidation/input-schema.ts";
import { currencyExponent } from "../money/currency.ts";
import { mulDivRound, parseRate, translationFactor } from "../money/rate.ts";
import { monthList, shiftMonth } from "../periods/month.ts";
import { type ChartRow, equityKindOf, type LocalBooks } from "./books.ts";
import { type AcquisitionRecord, type GroupCompany, ownershipFraction, type RateRow } from "./group.ts";
import { accountLabel, type Problem } from "./problems.ts";

type EntityJson = ConsolidationInputJson["entities"][number];
type InvestmentJson = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["investments"]>[number];
type MonthRates = { average: string; closing: string };

/**
 * The months whose rates an acquisition needs: its acquisition month; with fair-value
 * adjustments also every month from it to the opening month, whose average rates translate each
 * month's release (docs/engine.md). The server reads these besides the period's rates.
 */
export function acquisitionRateMonths(record: Pick<AcquisitionRecord, "acquiredOn" | "fairValueAdjustments">, opening: string): string[] {
  const month = record.acquiredOn.slice(0, 7);
  return record.fairValueAdjustments.length > 0 && month < opening ? monthList(month, shiftMonth(opening, -1)) : [month];
}

/** The currency-months of rates the translated subsidiaries' acquisitions need. */
export function acquisitionRateNeeds(records: readonly AcquisitionRecord[], parent: GroupCompany, subs: readonly GroupCompany[], opening: string): { currency: string; month: string }[] {
  return records.flatMap((r) => {
    const s = subs.find((x) => x.realmId === r.realmId);
    return s && s.homeCurrency !== parent.homeCurrency ? acquisitionRateMonths(r, opening).map((month) => ({ currency: s.homeCurrency, month })) : [];
  });
}

/**
 * The investment eliminations of the subsidiaries in a consolidation, from their recorded
 * acquisitions (Setup → Acquisitions): the engine eliminates the parent's investment against the
 * equity at acquisition, with goodwill and the NCI at acquisition (docs/engine.md, "Investment").
 *
 * - The equity at acquisition is the recorded one (local currency), translated at the closing
 *   rate of the acquisition month, line by line (acquisitions/acquisition.ts); capital the
 *   subsidiary's column carries at another historical translation is stated at it so its row is
 *   eliminated entirely, retained earnings at acquisition taking the difference.
 * - A subsidiary acquired after the period is not in the group yet: a Problem that names the date
 *   (reports leave it out). One acquired within the period is consolidated from the month after
 *   its acquisition month, its earlier results going into its equity at acquisition (the engine's
 *   mid-year acquisition, IFRS 10 B88). One with no acquisition recorded is consolidated without an
 *   investment elimination, and a warning says so: its investment stays on the balance sheet.
 */
export function investmentRules(args: {
  parent: GroupCompany;
  subs: readonly GroupCompany[];
  records: readonly AcquisitionRecord[];
  rates: ReadonlyMap<string, Pick<RateRow, "average" | "closing">>;
  charts: ReadonlyMap<string, readonly ChartRow[]>;
  books: ReadonlyMap<string, LocalBooks>;
  entities: readonly EntityJson[];
  to: string;
  opening: string;
}): { investments: InvestmentJson[]; rates: Record<string, Record<string, MonthRates>>; problems: Problem[]; warnings: string[] } {
  const { parent, subs, to, opening, rates } = args;
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const investments: InvestmentJson[] = [];
  const extraRates: Record<string, Record<string, MonthRates>> = {};
  const byRealm = new Map(args.records.map((r) => [r.realmId, r]));
  const translated = (s: GroupCompany) => s.homeCurrency !== parent.homeCurrency;
  const parentChart = new Map((args.charts.get(parent.realmId) ?? []).map((a) => [a.id, a]));

  for (const sub of subs) {
    const row = byRealm.get(sub.realmId);
    const who = sub.companyName;
    if (!row) {
      warnings.push(`No acquisition is recorded for ${who}: ${parent.companyName}'s investment in it and its equity at acquisition are not eliminated, so both stay in the consolidated balance sheet. Confirm the acquisition on Setup → Acquisitions.`);
      continue;
    }
    const month = row.acquiredOn.slice(0, 7);
    const base = { realmId: sub.realmId, month };
    if (month > to) {
      problems.push({ ...base, code: "acquired_after_period", message: `${who} was acquired on ${row.acquiredOn}, after ${to}: it is not in the group for this period. Leave it out, or correct its acquisition date on Setup → Acquisitions.` });
      continue;
    }
    const investment = parentChart.get(row.investmentAccountId);
    if (!investment || investment.classification !== "Asset") {
      problems.push({
        ...base,
        code: "invalid_acquisition",
        accountId: row.investmentAccountId,
        message: `${who}'s acquisition names the parent's account ${investment ? accountLabel(investment) : row.investmentAccountId} for the investment, which is ${investment ? "not an asset" : "no longer in its QuickBooks chart"}; fix it on Setup → Acquisitions.`,
      });
      continue;
    }
    const chart = new Map((args.charts.get(sub.realmId) ?? []).map((a) => [a.id, a]));
    const lines: { account: string; local: number; kind: NonNullable<ReturnType<typeof equityKindOf>> }[] = [];
    let broken = false;
    for (const l of row.equityAtAcquisition) {
      const a = chart.get(l.accountId);
      const kind = a ? equityKindOf(a) : undefined;
      if (!a || !kind) {
        broken = true;
        problems.push({ ...base, code: "invalid_acquisition", accountId: l.accountId, message: `${who}'s equity at acquisition names account ${l.accountId}, which is not one of its equity accounts in QuickBooks any more; fix it on Setup → Acquisitions.` });
        continue;
      }
      lines.push({ account: a.id, local: l.localAmount, kind });
    }
    const books = args.books.get(sub.realmId);
    if (broken || !books?.retainedEarningsAccount) continue;

    let factor = null;
    if (translated(sub)) {
      const r = rates.get(`${sub.homeCurrency}:${month}`);
      if (!r?.closing || (month < opening && !r.average)) {
        problems.push({
          ...base,
          code: "missing_rate",
          currency: sub.homeCurrency,
          message: `Enter the ${r?.closing ? "average" : "closing"} rate of ${sub.homeCurrency} for ${month} on the FX rates page: ${who}'s equity at acquisition and its goodwill are translated at the rates of its acquisition month.`,
        });
        continue;
      }
      factor = acquisitionFactor(r.closing, sub.homeCurrency, parent.homeCurrency);
      // The roll-forward starts at the opening month; earlier months' rates are given here.
      const earlier = acquisitionRateMonths(row, opening).filter((m) => m < opening);
      const missing = earlier.filter((m) => {
        const x = rates.get(`${sub.homeCurrency}:${m}`);
        return !x?.average || !x.closing;
      });
      if (missing.length) {
        problems.push({
          ...base,
          code: "missing_rate",
          currency: sub.homeCurrency,
          message: `Enter the average and closing rates of ${sub.homeCurrency} for ${missing.length === 1 ? missing[0] : `${missing[0]} to ${missing.at(-1)} (${missing.length} months)`} on the FX rates page: ${who}'s fair-value adjustments are released at each month's average rate since its acquisition.`,
        });
        continue;
      }
      for (const m of earlier) {
        const x = rates.get(`${sub.homeCurrency}:${m}`)!;
        (extraRates[sub.homeCurrency] ??= {})[m] = { average: x.average!, closing: x.closing! };
      }
    }
    const entity = args.entities.find((e) => e.id === sub.realmId);
    const historical = new Map((entity?.historical ?? []).map((h) => [h.account, h]));
    const localExp = currencyExponent(sub.homeCurrency);
    const parentExp = currencyExponent(parent.homeCurrency);
    /** What the subsidiary's column carries for a capital account's balance at acquisition. */
    const historicalAt = (account: string): number | undefined => {
      const h = historical.get(account);
      const local = lines.find((l) => l.account === account)?.local ?? 0;
      if (!h || factor === null) return undefined;
      if (h.rate !== undefined) return mulDivRound(local, translationFactor(parseRate(h.rate), localExp, parentExp));
      return books.series.get(account)?.[0] === local ? h.amount : undefined;
    };
    investments.push({
      id: `acquisition:${sub.realmId}`,
      subsidiary: sub.realmId,
      investmentAccount: investment.id,
      acquisitionMonth: month,
      cost: row.consideration,
      equityAtAcquisition: engineEquityAtAcquisition(lines, factor, books.retainedEarningsAccount, historicalAt),
      nciMeasurement: row.nciMeasurement,
      ...(row.nciMeasurement === "fairValue" && row.nciFairValue !== null ? { nciFairValue: row.nciFairValue } : {}),
      fairValueAdjustments: row.fairValueAdjustments.map((f, i) => ({
        id: `fv${i + 1}`,
        description: f.description,
        kind: f.kind,
        assetAccount: f.assetAccountId,
        amount: f.amount,
        usefulLifeMonths: f.usefulLifeMonths,
        expenseAccount: f.expenseAccountId,
      })),
      // Only the changes up to the period's end: a later one has not happened yet for this period.
      ownershipChanges: row.ownershipChanges
        .filter((c) => c.effectiveOn.slice(0, 7) <= to)
        .map((c) => ({ month: c.effectiveOn.slice(0, 7), ownership: ownershipFraction(c.ownershipPercent), consideration: c.consideration, ...(c.accountId ? { account: c.accountId } : {}) })),
    });
  }
  return { investments, rates: extraRates, problems, warnings };
}
