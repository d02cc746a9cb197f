import { Alert, Anchor, List, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import type { Company } from "@groupledger/contract";
import { IconCurrencyOff } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { useCompanies } from "../../companies/api.ts";
import { ScreenHeader } from "../../screens/components/ScreenHeader.tsx";
import { useFxRates } from "../api.ts";
import { defaultRange, rangeProblem } from "../model.ts";
import { RatesWorkspace } from "./RatesWorkspace.tsx";

const DESCRIPTION =
  "Monthly average and end-of-period rates for every foreign currency in the group. Subsidiaries' income and expenses are translated at the average rate, their assets and liabilities at the end-of-period rate.";

/** /consolidation/fx_rates, FOREX Management (SPEC §2, §3 FX rates). */
export function FxRatesPage() {
  const [range, setRange] = useState(() => defaultRange());
  const grid = useFxRates(range, rangeProblem(range) === null);
  const companies = useCompanies();
  const header = <ScreenHeader title="FOREX Management" description={DESCRIPTION} />;

  if (grid.isPending) {
    return (
      <Stack gap="lg">
        {header}
        <Skeleton height={360} radius="md" />
      </Stack>
    );
  }
  if (!grid.data) {
    return (
      <Stack gap="lg">
        {header}
        <Alert color="red" role="alert" title="The rates could not be loaded">
          {grid.error?.message}
        </Alert>
      </Stack>
    );
  }
  const data = grid.data;
  if (!data.parentCurrency || data.currencies.length === 0) {
    return (
      <Stack gap="lg">
        {header}
        <NoForeignCurrency parentCurrency={data.parentCurrency} companies={companies.data ?? []} />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {header}
      <RatesWorkspace
        grid={data}
        parentCurrency={data.parentCurrency}
        parentName={companies.data?.find((c) => c.parent && c.archivedAt === null)?.companyName ?? null}
        range={range}
        onRangeChange={setRange}
        loadingRange={grid.isFetching}
        rangeError={grid.error?.message ?? null}
      />
    </Stack>
  );
}

/** Why there is nothing to enter: rates translate a subsidiary's books only when its currency differs from the parent's. */
function NoForeignCurrency({ parentCurrency, companies }: { parentCurrency: string | null; companies: readonly Company[] }) {
  const subs = companies.filter((c) => !c.parent && c.archivedAt === null);
  return (
    <Paper withBorder radius="md" p="xl" bg="white" data-testid="empty-state">
      <Stack gap="sm" align="flex-start">
        <ThemeIcon size={44} radius="md" variant="light" color="gray">
          <IconCurrencyOff size={24} aria-hidden />
        </ThemeIcon>
        <Title order={2} size="h4">
          {parentCurrency ? "No foreign currency in use" : "Choose a parent company first"}
        </Title>
        {parentCurrency ? (
          <>
            <Text size="sm" c="dimmed" maw={680}>
              Rates are needed only for subsidiaries that keep their books in another currency than the parent's {parentCurrency}.{" "}
              {subs.length === 0 ? "No subsidiary is connected yet." : `Every connected subsidiary keeps its books in ${parentCurrency}, so nothing needs translating.`}
            </Text>
            {subs.length > 0 ? (
              <List size="sm">
                {subs.map((c) => (
                  <List.Item key={c.realmId}>
                    {c.companyName}: {c.homeCurrency}
                  </List.Item>
                ))}
              </List>
            ) : null}
          </>
        ) : (
          <Text size="sm" c="dimmed" maw={680}>
            Rates are kept in the parent's currency (how many units of it one unit of a foreign currency is worth), so they can be
            entered once a parent company is set.
          </Text>
        )}
        <Anchor component={Link} to="/setup/companies" size="sm">
          {parentCurrency ? "Connect a subsidiary on Connected Companies" : "Set the parent on Connected Companies"}
        </Anchor>
      </Stack>
    </Paper>
  );
}
