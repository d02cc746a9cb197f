import { Anchor, Button, Group, List, Paper, Stack, Text } from "@mantine/core";
import { IconCloudDownload } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { fxApi, fxKeys } from "../../fxrates/api.ts";
import { obalKeys } from "../api.ts";
import { fetchRange, missingRatesNeededBy, monthChunks, rangeLabel, type MissingRates } from "../missingRates.ts";
import { Failure } from "../../screens/components/Failure.tsx";

/** The rates service answers at most this many months at a time (apps/server fx routes MAX_GRID_MONTHS). */
const FETCH_MONTHS = 120;

const listed = (items: readonly string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/**
 * Opening Balance Sheet, while onboarding keeps FOREX Management in the menu locked: the rates
 * the opening balances lack, one line per currency, fetched here in one go from the rates service
 * (only empty months are filled); FOREX Management stays one link away for entering or importing them.
 */
export function MissingRatesCard({ groups, onFetched }: { groups: readonly MissingRates[]; onFetched: (notice: string) => void }) {
  const client = useQueryClient();
  const range = fetchRange(groups);
  const fetchMissing = useMutation({
    // The answer counts rows, a currency's month (its average and month-end rate), as FOREX Management says them.
    mutationFn: async () => {
      let filled = 0;
      for (const chunk of range ? monthChunks(range, FETCH_MONTHS) : []) filled += (await fxApi.fetchRates({ ...chunk, overwrite: false })).updated;
      return filled;
    },
    onSuccess: async (filled) => {
      const what = `${listed(groups.map((g) => g.currency))} rates for ${range ? rangeLabel(range) : ""}`;
      onFetched(
        filled > 0
          ? `Fetched ${what}: ${filled} ${filled === 1 ? "row" : "rows"} filled.`
          : `The rates service had none of the missing ${what}; enter or import them in FOREX Management.`,
      );
      await Promise.all([client.invalidateQueries({ queryKey: fxKeys.all }), client.invalidateQueries({ queryKey: [...obalKeys.all, "trialbalance"] })]);
    },
  });
  if (groups.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="md" bg="orange.0" component="section" aria-label="Exchange rates needed">
      <Stack gap="xs">
        <Text fw={650}>Exchange rates are missing</Text>
        <Text size="sm">
          Translating the opening balances takes the average and month-end rate of every month from the one before the parent&apos;s fiscal
          year to the opening month.
        </Text>
        <List size="sm" spacing={4}>
          {groups.map((g) => (
            <List.Item key={g.currency}>{missingRatesNeededBy(g)}</List.Item>
          ))}
        </List>
        <Failure title="The rates were not fetched" message={fetchMissing.error?.message} />
        <Group gap="md">
          <Button size="sm" leftSection={<IconCloudDownload size={16} aria-hidden />} loading={fetchMissing.isPending} onClick={() => fetchMissing.mutate()}>
            Fetch missing rates
          </Button>
          <Anchor component={Link} to="/consolidation/fx_rates" size="sm">
            Open FOREX Management
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}
