import type { Account } from "@groupledger/contract";
import { obalOnboardingStep, type SubsidiaryForObalStep } from "@groupledger/domain";
import { useEffect, useRef, useState } from "react";
import { usePatchAccount } from "../account/api.ts";
import { onboardingView } from "../onboarding/flow.ts";

/**
 * SPEC §4 onboarding step 3, applied whenever the subsidiaries' posting changes: the new step is
 * saved (PATCH /api/account) and the first-post milestone modal opens. Nothing happens until the
 * account and every subsidiary's eligibility have loaded (`subsidiaries` undefined until then),
 * so a half-loaded screen never moves the guide.
 */
export function useObalStep(account: Account | undefined, subsidiaries: SubsidiaryForObalStep[] | undefined) {
  const patch = usePatchAccount();
  const { mutate } = patch;
  const [modal, setModal] = useState(false);
  // The step being saved: the effect re-runs on every refetch and must not send it twice.
  const saving = useRef<number | null>(null);
  const active = account?.onboarding === true;
  const current = onboardingView(account).step;
  const key = subsidiaries ? JSON.stringify(subsidiaries) : null;

  useEffect(() => {
    if (!active || key === null) return;
    const next = obalOnboardingStep(current, JSON.parse(key) as SubsidiaryForObalStep[]);
    if (next.step === current || saving.current === next.step) return;
    saving.current = next.step;
    if (next.firstPostedModal) setModal(true);
    mutate(
      { onboardingStep: next.step },
      {
        onSettled: () => {
          saving.current = null;
        },
      },
    );
  }, [active, current, key, mutate]);

  const offerFinish = active && obalOnboardingStep(current, subsidiaries ?? []).offerFinish;
  return { firstPostedModal: modal, closeModal: () => setModal(false), offerFinish };
}
