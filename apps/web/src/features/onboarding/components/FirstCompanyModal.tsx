import { Text } from "@mantine/core";
import type { Company } from "@groupledger/contract";
import { FIRST_COMPANY_MODAL_TITLE } from "@groupledger/domain";
import { MilestoneModal } from "./MilestoneModal.tsx";

interface Props {
  opened: boolean;
  /** The company just connected, as the companies list has it now (it may have become the parent meanwhile). */
  company: Pick<Company, "companyName" | "parent"> | null;
  onContinue: () => void;
}

/**
 * SPEC §4 milestone modal of step 1: the first company is connected. Connecting does not make it
 * the parent, so the modal says what comes next: choose the parent, then connect the subsidiaries.
 */
export function FirstCompanyModal({ opened, company, onContinue }: Props) {
  const name = company?.companyName ?? "Your company";
  return (
    <MilestoneModal opened={opened} title={FIRST_COMPANY_MODAL_TITLE} size="md" onContinue={onContinue}>
      {company?.parent ? (
        <Text size="sm">
          {name} is your parent company: the one that owns the others and receives the consolidation entries. Its chart of accounts and
          monthly balances sync from QuickBooks in the background.
        </Text>
      ) : (
        <>
          <Text size="sm">
            {name} is connected. Its chart of accounts and monthly balances sync from QuickBooks in the background.
          </Text>
          <Text size="sm" mt="sm">
            Next, tell GroupLedger which company is the parent: the one that owns the others and receives the consolidation entries. If
            that is {name}, choose it under Set a parent; if not, connect the parent company too and choose it.
          </Text>
        </>
      )}
      <Text size="sm" mt="sm">
        {company?.parent ? "Next" : "Then"}, connect each subsidiary the same way. Step 1 is done once the parent and at least one subsidiary are connected.
      </Text>
    </MilestoneModal>
  );
}
