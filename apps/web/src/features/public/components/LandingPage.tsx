import { Badge, Box, Button, Container, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconArrowsExchange, IconBuildingBank, IconCheck, IconFileSpreadsheet, IconHierarchy2, IconScale } from "@tabler/icons-react";
import { Link } from "react-router";

const FEATURES = [
  {
    icon: IconHierarchy2,
    title: "Connect the whole group",
    text: "Bring in the parent and every subsidiary straight from QuickBooks Online. Balances sync month by month; nothing is re-keyed.",
  },
  {
    icon: IconFileSpreadsheet,
    title: "Map charts of accounts once",
    text: "Map each subsidiary's accounts onto the parent's chart. Mappings are kept, and new accounts are flagged before the next close.",
  },
  {
    icon: IconArrowsExchange,
    title: "Translate with an explained CTA",
    text: "Current-rate translation (IAS 21 / ASC 830): closing rates for the balance sheet, average rates for the P&L, historical rates for equity.",
  },
  {
    icon: IconScale,
    title: "Eliminate and post",
    text: "Cancel intercompany balances, show non-controlling interests, and post the result to the parent's books as tagged journal entries.",
  },
];

const STEPS = [
  { title: "Connect companies", text: "Sign in to QuickBooks Online and pick the parent and its subsidiaries." },
  { title: "Map accounts", text: "Match every subsidiary account to a parent account, with incompatible classifications refused." },
  { title: "Load opening balances", text: "Lock the opening period and post translated opening trial balances." },
  { title: "Consolidate each month", text: "Enter the month's rates, run, review the statements, then post or export to Excel." },
];

/** '/': what GroupLedger does, for whom, and the way in. */
export function LandingPage() {
  return (
    <>
      <Box bg="white" py={72} style={{ borderBottom: "1px solid var(--mantine-color-gray-2)" }}>
        <Container size="lg">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: "center" }}>
            <Stack gap="lg">
              <Badge variant="light" size="lg" w="fit-content">
                For QuickBooks Online groups
              </Badge>
              <Title order={1} fz={{ base: 34, md: 44 }} lh={1.15} c="dark.8">
                Close the group's month in hours, not days.
              </Title>
              <Text size="lg" c="dimmed" maw={520}>
                GroupLedger consolidates a parent company and its subsidiaries kept in QuickBooks Online: currency translation, mapped
                charts of accounts, intercompany eliminations and consolidated statements you can trace back to every transaction.
              </Text>
              <Group gap="sm">
                <Button component={Link} to="/signup" size="md">
                  Start your 30-day free trial
                </Button>
                <Button component={Link} to="/login" size="md" variant="default">
                  Log in
                </Button>
              </Group>
              <Text size="sm" c="dimmed">
                No card needed. Try it on your own group or on the demo group.
              </Text>
            </Stack>
            <Paper withBorder radius="lg" p="lg" shadow="sm" aria-label="Example consolidation summary">
              <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb="sm" style={{ letterSpacing: "0.06em" }}>
                October 2026 · Consolidated balance sheet
              </Text>
              {[
                ["Northwind Holdings Inc. (parent)", "USD", "Ready"],
                ["Northwind UK Ltd", "GBP → USD", "Translated"],
                ["Northwind GmbH", "EUR → USD", "Translated"],
                ["Intercompany eliminations", "3 pairs", "Balanced"],
              ].map(([name, detail, state]) => (
                <Group key={name} justify="space-between" py={10} style={{ borderBottom: "1px solid var(--mantine-color-gray-2)" }} wrap="nowrap">
                  <Stack gap={0}>
                    <Text size="sm" fw={500}>
                      {name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {detail}
                    </Text>
                  </Stack>
                  <Badge variant="light" color="teal" leftSection={<IconCheck size={12} />}>
                    {state}
                  </Badge>
                </Group>
              ))}
              <Text size="xs" c="dimmed" mt="sm">
                An illustration of a finished close, not live data.
              </Text>
            </Paper>
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py={64}>
        <Title order={2} ta="center" mb="xs">
          Everything a group close needs, in one place
        </Title>
        <Text ta="center" c="dimmed" mb={40} maw={640} mx="auto">
          Built for controllers, group accountants and the firms that close the books for groups of companies.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
          {FEATURES.map((f) => (
            <Paper key={f.title} withBorder radius="md" p="lg" bg="white">
              <ThemeIcon size={40} radius="md" variant="light" mb="md">
                <f.icon size={22} aria-hidden />
              </ThemeIcon>
              <Title order={3} size="h5" mb={6}>
                {f.title}
              </Title>
              <Text size="sm" c="dimmed">
                {f.text}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      </Container>

      <Box bg="white" py={64} style={{ borderTop: "1px solid var(--mantine-color-gray-2)" }}>
        <Container size="lg">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48}>
            <Stack gap="md">
              <Title order={2}>How it works</Title>
              <List type="ordered" spacing="md">
                {STEPS.map((s) => (
                  <List.Item key={s.title}>
                    <Text fw={600}>{s.title}</Text>
                    <Text size="sm" c="dimmed">
                      {s.text}
                    </Text>
                  </List.Item>
                ))}
              </List>
            </Stack>
            <Paper radius="md" p="xl" bg="ledger.0">
              <ThemeIcon size={40} radius="md" mb="md">
                <IconBuildingBank size={22} aria-hidden />
              </ThemeIcon>
              <Title order={3} size="h4" mb="sm">
                Your books stay in QuickBooks
              </Title>
              <Text size="sm" c="dark.5" mb="lg">
                GroupLedger reads balances and writes only the consolidation journal entries you approve, each tagged by subsidiary so
                you can find and reverse them. Access can be revoked from QuickBooks at any time.
              </Text>
              <Button component={Link} to="/pricing" variant="white">
                See pricing
              </Button>
            </Paper>
          </SimpleGrid>
        </Container>
      </Box>
    </>
  );
}
