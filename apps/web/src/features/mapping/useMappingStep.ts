import type { Account, Company, CompanyMap } from "@groupledger/contract";
import { mappingOnboardingStep, type MappingStepModal } from "@groupledger/domain";
import { useEffect, useRef, useState } from "react";
import { usePatchAccount } from "../account/api.ts";
import { onboardingView } from "../onboarding/flow.ts";

/** The subsidiaries step 2 counts: connected ones still in the group (an archived company has left it). */
export function subsidiariesOf(companies: readonly Company[]): Company[] {
  return companies.filter((c) => !c.parent && c.archivedAt === null);
}

/**
 * SPEC §4 onboarding step 2, applied whenever the maps change (every change re-fetches them): the
 * new step is saved (PATCH /api/account) and its milestone modal opens. Nothing happens until the
 * account, the companies and the maps have all loaded, so a half-loaded screen never moves the guide.
 */
export function useMappingStep(account: Account | undefined, companies: Company[] | undefined, maps: Record<string, CompanyMap> | undefined) {
  const { mutate } = usePatchAccount();
  const [modal, setModal] = useState<MappingStepModal>(null);
  // The step being saved: the effect re-runs when the account answer arrives and must not send it twice.
  const saving = useRef<number | null>(null);

  useEffect(() => {
    if (!account?.onboarding || !companies || !maps) return;
    const current = onboardingView(account).step;
    const subs = subsidiariesOf(companies).map((c) => ({ mapped: maps[c.realmId]?.mapped ?? 0, complete: maps[c.realmId]?.complete ?? false }));
    const next = mappingOnboardingStep(current, subs);
    if (next.step === current || saving.current === next.step) return;
    saving.current = next.step;
    if (next.modal) setModal(next.modal);
    mutate(
      { onboardingStep: next.step },
      {
        onSettled: () => {
          saving.current = null;
        },
      },
    );
  }, [account, companies, maps, mutate]);

  return { modal, closeModal: () => setModal(null) };
}
