import { Alert, Anchor, Skeleton } from "@mantine/core";
import type { Company } from "@groupledger/contract";
import { monthFromParts } from "@groupledger/domain";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useAccount } from "../../account/api.ts";
import { useCompanies } from "../../companies/api.ts";
import { useObal } from "../../obal/api.ts";
import { subsidiariesOf } from "../../obal/model.ts";
import { LoadFailure } from "../../screens/components/Failure.tsx";

export interface GroupSetup {
  parent: Company;
  subsidiaries: Company[];
  /** The locked opening month "YYYY-MM", or null when it is not locked yet. */
  openingMonth: string | null;
}

/**
 * What the consolidation screens need before they can show anything: a parent, a subsidiary,
 * onboarding finished and, where the screen works from the opening balances, the opening period
 * locked. Each missing piece is said with where to do it, instead of a screen the server would refuse.
 */
export function GroupGate({ needsOpening, why, children }: { needsOpening: boolean; why: string; children: (setup: GroupSetup) => ReactNode }) {
  const account = useAccount();
  const companies = useCompanies();
  const obal = useObal();
  if (account.isPending || companies.isPending || obal.isPending) return <Skeleton height={160} radius="md" />;
  const error = account.error ?? companies.error ?? obal.error;
  if (error) return <LoadFailure title="This screen could not be loaded." message={error.message} />;
  const list = companies.data ?? [];
  const parent = list.find((c) => c.parent && c.archivedAt === null) ?? null;
  const subsidiaries = subsidiariesOf(list);
  if (!parent || subsidiaries.length === 0) {
    return (
      <Alert color="yellow" radius="md" title="A parent and a subsidiary are needed">
        {why}{" "}
        <Anchor component={Link} to="/setup/companies" size="sm">
          Connect them on Connected Companies
        </Anchor>
        .
      </Alert>
    );
  }
  if (account.data?.onboarding) {
    return (
      <Alert color="yellow" radius="md" title="Finish onboarding first">
        Consolidation opens once the guided setup is finished: companies connected, charts mapped and opening balances loaded.{" "}
        <Anchor component={Link} to="/setup/obal" size="sm">
          Continue on Opening Balance Sheet
        </Anchor>
        .
      </Alert>
    );
  }
  const state = obal.data;
  const openingMonth = state && state.naturalYear !== null && state.naturalMonth !== null ? monthFromParts(state.naturalYear, state.naturalMonth) : null;
  if (needsOpening && openingMonth === null) {
    return (
      <Alert color="yellow" radius="md" title="Lock the opening period first">
        {why} The consolidation continues from the opening balances, so the opening month must be locked and each subsidiary&apos;s opening
        balance posted.{" "}
        <Anchor component={Link} to="/setup/obal" size="sm">
          Lock it on Opening Balance Sheet
        </Anchor>
        .
      </Alert>
    );
  }
  return <>{children({ parent, subsidiaries, openingMonth })}</>;
}
