import { Alert, Anchor, Badge, Button, Group, Paper, Progress, Skeleton, Stack, Tabs, Text } from "@mantine/core";
import type { Company, CompanyMap } from "@groupledger/contract";
import { IconCircleCheck } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { useAccount } from "../../account/api.ts";
import { syncActive, useCompanies, useCompanyStatus } from "../../companies/api.ts";
import { onboardingView } from "../../onboarding/flow.ts";
import { useContinueOnboarding } from "../../onboarding/useContinueOnboarding.ts";
import { ScreenHeader } from "../../screens/components/ScreenHeader.tsx";
import { useAllMaps, useChart, useCompanyMap, useSuggestions } from "../api.ts";
import { progressOf } from "../model.ts";
import { subsidiariesOf, useMappingStep } from "../useMappingStep.ts";
import { MappingStepModalView } from "./MappingModals.tsx";
import { MappingWorkspace } from "./MappingWorkspace.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

function ProgressLabel({ map }: { map: CompanyMap | undefined }) {
  if (!map) return <Text size="xs" c="dimmed">…</Text>;
  return map.complete ? (
    <Badge size="sm" color="teal" variant="light" leftSection={<IconCircleCheck size={12} aria-hidden />}>
      Complete
    </Badge>
  ) : (
    <Badge size="sm" color="gray" variant="light">
      {map.mapped} / {map.toMap}
    </Badge>
  );
}

/** /setup/coa: each subsidiary's chart of accounts mapped onto the parent's (SPEC §2 'COA Mapping', §4 Account mapping). */
export function MappingPage() {
  const account = useAccount();
  const companies = useCompanies();
  const status = useCompanyStatus();
  const list = companies.data ?? [];
  const parent = list.find((c) => c.parent && c.archivedAt === null) ?? null;
  const subs = subsidiariesOf(list);
  const maps = useAllMaps(parent !== null && subs.length > 0);
  const [chosen, setChosen] = useState<string | null>(null);
  const active: Company | null = subs.find((c) => c.realmId === chosen) ?? subs[0] ?? null;
  const syncedAt = (realmId: string | undefined) => (realmId ? (status.data?.[realmId]?.sync.lastSyncedAt ?? null) : null);

  const parentChart = useChart(parent?.realmId ?? null, syncedAt(parent?.realmId));
  const subChart = useChart(active?.realmId ?? null, syncedAt(active?.realmId));
  const map = useCompanyMap(active ? active.realmId : null);
  const suggestions = useSuggestions(active ? active.realmId : null);
  const { modal, closeModal } = useMappingStep(account.data, companies.data, maps.data);
  const continueOnboarding = useContinueOnboarding();
  const view = onboardingView(account.data);

  const header = (
    <ScreenHeader
      title="COA Mapping"
      description="Map each subsidiary's chart of accounts onto the parent's: every account that ever had a balance feeds one parent account in the consolidation."
    />
  );

  if (companies.isPending) {
    return (
      <Stack gap="lg">
        {header}
        <Skeleton height={320} radius="md" />
      </Stack>
    );
  }
  if (!parent || subs.length === 0) {
    return (
      <Stack gap="lg">
        {header}
        <Paper withBorder radius="md" p="lg" bg="white">
          <Text fw={600}>{!parent ? "Set a parent company first" : "Connect a subsidiary first"}</Text>
          <Text size="sm" c="dimmed">
            Subsidiaries are mapped onto the parent's chart of accounts, so mapping needs a parent and at least one subsidiary.{" "}
            <Anchor component={Link} to="/setup/companies">
              Go to Connected Companies
            </Anchor>
          </Text>
        </Paper>
      </Stack>
    );
  }

  const activeMap = map.data ?? maps.data?.[active?.realmId ?? ""];
  const syncing = (c: Company) => syncActive(status.data?.[c.realmId]);
  const pct = progressOf(activeMap);
  return (
    <Stack gap="md">
      {header}

      {view.active && view.step === 2.3 ? (
        <Alert color="teal" radius="md" icon={<IconCircleCheck size={18} />} title="Every subsidiary is mapped" role="status">
          <Group justify="space-between" gap="sm">
            <Text size="sm">Step 2 is complete. Next, load the opening balances (optional).</Text>
            <Button size="xs" onClick={() => continueOnboarding.go(3, "/setup/obal")} loading={continueOnboarding.busy}>
              Continue
            </Button>
          </Group>
        </Alert>
      ) : null}

      <Tabs value={active?.realmId ?? null} onChange={setChosen} keepMounted={false} variant="outline">
        <Tabs.List aria-label="Subsidiaries">
          {subs.map((c) => (
            <Tabs.Tab key={c.realmId} value={c.realmId} rightSection={<ProgressLabel map={maps.data?.[c.realmId]} />}>
              {c.companyName}
            </Tabs.Tab>
          ))}
        </Tabs.List>

        {/* The tab's panel, so each tab controls an element that exists (axe: aria-valid-attr-value). */}
        {active ? (
          <Tabs.Panel value={active.realmId} pt="sm">
          <Stack gap="sm">
            <Group justify="space-between" gap="md" wrap="nowrap">
              <Text size="sm">
                <b>{active.companyName}</b> ({active.homeCurrency}) → <b>{parent.companyName}</b> ({parent.homeCurrency})
              </Text>
              <Group gap="xs" wrap="nowrap" miw={320}>
                <Progress value={pct} color={activeMap?.complete ? "teal" : "blue"} w={160} aria-label={`Mapping progress of ${active.companyName}`} />
                <Text size="sm" data-testid="mapping-progress">
                  {activeMap ? `${activeMap.mapped} of ${activeMap.toMap} mapped` : "…"}
                </Text>
                {activeMap?.complete ? (
                  <Badge color="teal" variant="light">
                    Complete
                  </Badge>
                ) : null}
              </Group>
            </Group>
            <Text size="xs" c="dimmed">
              Accounts that never had a balance are listed but not counted; mapping them is optional.
            </Text>

            {subChart.isError || parentChart.isError || map.isError ? (
              <Failure radius="md" title="The mapping could not be loaded" message={(subChart.error ?? parentChart.error ?? map.error)?.message} />
            ) : subChart.isPending || parentChart.isPending || map.isPending ? (
              <Skeleton height={420} radius="md" />
            ) : subChart.data.length === 0 || parentChart.data.length === 0 ? (
              <Paper withBorder radius="md" p="lg" bg="white" role="status">
                <Text fw={600}>{syncing(active) || syncing(parent) ? "The charts of accounts are still syncing" : "No accounts yet"}</Text>
                <Text size="sm" c="dimmed">
                  {subChart.data.length === 0 ? active.companyName : parent.companyName}'s chart of accounts has not arrived from QuickBooks
                  yet. It appears here when its sync finishes.
                </Text>
              </Paper>
            ) : (
              <MappingWorkspace
                key={active.realmId}
                realmId={active.realmId}
                companyName={active.companyName}
                accounts={subChart.data}
                parents={parentChart.data}
                map={map.data}
                suggestions={suggestions.data}
              />
            )}
          </Stack>
          </Tabs.Panel>
        ) : null}
      </Tabs>

      <MappingStepModalView modal={modal} companyName={active?.companyName ?? null} onContinue={closeModal} />
    </Stack>
  );
}
