import { Anchor, Paper, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import type { EliminationView } from "@groupledger/contract";
import { formatAmount } from "@groupledger/domain";
import { ProblemList } from "../../obal/components/TrialBalanceView.tsx";
import { longMonth } from "../../runs/model.ts";
import { periodSummary } from "../model.ts";
import { PairResult } from "./PairResults.tsx";

/** A period's pairs, each with both sides, its difference and how that difference is made up; what stops the computation first. */
export function PeriodEliminations({ view }: { view: EliminationView }) {
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
              : `${periodSummary(view)} Amounts in ${view.parentCurrency} are debit positive; credits are in parentheses.`}
          </Text>
          <Text size="sm" c="dimmed" data-testid="tolerance-note">
            {view.tolerance === 0
              ? "The group's tolerance is 0: only pairs whose sides cancel to the cent count as matched."
              : `Pairs whose sides differ by no more than the group's tolerance of ${formatAmount(view.tolerance, view.parentCurrency)} count as matched; the difference is still shown and posted.`}{" "}
            <Anchor component={Link} to="/settings?tab=team" size="sm">
              Change the tolerance
            </Anchor>
          </Text>
        </Stack>
        <ProblemList problems={view.problems} title="These stop the eliminations from being computed" />
        {view.pairs.map((p) => (
          <PairResult key={p.pair.id} view={p} parentCurrency={view.parentCurrency} tolerance={view.tolerance} />
        ))}
      </Stack>
    </Paper>
  );
}
