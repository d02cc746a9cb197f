import { Badge, Button, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconArrowRight, IconClipboardList, IconPoint } from "@tabler/icons-react";
import { Link } from "react-router";
import { useShellData } from "../../layout/useShellData.ts";
import { navItemFor, PLANNED_SCREENS } from "../screens.ts";
import { PrerequisiteList, prerequisites } from "./Prerequisites.tsx";
import { ScreenHeader } from "./ScreenHeader.tsx";

/**
 * The empty state of a screen a later release fills in: what it is for, what it will let the user
 * do, and — from the account's real state — what must be done first and where to do it.
 */
export function PlannedScreen({ path }: { path: string }) {
  const info = PLANNED_SCREENS[path];
  const { facts } = useShellData();
  if (!info) return null;
  const checklist = prerequisites(navItemFor(path) ?? {}, facts);
  const firstOpen = checklist.find((p) => !p.met);
  const needsCompanies = !facts.hasParent || !facts.hasSubsidiary;

  return (
    <Stack gap="lg" maw={980}>
      <ScreenHeader title={info.title} description={info.purpose} />
      <Paper withBorder radius="md" p="xl" bg="white" data-testid="empty-state">
        <Group align="flex-start" wrap="nowrap" gap="lg">
          <ThemeIcon size={48} radius="md" variant="light">
            <IconClipboardList size={26} aria-hidden />
          </ThemeIcon>
          <Stack gap="xs" style={{ flex: 1 }}>
            <Group gap="xs">
              <Title order={2} size="h4">
                Nothing to show yet
              </Title>
              <Badge variant="light" color="gray">
                Not available yet
              </Badge>
            </Group>
            <Text c="dimmed" size="sm">
              This screen is not part of this release. Once it is, you will be able to:
            </Text>
            <List size="sm" spacing={4} icon={<IconPoint size={14} aria-hidden />} center>
              {info.will.map((w) => (
                <List.Item key={w}>{w}</List.Item>
              ))}
            </List>
          </Stack>
        </Group>
      </Paper>
      {checklist.length > 0 ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Paper withBorder radius="md" p="lg" bg="white">
            <Title order={2} size="h5" mb="sm">
              Before you start
            </Title>
            <PrerequisiteList items={checklist} />
          </Paper>
          <Paper withBorder radius="md" p="lg" bg="white">
            <Title order={2} size="h5" mb="xs">
              What to do next
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              {firstOpen
                ? needsCompanies
                  ? "Start by connecting your companies: the parent first, then each subsidiary."
                  : `Next: ${firstOpen.label.toLowerCase()}.`
                : "Everything this screen needs is in place."}
            </Text>
            {needsCompanies ? (
              <Button component={Link} to="/setup/companies" variant="light" rightSection={<IconArrowRight size={16} />}>
                Go to Connected Companies
              </Button>
            ) : null}
          </Paper>
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
