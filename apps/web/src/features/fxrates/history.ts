import { z } from "zod";
import type { AuditEntry } from "./api.ts";

/** The audit action the server writes for every change of rates (manual, import or fetch). */
export const RATES_CHANGED = "fx.rates_changed";

const oldNew = z.object({ old: z.string(), new: z.string() });
const changesSchema = z.object({
  changes: z.array(z.object({ currency: z.string(), month: z.string(), avgfx: oldNew, endfx: oldNew })),
});

export interface RateChange {
  id: string;
  at: string;
  who: string;
  currency: string;
  month: string;
  avgfx: { old: string; new: string } | null;
  endfx: { old: string; new: string } | null;
}

/**
 * Who changed which rate when, from old to new, newest first; a rate that did not change in an
 * event is left out of it. Entries of another shape are skipped rather than shown half-read.
 */
export function rateChanges(entries: readonly AuditEntry[]): RateChange[] {
  const out: RateChange[] = [];
  for (const e of entries) {
    if (e.action !== RATES_CHANGED) continue;
    const parsed = changesSchema.safeParse(e.details);
    if (!parsed.success) continue;
    parsed.data.changes.forEach((c, i) => {
      out.push({
        id: `${e.id}:${i}`,
        at: e.createdAt,
        who: e.userEmail ?? "A removed user",
        currency: c.currency,
        month: c.month,
        avgfx: c.avgfx.old === c.avgfx.new ? null : c.avgfx,
        endfx: c.endfx.old === c.endfx.new ? null : c.endfx,
      });
    });
  }
  return out;
}
