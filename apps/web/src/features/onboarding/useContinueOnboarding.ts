import type { OnboardingStep } from "@groupledger/domain";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { usePatchAccount } from "../account/api.ts";

/**
 * A milestone's 'Continue' (SPEC §4: 1.2 → /setup/coa and step 2; 2.3 → /setup/obal and step 3):
 * saves the step, goes to the next screen and reloads its data. The reload is a refetch of every
 * query rather than a full page load: it gives the next screen fresh server state without
 * dropping the session's cached shell.
 */
export function useContinueOnboarding() {
  const patch = usePatchAccount();
  const navigate = useNavigate();
  const client = useQueryClient();
  const go = (step: OnboardingStep, path: string) =>
    patch.mutate(
      { onboardingStep: step },
      {
        onSuccess: async () => {
          await navigate(path);
          await client.invalidateQueries();
        },
      },
    );
  return { go, busy: patch.isPending };
}
