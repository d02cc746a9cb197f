import { eq } from "drizzle-orm";
import {
  currencyExponent,
  monthCount,
  type Problem,
  shiftMonth,
} from "@groupledger/domain";
import type { ConsolidatedReport, ReportQuery } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { dataVersions } from "../../db/schema.ts";
import { buildConsolidationInput } from "../consolidation/input.ts";
import { consolidateLean } from "../consolidation/engine.ts";
import { DataVersionCache } from "../../services/data-version-cache.ts";
import { checkReportPeriod, openingAnchor, periodLabel, reportGroup } from "./report-period.ts";

/**
 * Consolidated reports (issue 9): the worksheet, trial balance, balance sheet and P&L of the
 * whole group for a month or range, straight from the engine over the synced books, with an
 * optional comparison period.
 *
 * Opening month: the roll-forward anchor of the opening balances when the period is after it
 * (so the report's CTA is the one posted), else the month before the period (fresh start). The
 * report names the locked opening month itself once the period follows it.
 *
 * Reports are cached per account and query, keyed by the account's data version, which database
 * triggers bump on any change to what a report reads (companies and their syncs, charts, maps,
 * rates, CTA and historical settings, elimination pairs, the locked period): a cached report is
 * never stale, whichever process made the change, and a warm one costs one primary-key lookup
 * (services/data-version-cache.ts, which run previews share).
 */

const CACHE_LIMIT = 200;

type Period = { from: string; to: string; label: string };

export function comparisonPeriod(kind: "prior_period" | "prior_year", from: string, to: string): Period {
  const length = monthCount(from, to);
  const shift = kind === "prior_year" ? -12 : -length;
  const f = shiftMonth(from, shift);
  const t = shiftMonth(to, shift);
  return { from: f, to: t, label: periodLabel(f, t) };
}

/** Changes whenever anything a report reads changes (triggers bump it: migration 0013). */
async function dataStamp(db: Db, accountId: string): Promise<number> {
  const [row] = await db.select({ version: dataVersions.version }).from(dataVersions).where(eq(dataVersions.accountId, accountId)).limit(1);
  return row?.version ?? 0;
}

/** Reports and their JSON text, by account, query and data version. */
const cache = new DataVersionCache<{ body: string; report: ConsolidatedReport }>(CACHE_LIMIT);

/**
 * The report and its JSON text (sent as is on the warm path). `dataVersion`: the account's, when
 * the caller has read it already (a request's, auth.ts); read here otherwise.
 */
export async function consolidatedReport(db: Db, accountId: string, query: ReportQuery, dataVersion?: number): Promise<{ body: string; report: ConsolidatedReport }> {
  checkReportPeriod(query);
  const version = dataVersion ?? (await dataStamp(db, accountId));
  // The same report asked again while it is being computed (a team opening it after a change, a
  // refresh) waits for that computation instead of starting its own.
  return cache.get(accountId, version, `report|${query.from}|${query.to}|${query.compare}`, () => computeReport(db, accountId, query, version));
}

type EngineRun = { output: Awaited<ReturnType<typeof consolidateLean>>; problems: { code: string; message: string }[]; warnings: string[]; openingMonth: string };

/**
 * The engine's runs by account, period and data version (the same key as the reports'): the
 * variants of a report share them — a period with and without its comparison, a comparison that is
 * another report's period — so a change that makes every report cold computes each period once.
 * Outputs are read, never changed, by the reports built on them.
 */
const runs = new Map<string, Promise<EngineRun>>();

let computed = 0;
/** How many engine runs reports have computed in this process (tests: which report variants shared one). */
export const engineRunsComputed = () => computed;

function sharedRun(key: string, compute: () => Promise<EngineRun>): Promise<EngineRun> {
  const kept = runs.get(key);
  if (kept) return kept;
  computed++;
  if (runs.size >= CACHE_LIMIT) runs.delete(runs.keys().next().value!);
  const run = compute();
  runs.set(key, run);
  run.catch(() => runs.get(key) === run && runs.delete(key));
  return run;
}

async function computeReport(db: Db, accountId: string, query: ReportQuery, version: number): Promise<{ body: string; report: ConsolidatedReport }> {
  const { parent, subsidiariesFor, intercompany, opening } = await reportGroup(db, accountId, query.from, "the consolidation is in the parent's currency and onto its chart of accounts");
  /**
   * The engine's opening month (`anchor`: the locked opening balances' own roll-forward anchor when
   * the period is after it, else a fresh start the month before) and the one the report names: the
   * locked opening month once the period follows it, since those are the balances the user posted.
   */
  const openingFor = (from: string) => {
    const anchor = openingAnchor(opening, from);
    return { anchor, shown: opening && anchor === opening.anchor && opening.month < from ? opening.month : anchor };
  };
  const run = (from: string, to: string) => sharedRun(`${accountId}|${from}|${to}|${version}`, () => engineRun(from, to));
  const engineRun = async (from: string, to: string): Promise<EngineRun> => {
    const { anchor, shown } = openingFor(from);
    const built = await buildConsolidationInput(db, { accountId, subsidiaries: subsidiariesFor(to), period: { from, to }, openingMonth: anchor, intercompany, groupAdjustments: true });
    const problems: Problem[] = [...built.problems];
    const output = await consolidateLean(built.input, problems);
    return { output, problems: problems.map((p) => ({ code: p.code, message: p.message })), warnings: [...built.warnings, ...(output?.warnings ?? [])], openingMonth: shown };
  };

  const main = await run(query.from, query.to);
  const o = main.output;
  let comparison: ConsolidatedReport["comparison"] = null;
  if (query.compare !== "none") {
    const period = comparisonPeriod(query.compare, query.from, query.to);
    const c = await run(period.from, period.to);
    comparison = {
      kind: query.compare,
      period,
      ok: c.output !== null && c.problems.length === 0,
      problems: c.problems,
      balanceSheet: c.output?.balanceSheet ?? null,
      incomeStatement: c.output?.incomeStatement ?? null,
    };
  }
  const report: ConsolidatedReport = {
    ok: o !== null && main.problems.length === 0,
    problems: main.problems,
    warnings: main.warnings,
    period: { from: query.from, to: query.to, label: periodLabel(query.from, query.to) },
    parentCurrency: parent.homeCurrency,
    exponent: currencyExponent(parent.homeCurrency),
    openingMonth: main.openingMonth,
    report: o && {
      worksheet: o.worksheet,
      trialBalance: o.trialBalance,
      balanceSheet: o.balanceSheet,
      incomeStatement: o.incomeStatement,
      eliminations: o.eliminations,
      nci: o.nci,
      unmapped: o.unmapped,
      entities: o.entities.map((e) => ({
        id: e.id,
        name: e.name,
        currency: e.currency,
        method: e.method,
        netIncome: e.netIncome,
        ctaChange: e.ctaExplanation.total.change,
        ctaExplanation: e.ctaExplanation,
      })),
    },
    comparison,
    generatedAt: new Date().toISOString(),
  };
  return { body: JSON.stringify(report), report };
}
