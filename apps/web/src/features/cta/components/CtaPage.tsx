import { Alert, Anchor, Badge, Group, List, Paper, Skeleton, Stack, Tabs, Text, Title } from "@mantine/core";
import { IconCircleCheck, IconWorld } from "@tabler/icons-react";
import { useCallback, useMemo, useState } from "react";
import { Link } from "react-router";
import { useCompanies } from "../../companies/api.ts";
import { Screen } from "../../screens/components/Screen.tsx";
import { useCtaSettings, useParentAccounts } from "../api.ts";
import { canCreateDefaultAccount, ctaAccountOptions } from "../model.ts";
import { GroupCtaAccount } from "./GroupCtaAccount.tsx";
import { SubsidiaryCtaPanel } from "./SubsidiaryCtaPanel.tsx";
import { LoadFailure } from "../../screens/components/Failure.tsx";

const DESCRIPTION =
  "Where the group's cumulative translation adjustment (CTA) goes in the parent, chosen once for every subsidiary that keeps its books in another currency; and for each of them the historical rates of its contributed equity, the rate its dividends are translated at, and how much of it the parent owns.";

/** /setup/cta (SPEC §2: enabled when a parent, a subsidiary and a foreign currency are in use). */
export function CtaPage() {
  const companies = useCompanies();
  const settings = useCtaSettings();
  const data = settings.data;
  const parentAccounts = useParentAccounts(data?.parentRealmId ?? null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [dirty, setDirty] = useState<Record<string, boolean>>({});
  const onDirtyChange = useCallback((realmId: string, value: boolean) => setDirty((d) => (d[realmId] === value ? d : { ...d, [realmId]: value })), []);

  const list = companies.data ?? [];
  const parent = list.find((c) => c.parent && c.archivedAt === null) ?? null;
  const options = useMemo(() => ctaAccountOptions(parentAccounts.data ?? [], data?.ctaAccountSuggestions ?? []), [parentAccounts.data, data?.ctaAccountSuggestions]);
  const subs = data?.subsidiaries ?? [];
  const active = subs.find((s) => s.realmId === chosen) ?? subs[0];

  const loading = companies.isPending || settings.isPending || (data?.parentRealmId != null && parentAccounts.isPending);
  const loadError = companies.error ?? settings.error ?? parentAccounts.error;

  let body: React.ReactNode;
  if (loading) body = <Skeleton height={240} radius="md" />;
  else if (loadError) {
    body = <LoadFailure title="The CTA settings could not be loaded." message={loadError.message} />;
  } else if (!data?.parentRealmId || !data.parentCurrency || !parent) {
    body = (
      <Alert color="yellow" radius="md" title="A parent company is needed">
        Translation differences are kept in the parent&apos;s equity. <Anchor component={Link} to="/setup/companies">Choose a parent on Connected Companies</Anchor>.
      </Alert>
    );
  } else if (subs.length === 0) {
    const sameCurrency = list.filter((c) => !c.parent && c.archivedAt === null);
    body = (
      <Paper withBorder radius="md" p="xl" bg="white" component="section" aria-label="No foreign currency in use">
        <Stack gap="sm" maw={720}>
          <Group gap="sm">
            <IconWorld size={28} color="var(--mantine-color-gray-6)" aria-hidden />
            <Title order={2} size="h4">
              No subsidiary keeps its books in another currency
            </Title>
          </Group>
          <Text size="sm">
            CTA and historical rates apply only to subsidiaries whose home currency differs from the parent&apos;s ({data.parentCurrency}). Their
            balances are translated into {data.parentCurrency}, and the difference that translation leaves is the CTA.
          </Text>
          {sameCurrency.length > 0 ? (
            <List size="sm" spacing={4}>
              {sameCurrency.map((c) => (
                <List.Item key={c.realmId}>
                  {c.companyName} keeps {c.homeCurrency} books and is consolidated as it is, without translation.
                </List.Item>
              ))}
            </List>
          ) : null}
          <Text size="sm">
            Connect a subsidiary in another currency on <Anchor component={Link} to="/setup/companies">Connected Companies</Anchor> and its
            settings appear here.
          </Text>
        </Stack>
      </Paper>
    );
  } else {
    const { parentRealmId, parentCurrency } = data;
    const groupAccountLabel = data.ctaAccountId ? (options.find((o) => o.value === data.ctaAccountId)?.label ?? data.ctaAccountId) : null;
    body = (
      <>
        <GroupCtaAccount
          parentName={parent.companyName}
          parentRealmId={parentRealmId}
          subsidiaries={subs}
          value={data.ctaAccountId}
          options={options}
          canCreate={canCreateDefaultAccount(parentAccounts.data ?? [])}
        />
        <Tabs value={active?.realmId ?? null} onChange={setChosen} variant="outline">
          <Tabs.List aria-label="Foreign subsidiaries">
            {subs.map((s) => (
              <Tabs.Tab
                key={s.realmId}
                value={s.realmId}
                rightSection={
                  s.missing.length === 0 ? (
                    <IconCircleCheck size={16} color="var(--mantine-color-teal-7)" aria-label="Ready" />
                  ) : (
                    <Badge size="sm" color="orange" variant="light" aria-label={`${s.missing.length} to do`}>
                      {s.missing.length}
                    </Badge>
                  )
                }
              >
                <Stack gap={0} align="flex-start">
                  <Text size="sm" fw={600}>
                    {s.companyName}
                    {dirty[s.realmId] ? " •" : ""}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {s.currency} → {parentCurrency}
                  </Text>
                </Stack>
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {subs.map((s) => (
            <Tabs.Panel key={s.realmId} value={s.realmId} pt="md">
              <SubsidiaryCtaPanel sub={s} parentName={parent.companyName} parentCurrency={parentCurrency} groupAccountLabel={groupAccountLabel} onDirtyChange={onDirtyChange} />
            </Tabs.Panel>
          ))}
        </Tabs>
      </>
    );
  }

  return (
    <Screen title="CTA & Historical" description={DESCRIPTION} maw={1280}>
      {body}
    </Screen>
  );
}
