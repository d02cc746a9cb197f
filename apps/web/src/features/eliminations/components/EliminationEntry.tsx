import { Anchor } from "@mantine/core";
import type { EliminationView } from "@groupledger/contract";
import type { ReactNode } from "react";
import { BalancedBadge, EntryLinesTable } from "../../entries/components/EntryLines.tsx";
import { PostButton, PostedNotice } from "../../entries/components/PostControls.tsx";
import { NewTab } from "../../entries/components/QuickBooksLink.tsx";
import { Section } from "../../screens/components/Section.tsx";
import type { EliminationPostOutcome } from "../api.ts";
import { entryTotals } from "../model.ts";

/**
 * The entry that brings the period's eliminations into the parent's books: one line per parent
 * account, balanced, under the Interco class; Post with the reason when it cannot be posted.
 */
export function EliminationEntry({
  view,
  title = "Elimination entry",
  about,
  blocked,
  adminOnly,
  posting,
  onPost,
  notice,
  numbers,
  showPostedLink = true,
}: {
  view: Pick<EliminationView, "entry" | "parentCurrency" | "posted">;
  title?: string;
  /** What the entry holds and how it moves, after its number and date; the eliminations' own words by default. */
  about?: ReactNode;
  /** Why it cannot be posted now, or null. */
  blocked: string | null;
  /** Why this user may not post (a member), or null. */
  adminOnly: string | null;
  posting: boolean;
  onPost: () => void;
  notice: ReactNode;
  /** The parent's account numbers by account id, to label the lines as its chart does. */
  numbers: ReadonlyMap<string, string>;
  /** Off while the notice of the post just made carries the same link. */
  showPostedLink?: boolean;
}) {
  const entry = view.entry;
  const totals = entry ? entryTotals(entry.lines) : null;
  return (
    <Section
      label={title}
      description={
        about ?? (
          <>
            {entry ? `Entry ${entry.docNumber} dated ${entry.txnDate}, in ${view.parentCurrency}, every line under the Interco class. ` : ""}
            Flows are eliminated for the period; balances by what moved since the last posted elimination entry (all of the balance the first time),
            so the parent&apos;s books hold the whole elimination at each period end.
          </>
        )
      }
      descriptionMaw={820}
      aside={totals ? <BalancedBadge balanced={totals.balanced} /> : null}
    >
      {entry && totals ? (
        <EntryLinesTable label={`${title} lines`} lines={entry.lines} currency={view.parentCurrency} totals={totals} numbers={numbers} />
      ) : null}
      <PostButton adminOnly={adminOnly} blocked={blocked} loading={posting} onPost={onPost} />
      {showPostedLink && view.posted?.journalEntryUrl ? (
        <Anchor href={view.posted.journalEntryUrl} target="_blank" rel="noopener noreferrer" size="sm" data-testid="posted-link">
          Open the posted entry {view.posted.docNumber} in QuickBooks <NewTab />
        </Anchor>
      ) : null}
      {notice}
    </Section>
  );
}

/** After a post: the new entry with its QuickBooks link, or the one that was already there (nothing new posted). */
export function PostOutcomeNotice({ outcome, onClose, what = "eliminations" }: { outcome: EliminationPostOutcome; onClose: () => void; what?: string }) {
  const p = outcome.posting;
  const posted = outcome.outcome === "posted";
  return (
    <PostedNotice
      posted={posted}
      title={posted ? "Posted" : "Already posted"}
      text={
        posted
          ? `The ${what} of ${p.period.label} are posted to the parent's QuickBooks as entry ${p.docNumber}.`
          : `The ${what} of ${p.period.label} were already posted as entry ${p.docNumber}; nothing new was posted.`
      }
      entry={p}
      onClose={onClose}
    />
  );
}
