import { Badge, Button, Container, List, Paper, SimpleGrid, Stack, Table, Text, ThemeIcon, Title } from "@mantine/core";
import { IconCheck, IconMinus } from "@tabler/icons-react";
import { Link } from "react-router";
import { formatPrice, PLANS, TRIAL_DAYS } from "@groupledger/contract";
import { FEATURED_PLAN } from "../../billing/components/PlanCards.tsx";

interface Column {
  name: string;
  price: string;
  unit: string;
  summary: string;
  highlight?: boolean;
  cta: string;
}

// The paid plans come from the contract (the same list the server bills and the settings screen offers).
const COLUMNS: Column[] = [
  { name: "Trial", price: "$0", unit: `for ${TRIAL_DAYS} days`, summary: "Every feature on your own group. No card needed.", cta: "Start free trial" },
  ...PLANS.map((p) => ({
    name: p.name,
    price: formatPrice(p),
    unit: "per group / month",
    summary: p.summary,
    highlight: p.id === FEATURED_PLAN,
    cta: "Start with a trial",
  })),
];

const everyPlan = [true, ...PLANS.map(() => true)];
const FEATURES: [string, ...boolean[]][] = [
  ["Subsidiaries per group", ...everyPlan],
  ["Currency translation with CTA", ...everyPlan],
  ["Chart-of-accounts mapping", ...everyPlan],
  ["Intercompany eliminations", ...everyPlan],
  ["Post consolidation journal entries to QuickBooks", ...everyPlan],
  ["Excel export of statements", ...everyPlan],
  ["Team members with admin and member levels", ...everyPlan],
  ["Multi-period / multi-company runs", true, ...PLANS.map((p) => p.multiPeriodRuns)],
  ["Priority support (answer within 4 business hours)", false, ...PLANS.map((p) => p.prioritySupport)],
];

const LIMITS = [`Up to ${Math.max(...PLANS.map((p) => p.maxSubsidiaries))}`, ...PLANS.map((p) => `Up to ${p.maxSubsidiaries}`)];

function Mark({ on, label }: { on: boolean; label: string }) {
  return on ? (
    <IconCheck size={18} color="var(--mantine-color-teal-7)" aria-label={`${label}: included`} />
  ) : (
    <IconMinus size={18} color="var(--mantine-color-gray-5)" aria-label={`${label}: not included`} />
  );
}

/** /pricing: a free trial, then a monthly price per group (subscribing happens in Account Settings once signed in). */
export function PricingPage() {
  return (
    <Container size="lg" py={56}>
      <Stack gap="xs" align="center" mb={40}>
        <Title order={1}>Simple pricing per group</Title>
        <Text c="dimmed" ta="center" maw={620}>
          One price per consolidated group, however many people on your team sign in. Start with a {TRIAL_DAYS}-day free trial; pick a plan when
          you are ready. Prices in US dollars, excluding tax.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" mb={48}>
        {COLUMNS.map((p) => (
          <Paper key={p.name} withBorder radius="md" p="xl" bg="white" shadow={p.highlight ? "md" : undefined} style={p.highlight ? { borderColor: "var(--mantine-color-ledger-6)" } : undefined}>
            <Stack gap="sm" h="100%">
              <Title order={2} size="h4">
                {p.name} {p.highlight ? <Badge ml={6} component="span">Most chosen</Badge> : null}
              </Title>
              <Text>
                <Text span fz={34} fw={700}>
                  {p.price}
                </Text>{" "}
                <Text span c="dimmed" size="sm">
                  {p.unit}
                </Text>
              </Text>
              <Text size="sm" c="dimmed" style={{ flex: 1 }}>
                {p.summary}
              </Text>
              <Button component={Link} to="/signup" variant={p.highlight ? "filled" : "default"} fullWidth>
                {p.cta}
              </Button>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      <Paper withBorder radius="md" bg="white">
        <Table verticalSpacing="sm" horizontalSpacing="lg" striped>
          <Table.Caption>What each plan includes</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Feature</Table.Th>
              {COLUMNS.map((p) => (
                <Table.Th key={p.name} scope="col" ta="center">
                  {p.name}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {FEATURES.map(([label, ...included], row) => (
              <Table.Tr key={label}>
                <Table.Th scope="row" fw={400}>
                  {label}
                </Table.Th>
                {included.map((on, i) => (
                  <Table.Td key={COLUMNS[i]?.name} ta="center">
                    {row === 0 ? <Text size="sm">{LIMITS[i]}</Text> : <Mark on={on} label={label} />}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" mt={48}>
        <Stack gap={4}>
          <Title order={3} size="h5">
            What happens when the trial ends?
          </Title>
          <Text size="sm" c="dimmed">
            Nothing is deleted. The app becomes read-only: everyone can still sign in, view and export everything, and an admin can choose a plan in Account Settings at any time to make changes again.
          </Text>
        </Stack>
        <Stack gap={4}>
          <Title order={3} size="h5">
            Accounting firm with several client groups?
          </Title>
          <List size="sm" c="dimmed" spacing={2}>
            <List.Item icon={<ThemeIcon size={6} radius="xl" color="gray" />}>Each client group is billed on its own plan.</List.Item>
            <List.Item icon={<ThemeIcon size={6} radius="xl" color="gray" />}>Ask support about volume pricing from 10 groups.</List.Item>
          </List>
        </Stack>
      </SimpleGrid>
    </Container>
  );
}
