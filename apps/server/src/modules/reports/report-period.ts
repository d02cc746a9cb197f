import { monthCount, shiftMonth } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { errors } from "../../http/errors.ts";
import { eq } from "drizzle-orm";
import { acquisitions as acquisitionsTable } from "../../db/schema.ts";
import { loadGroup } from "../group/service.ts";
import { asEnginePair, pairRows } from "../eliminations/view.ts";
import { openingOf } from "../runs/entry.ts";

/** A period as reports name it: "2026-03", or "2026-01 to 2026-03". */
export const periodLabel = (from: string, to: string): string => (from === to ? from : `${from} to ${to}`);

/** The longest period a report or statement covers, in months. */
export const MAX_REPORT_MONTHS = 60;

/**
 * A report's period as asked: 400 when it ends before it starts or is longer than a report covers.
 * `noun` names what is asked for in the message ("report", "statement").
 */
export function checkReportPeriod(query: { from: string; to: string }, noun = "report"): void {
  const article = noun === "report" ? "The report" : `The ${noun}`;
  if (query.to < query.from) throw errors.badRequest("invalid_period", `${article} ends (${query.to}) before it starts (${query.from}).`);
  const months = monthCount(query.from, query.to);
  if (months > MAX_REPORT_MONTHS) throw errors.badRequest("period_too_long", `A ${noun} covers at most ${MAX_REPORT_MONTHS} months; ${query.from} to ${query.to} is ${months}.`);
}

/**
 * The group a consolidated report, cash flow or statement of changes in equity consolidates, one
 * home for all three so they agree on who is in it: subsidiaries archived before `from` take no
 * part, a subsidiary acquired after a period's end is not in the group for it
 * (`subsidiariesFor(to)`), every intercompany pair, and the locked opening balances (null when
 * none are locked), whose roll-forward anchor each statement starts from once its period follows
 * it.
 */
export async function reportGroup(db: Db, accountId: string, from: string, why: string) {
  const group = await loadGroup(db, accountId);
  const acquisitions = await db.select({ realmId: acquisitionsTable.realmId, acquiredOn: acquisitionsTable.acquiredOn }).from(acquisitionsTable).where(eq(acquisitionsTable.accountId, accountId));
  const parent = group.requireParent(why);
  const inGroup = group.subsidiaries.filter((c) => !c.archivedAt || c.archivedAt.slice(0, 7) >= from);
  const acquiredOn = new Map(acquisitions.map((r) => [r.realmId, r.acquiredOn]));
  const subsidiariesFor = (to: string) => inGroup.filter((c) => (acquiredOn.get(c.realmId)?.slice(0, 7) ?? "") <= to).map((c) => c.realmId);
  const intercompany = (await pairRows(db, accountId)).map(asEnginePair);
  const opening = await openingOf(db, accountId, parent).catch(() => null);
  return { parent, subsidiariesFor, intercompany, opening };
}

/**
 * The engine's opening month for a period from `from`: the locked opening balances' own
 * roll-forward anchor once the period follows it (so the period's CTA is the one posted), else a
 * fresh start the month before.
 */
export const openingAnchor = (opening: { anchor: string } | null, from: string): string => (!opening || opening.anchor >= from ? shiftMonth(from, -1) : opening.anchor);
