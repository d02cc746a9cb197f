import { useState } from "react";
import { ApiError } from "../../lib/http.ts";
import { problemsOf } from "../obal/model.ts";
import type { EliminationPostOutcome } from "./api.ts";
import { PostOutcomeNotice } from "./components/EliminationEntry.tsx";
import { PostFailure } from "../entries/components/PostControls.tsx";

interface Failure {
  message: string;
  problems: { code: string; message: string }[];
}

/**
 * What a group entry screen says after Post (intercompany eliminations, group adjustments): the
 * entry posted (or already there) with its link, or the refusal with the problems that block it.
 * `callbacks` go to the mutation; `notice` under the entry.
 */
export function usePostNotices(what = "eliminations") {
  const [outcome, setOutcome] = useState<EliminationPostOutcome | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const clear = () => {
    setOutcome(null);
    setFailure(null);
  };
  const callbacks = {
    onSuccess: (result: EliminationPostOutcome) => setOutcome(result),
    onError: (e: Error) => setFailure({ message: e.message, problems: e instanceof ApiError ? problemsOf(e.details) : [] }),
  };
  const notice = (
    <>
      {outcome ? <PostOutcomeNotice outcome={outcome} what={what} onClose={() => setOutcome(null)} /> : null}
      {failure ? <PostFailure title="It was not posted" message={failure.message} problems={failure.problems} onClose={() => setFailure(null)} /> : null}
    </>
  );
  return { outcome, setOutcome, clear, callbacks, notice };
}
