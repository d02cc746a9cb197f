import type { PostingSummary, RunPeriod } from "@groupledger/contract";
import { useState } from "react";
import { localMonthOf } from "@groupledger/domain";
import { defaultChoice, lastPostedMonth, periodChoices, requestPeriod, type PeriodKind } from "../runs/model.ts";

/**
 * The period a group entry screen shows (intercompany eliminations, group adjustments): a month,
 * or one of the parent's fiscal quarters or years after the opening month; the one after the last
 * posted entry first. `picker` is what PeriodPicker takes; `shown` is a loaded view once it is the
 * chosen period's; `postChosen` posts the chosen period and holds it on screen (a post moves the
 * default on). `onChange` clears the screen's notices, on a new choice and before a post.
 */
export function usePeriodChoice(opts: {
  openingMonth: string;
  fiscalYearStartMonth: number;
  postings: { data?: PostingSummary[] | undefined; error: unknown; isPending: boolean };
  onChange: () => void;
}) {
  const [kind, setKind] = useState<PeriodKind>("month");
  const [pickedTo, setPickedTo] = useState<string | null>(null);
  const { openingMonth, postings, onChange } = opts;
  const choices = periodChoices(kind, openingMonth, opts.fiscalYearStartMonth, localMonthOf(new Date()));
  const chosen = choices.find((c) => c.to === pickedTo) ?? (postings.data || postings.error ? defaultChoice(choices, lastPostedMonth(postings.data ?? [])) : null);
  return {
    chosen,
    period: chosen ? requestPeriod(chosen) : null,
    shown: <V extends { period: { to: string; kind: string } }>(view: V | undefined): V | null =>
      view && chosen && view.period.to === chosen.to && view.period.kind === chosen.kind ? view : null,
    postChosen: (send: (period: RunPeriod) => void) => {
      if (!chosen) return;
      onChange();
      setPickedTo(chosen.to);
      send(requestPeriod(chosen));
    },
    picker: {
      openingMonth,
      kind,
      choices,
      chosen,
      loading: postings.isPending,
      onKind: (k: PeriodKind) => {
        setKind(k);
        setPickedTo(null);
        onChange();
      },
      onPeriod: (to: string) => {
        setPickedTo(to);
        onChange();
      },
    },
  };
}
