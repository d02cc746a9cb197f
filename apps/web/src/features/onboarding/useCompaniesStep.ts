import type { Account, Company } from "@groupledger/contract";
import { companiesOnboardingStep, countsForOnboarding, type CompanyForOnboarding } from "@groupledger/domain";
import { useEffect, useRef, useState } from "react";
import { usePatchAccount } from "../account/api.ts";
import type { StatusMap } from "../companies/api.ts";
import { onboardingView } from "./flow.ts";

/** The companies as onboarding step 1 sees them; a company the status has not caught up with yet was just connected. */
export function companiesForOnboarding(companies: readonly Company[], status: StatusMap): CompanyForOnboarding[] {
  return companies.map((c) => ({
    parent: c.parent,
    archived: c.archivedAt !== null,
    connection: status[c.realmId]?.connection ?? "connected",
  }));
}

/**
 * SPEC §4 onboarding step 1, applied whenever the companies or their status change: the new step
 * is saved (PATCH /api/account) and the first-company milestone modal opens. Nothing happens until
 * the account, the companies and their status have all loaded, so a half-loaded screen never
 * moves the guide. The modal opens at most once per visit: if saving 1.1 fails, the next status
 * poll saves it again without reopening a modal the user already closed.
 */
export function useCompaniesStep(account: Account | undefined, companies: Company[] | undefined, status: StatusMap | undefined) {
  const patch = usePatchAccount();
  const { mutate } = patch;
  // The first company's milestone modal; the realmId stays while the modal fades out.
  const [firstCompany, setFirstCompany] = useState<{ realmId: string | null; open: boolean }>({ realmId: null, open: false });
  const modalShown = useRef(false);
  // The step being saved: the effect re-runs on every status poll and must not send it twice.
  const saving = useRef<number | null>(null);

  useEffect(() => {
    if (!account?.onboarding || !companies || !status) return;
    const current = onboardingView(account).step;
    const counted = companiesForOnboarding(companies, status);
    const next = companiesOnboardingStep(current, counted);
    if (next.step === current || saving.current === next.step) return;
    saving.current = next.step;
    if (next.firstCompanyModal && !modalShown.current) {
      modalShown.current = true;
      // The one company that counts (archived and disconnected ones do not).
      setFirstCompany({ realmId: companies.find((_, i) => countsForOnboarding(counted[i]!))?.realmId ?? null, open: true });
    }
    mutate(
      { onboardingStep: next.step },
      {
        onSettled: () => {
          saving.current = null;
        },
      },
    );
  }, [account, companies, status, mutate]);

  return {
    firstCompanyModal: firstCompany.open,
    firstCompany: firstCompany.realmId,
    closeFirstCompanyModal: () => setFirstCompany((f) => ({ ...f, open: false })),
  };
}
