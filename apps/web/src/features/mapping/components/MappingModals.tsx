import { Text } from "@mantine/core";
import { FIRST_COMPANY_MAPPED_MODAL_TITLE, FIRST_MAPPING_MODAL_TITLE, type MappingStepModal } from "@groupledger/domain";
import { MilestoneModal } from "../../onboarding/components/MilestoneModal.tsx";

const BODY: Record<Exclude<MappingStepModal, null>, { title: string; text: string[] }> = {
  firstMapping: {
    title: FIRST_MAPPING_MODAL_TITLE,
    text: [
      "Each subsidiary account you map feeds the parent account you chose in every consolidation.",
      "Accept all suggestions takes only the confident ones; a suggestion left for review says why beside it (accept it or choose by hand). Select several accounts to map them to one parent account at once. Accounts that never had a balance do not count towards the progress.",
    ],
  },
  firstCompanyMapped: {
    title: FIRST_COMPANY_MAPPED_MODAL_TITLE,
    text: [
      "Every account of this subsidiary that ever had a balance now feeds a parent account.",
      "Map the remaining subsidiaries the same way; once all are mapped, continue to the opening balances.",
    ],
  },
};

/** SPEC §4 milestone modals of step 2 (each with a Continue button). */
export function MappingStepModalView({ modal, companyName, onContinue }: { modal: MappingStepModal; companyName: string | null; onContinue: () => void }) {
  const body = modal ? BODY[modal] : null;
  return (
    <MilestoneModal opened={body !== null} title={body?.title} size="md" onContinue={onContinue}>
      {modal === "firstCompanyMapped" && companyName ? (
        <Text size="sm" fw={600} mb="xs">
          {companyName}
        </Text>
      ) : null}
      {body?.text.map((t) => (
        <Text size="sm" key={t} mt="xs">
          {t}
        </Text>
      ))}
    </MilestoneModal>
  );
}
