import { Paper, Stack, Text, Title } from "@mantine/core";
import type { EliminationView } from "@groupledger/contract";
import { ProblemList } from "../../obal/components/TrialBalanceView.tsx";
import { longMonth } from "../../runs/model.ts";
import { unmatchedCount } from "../model.ts";
import { PairResult } from "./PairResults.tsx";

/** A period's pairs, each with both sides, its difference and how that difference is made up; what stops the computation first. */
export function PeriodEliminations({ view }: { view: EliminationView }) {
  const unmatched = unmatchedCount(view);
  const { period } = view;
  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Eliminations of the period">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {period.kind === "month" ? longMonth(period.to) : `${period.label} (${longMonth(period.from)} – ${longMonth(period.to)})`}
          </Title>
          <Text size="sm" c="dimmed" data-testid="period-summary">
            {view.pairs.length === 0
              ? "No pair could be computed for this period."
              : `${view.pairs.length} pair${view.pairs.length === 1 ? "" : "s"}: ${view.pairs.length - unmatched} matched, ${unmatched} with an unmatched difference. Amounts in ${view.parentCurrency} are debit positive; credits are in parentheses.`}
          </Text>
        </Stack>
        <ProblemList problems={view.problems} title="These stop the eliminations from being computed" />
        {view.pairs.map((p) => (
          <PairResult key={p.pair.id} view={p} parentCurrency={view.parentCurrency} />
        ))}
      </Stack>
    </Paper>
  );
}
