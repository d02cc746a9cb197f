import { Skeleton } from "@mantine/core";
import { useCompanyStatus } from "../../companies/api.ts";
import { useAccountNumbers } from "../../obal/useAccountNumbers.ts";
import { Screen } from "../../screens/components/Screen.tsx";
import { useAdminOnly } from "../../team/permissions.tsx";
import { eliminationsApi, useEliminationMutation, useEliminationPostings, useEliminationView, usePairs } from "../api.ts";
import { postBlockReason } from "../model.ts";
import { usePeriodChoice } from "../usePeriodChoice.ts";
import { usePostNotices } from "../usePostNotices.tsx";
import { EliminationEntry } from "./EliminationEntry.tsx";
import { ChangedEntry } from "../../entries/components/ChangedEntry.tsx";
import { GroupAdjustments } from "../../adjustments/components/GroupAdjustments.tsx";
import { IntragroupSection } from "../../intragroup/components/IntragroupSection.tsx";
import { GroupGate, type GroupSetup } from "./GroupGate.tsx";
import { PairsSection } from "./PairsSection.tsx";
import { ProposedPairs } from "./ProposedPairs.tsx";
import { PeriodEliminations } from "./PeriodEliminations.tsx";
import { PeriodPicker } from "./PeriodPicker.tsx";
import { PostedEliminations } from "./PostedEliminations.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

/** /consolidation/elimination "Interco Eliminations" (SPEC §2): define intercompany pairs, see a period's eliminations, post them. */
export function EliminationsPage() {
  return (
    <Screen
      title="Interco Eliminations"
      description="Pair the accounts group companies hold against each other, see for a period how far both sides cancel once translated, and post the elimination entry to the parent's QuickBooks; then the group adjustments (investments against equity at acquisition, goodwill, NCI)."
      maw={1280}
    >
      <GroupGate needsOpening why="Eliminations cancel what group companies owe and charge each other in the parent's books.">
        {(setup) => <Eliminations setup={setup} />}
      </GroupGate>
    </Screen>
  );
}

function Eliminations({ setup }: { setup: GroupSetup }) {
  const { parent, subsidiaries } = setup;
  const openingMonth = setup.openingMonth!;
  const { outcome, setOutcome, clear: clearNotices, callbacks, notice } = usePostNotices();
  const pairs = usePairs();
  const postings = useEliminationPostings();
  const status = useCompanyStatus();
  const numbers = useAccountNumbers([{ realmId: parent.realmId, lastSyncedAt: status.data?.[parent.realmId]?.sync.lastSyncedAt ?? null }]).get(parent.realmId)!;
  const adminOnly = useAdminOnly("post eliminations to QuickBooks");
  const adjustAdminOnly = useAdminOnly("post group adjustments to QuickBooks");

  // Like a run, the period offered first is the one after the last posted elimination entry.
  const { period, shown, postChosen, picker } = usePeriodChoice({ openingMonth, fiscalYearStartMonth: parent.fiscalYearStartMonth, postings, onChange: () => clearNotices() });
  const view = useEliminationView(period);
  const post = useEliminationMutation(eliminationsApi.post);
  const replace = useEliminationMutation(eliminationsApi.replace);

  // A post moves the default period on; the screen keeps showing the period it posted.
  const onPost = () => postChosen((p) => post.mutate(p, callbacks));
  const showing = shown(view.data);
  return (
    <>
      <ProposedPairs />
      <PairsSection parent={parent} subsidiaries={subsidiaries} />
      <IntragroupSection companies={[parent, ...subsidiaries]} />
      {/* Without a pair there is nothing to compute or post: the pairs section says what to add. */}
      {pairs.data?.length === 0 ? null : (
        <>
          <PeriodPicker {...picker} />
          {view.error ? (
            <Failure title="The eliminations could not be computed" message={view.error.message} />
          ) : period && !showing ? (
            <Skeleton height={260} radius="md" />
          ) : showing ? (
            <>
              <PeriodEliminations view={showing} />
              <ChangedEntry
                posted={showing.posted}
                title="The books changed after this period was posted"
                text={`Entry ${showing.posted?.docNumber ?? ""} no longer matches what the pairs' two sides give now. Review the changes and replace it: the old entry is deleted in QuickBooks and the period posted again; later periods that move with it are flagged in turn.`}
                lead={`The pairs' two sides for ${showing.period.label} changed after entry ${showing.posted?.docNumber ?? ""} was posted. Replacing it deletes that entry from the parent's QuickBooks and posts the period's eliminations again as they are now.`}
                currency={showing.parentCurrency}
                numbers={numbers}
                adminOnly={adminOnly}
                testId="eliminations-changed"
                replace={replace}
                onReplaced={setOutcome}
              />
              <EliminationEntry
                view={showing}
                blocked={postBlockReason(showing)}
                adminOnly={adminOnly}
                posting={post.isPending}
                onPost={onPost}
                notice={notice}
                numbers={numbers}
                showPostedLink={outcome === null}
              />
            </>
          ) : (
            notice
          )}
        </>
      )}
      <PostedEliminations postings={postings.data} loading={postings.isPending} error={postings.error} />
      <GroupAdjustments parent={parent} openingMonth={openingMonth} numbers={numbers} adminOnly={adjustAdminOnly} />
    </>
  );
}
