import { Button, Group, Select, Text } from "@mantine/core";
import type { Company } from "@groupledger/contract";
import { IconEye } from "@tabler/icons-react";
import { monthName } from "../../obal/model.ts";
import { longMonth, type PeriodChoice, type PeriodKind } from "../model.ts";
import { PeriodFields } from "./PeriodFields.tsx";
import { Section } from "../../screens/components/Section.tsx";

interface Props {
  parent: Company;
  subsidiaries: Company[];
  openingMonth: string;
  realmId: string;
  kind: PeriodKind;
  choices: PeriodChoice[];
  chosen: PeriodChoice | null;
  /** Posted periods are still loading, so the default period is not known yet. */
  loadingDefault: boolean;
  busy: boolean;
  onRealm: (realmId: string) => void;
  onKind: (kind: PeriodKind) => void;
  onPeriod: (to: string) => void;
  onPreview: () => void;
}

/** Which subsidiary and which period: months, or the parent's fiscal quarters and years, after the opening month. */
export function PeriodForm({ parent, subsidiaries, openingMonth, realmId, kind, choices, chosen, loadingDefault, busy, onRealm, onKind, onPeriod, onPreview }: Props) {
  return (
    <Section label="Period to consolidate">
      <Text size="sm" c="dimmed" maw={820}>
        The entry brings one subsidiary&apos;s period into {parent.companyName}&apos;s books: translated, mapped to the parent&apos;s accounts,
        with the change in the cumulative translation adjustment. Periods start after the opening month ({longMonth(openingMonth)}); quarters and
        years are the parent&apos;s fiscal ones (its fiscal year starts in {monthName(parent.fiscalYearStartMonth)}).
      </Text>
      <Group align="flex-end" gap="md">
        <Select
          label="Subsidiary"
          data={subsidiaries.map((c) => ({ value: c.realmId, label: `${c.companyName} (${c.homeCurrency})` }))}
          value={realmId}
          onChange={(v) => v && onRealm(v)}
          allowDeselect={false}
          w={300}
        />
        <PeriodFields kindLabel="Period" kind={kind} choices={choices} chosen={chosen} loading={loadingDefault} onKind={onKind} onPeriod={onPeriod} />
        <Button leftSection={<IconEye size={16} aria-hidden />} onClick={onPreview} disabled={!chosen} loading={busy}>
          Preview
        </Button>
      </Group>
    </Section>
  );
}
