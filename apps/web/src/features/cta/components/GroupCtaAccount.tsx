import { Paper, Stack, Text, Title } from "@mantine/core";
import type { CompanyAccount, CtaSubsidiary } from "@groupledger/contract";
import { useState } from "react";
import { ApiError } from "../../../lib/http.ts";
import { useSetGroupCtaAccount } from "../api.ts";
import type { CtaAccountOption } from "../model.ts";
import { CtaAccountPicker } from "./CtaAccountPicker.tsx";
import { Notice } from "../../screens/components/Notice.tsx";

interface Props {
  parentName: string;
  parentRealmId: string;
  subsidiaries: readonly Pick<CtaSubsidiary, "companyName">[];
  /** The group's CTA account; null until chosen. */
  value: string | null;
  options: readonly CtaAccountOption[];
  canCreate: boolean;
}

/**
 * The group's one CTA account, chosen once for every foreign subsidiary (and those connected
 * later): saved as soon as it is picked, or made in the parent's QuickBooks.
 */
export function GroupCtaAccount({ parentName, parentRealmId, subsidiaries, value, options, canCreate }: Props) {
  const save = useSetGroupCtaAccount();
  const [notice, setNotice] = useState<string | null>(null);
  const labelOf = (id: string) => options.find((o) => o.value === id)?.label ?? id;
  const names = subsidiaries.map((s) => s.companyName).join(", ");
  const every = subsidiaries.length === 1 ? subsidiaries[0]!.companyName : `every foreign subsidiary (${names})`;
  const error = save.error ? (save.error instanceof ApiError ? (save.error.fieldErrors()["ctaAccountId"] ?? save.error.message) : save.error.message) : null;

  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="CTA account of the group">
      <Stack gap="sm" maw={760}>
        <Stack gap={2}>
          <Title order={2} size="h4">
            CTA account of the group
          </Title>
          <Text size="sm" c="dimmed">
            The group keeps one CTA account, chosen here once: it receives the cumulative translation adjustment of {every}, and of any foreign
            subsidiary connected later.
          </Text>
        </Stack>
        <CtaAccountPicker
          description={`One of ${parentName}'s equity accounts, other than share capital and retained earnings.`}
          parentName={parentName}
          parentRealmId={parentRealmId}
          options={options}
          value={value}
          error={error}
          canCreate={canCreate}
          saving={save.isPending}
          onChange={(id) => {
            setNotice(null);
            save.mutate(id, { onSuccess: () => setNotice(`Saved. The CTA of ${every} goes to "${labelOf(id)}".`) });
          }}
          onCreated={(account: CompanyAccount) => {
            save.reset();
            setNotice(`"${account.name}" was created in ${parentName}'s QuickBooks and is now the group's CTA account: the CTA of ${every} goes to it.`);
          }}
        />
        <Notice message={notice} onDismiss={() => setNotice(null)} />
      </Stack>
    </Paper>
  );
}
