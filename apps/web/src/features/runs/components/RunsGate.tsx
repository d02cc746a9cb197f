import type { ReactNode } from "react";
import { GroupGate, type GroupSetup } from "../../eliminations/components/GroupGate.tsx";

export interface RunsSetup extends GroupSetup {
  /** The locked opening month "YYYY-MM": runs continue from its balances. */
  openingMonth: string;
}

/** Both run screens need the group set up and the opening period locked (GroupGate says what is missing and where to do it). */
export function RunsGate({ children }: { children: (setup: RunsSetup) => ReactNode }) {
  return (
    <GroupGate needsOpening why="Runs post each subsidiary into the parent company's QuickBooks.">
      {(setup) => (setup.openingMonth === null ? null : children({ ...setup, openingMonth: setup.openingMonth }))}
    </GroupGate>
  );
}
