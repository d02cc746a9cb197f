import {
  type ChangesInEquity,
  changesInEquity,
  type ConsolidationInput,
  type ConsolidationOutput,
  currencyExponent,
  EQUITY_COLUMN_LABELS,
  EQUITY_COLUMNS,
  investmentCosts,
  openingBalanceInput,
  parseConsolidationInput,
  type Problem,
  shiftMonth,
} from "@groupledger/domain";
import type { ChangesInEquityQuery, ChangesInEquityReport } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import type { CompanyRow } from "../group/service.ts";
import { buildConsolidationInput } from "../consolidation/input.ts";
import { consolidateBuilt } from "../consolidation/engine.ts";
import { checkReportPeriod, openingAnchor, periodLabel, reportGroup } from "./report-period.ts";

/**
 * The consolidated statement of changes in equity (issue 23; IAS 1.106, ASC 810-10-50-1A): the
 * period's consolidation, exactly as the consolidated report builds it (the same group, pairs,
 * group adjustments and opening month), and the consolidation of the balance sheet at the end of
 * the month before it on the same basis (the domain's `openingBalanceInput`). The domain's
 * `changesInEquity` does the rest. Not cached: it is two engine runs, asked for far less often
 * than the report itself.
 */
export interface ChangesInEquityRun {
  parent: CompanyRow;
  problems: Problem[];
  warnings: string[];
  /** The period's engine input and consolidation, the opening balance sheet's, and the statement; null when either cannot be made. */
  sources: { input: ConsolidationInput; closing: ConsolidationOutput; start: ConsolidationOutput; statement: ChangesInEquity } | null;
}

/** The two consolidations and the statement (also the total column of the changes in equity by segment). */
export async function changesInEquitySources(db: Db, accountId: string, query: ChangesInEquityQuery): Promise<ChangesInEquityRun> {
  checkReportPeriod(query);
  const { from, to } = query;
  // The consolidated report's group for the period (report-period.ts), and its opening: the locked
  // opening balances' anchor once the period follows it, else a fresh start the month before.
  const { parent, subsidiariesFor, intercompany, opening } = await reportGroup(db, accountId, from, "the consolidation is in the parent's currency and onto its chart of accounts");
  const subsidiaries = subsidiariesFor(to);
  const anchor = openingAnchor(opening, from);

  const built = await buildConsolidationInput(db, { accountId, subsidiaries, period: { from, to }, openingMonth: anchor, intercompany, groupAdjustments: true });
  const problems: Problem[] = [...built.problems];
  const closing = await consolidateBuilt(built.input, problems);
  const warnings = [...built.warnings, ...(closing?.warnings ?? [])];
  let sources: ChangesInEquityRun["sources"] = null;
  if (closing) {
    const input = parseConsolidationInput(built.input);
    const openingProblems: Problem[] = [];
    const start = await consolidateBuilt(openingBalanceInput(input, from, investmentCosts(closing)), openingProblems);
    if (start) sources = { input, closing, start, statement: changesInEquity(input, start, closing) };
    else {
      const month = shiftMonth(from, -1);
      problems.push(...openingProblems.map((p) => ({ ...p, message: `The opening balance sheet (${month}) cannot be consolidated: ${p.message}` })));
    }
  }
  return { parent, problems, warnings, sources };
}

export async function changesInEquityReport(db: Db, accountId: string, query: ChangesInEquityQuery): Promise<ChangesInEquityReport> {
  const { from, to } = query;
  const { parent, problems, warnings, sources } = await changesInEquitySources(db, accountId, query);
  const s = sources?.statement;
  const statement: ChangesInEquityReport["statement"] = s
    ? {
        openingMonth: s.openingMonth,
        columns: EQUITY_COLUMNS.map((id) => ({ id, label: EQUITY_COLUMN_LABELS[id] })),
        rows: s.rows,
        balanceSheet: s.balanceSheet,
        difference: s.difference,
        reconciles: s.reconciles,
      }
    : null;
  return {
    ok: statement !== null && problems.length === 0,
    problems: problems.map((p) => ({ code: p.code, message: p.message })),
    warnings,
    period: { from, to, label: periodLabel(from, to) },
    parentCurrency: parent.homeCurrency,
    exponent: currencyExponent(parent.homeCurrency),
    statement,
  };
}
