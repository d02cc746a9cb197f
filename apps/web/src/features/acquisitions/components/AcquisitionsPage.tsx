import { Alert, Anchor, Skeleton, Stack } from "@mantine/core";
import { Link } from "react-router";
import { useCompanies } from "../../companies/api.ts";
import { Screen } from "../../screens/components/Screen.tsx";
import { useAcquisitions } from "../api.ts";
import { AcquisitionCard } from "./AcquisitionCard.tsx";
import { LoadFailure } from "../../screens/components/Failure.tsx";

const DESCRIPTION =
  "How the parent acquired each subsidiary: when, for what share and consideration, and the equity it bought. Consolidations eliminate the investment against that equity, giving goodwill (or a bargain purchase gain) and the non-controlling interests at acquisition. GroupLedger proposes what it reads from the books; confirm it or correct it.";

/** /setup/acquisitions (issue 16): one card per subsidiary. */
export function AcquisitionsPage() {
  const companies = useCompanies();
  const acquisitions = useAcquisitions();
  const data = acquisitions.data;
  const list = companies.data ?? [];
  const parent = list.find((c) => c.parent && c.archivedAt === null) ?? null;

  let body: React.ReactNode;
  if (companies.isPending || acquisitions.isPending) body = <Skeleton height={320} radius="md" />;
  else if (companies.error ?? acquisitions.error) {
    body = <LoadFailure title="The acquisitions could not be loaded." message={(companies.error ?? acquisitions.error)?.message} />;
  } else if (!data?.parentRealmId || !data.parentCurrency || !parent) {
    body = (
      <Alert color="yellow" radius="md" title="A parent company is needed">
        Acquisitions are the parent&apos;s. <Anchor component={Link} to="/setup/companies">Choose a parent on Connected Companies</Anchor>.
      </Alert>
    );
  } else if (data.subsidiaries.length === 0) {
    body = (
      <Alert color="blue" radius="md" title="No subsidiary yet">
        Connect a subsidiary on <Anchor component={Link} to="/setup/companies">Connected Companies</Anchor> and its acquisition appears here.
      </Alert>
    );
  } else {
    const { parentCurrency, assetAccounts, expenseAccounts } = data;
    body = (
      <Stack gap="lg">
        {data.subsidiaries.map((s) => (
          <AcquisitionCard
            key={s.realmId}
            sub={s}
            parentName={parent.companyName}
            parentCurrency={parentCurrency}
            ownershipPercent={list.find((c) => c.realmId === s.realmId)?.ownershipPercent ?? ""}
            assetAccounts={assetAccounts}
            expenseAccounts={expenseAccounts}
          />
        ))}
      </Stack>
    );
  }

  return (
    <Screen title="Acquisitions" description={DESCRIPTION} maw={1280}>
      {body}
    </Screen>
  );
}
