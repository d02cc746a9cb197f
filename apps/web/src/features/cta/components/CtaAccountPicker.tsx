import { Button, Group, Modal, Select, Stack, Text } from "@mantine/core";
import { CTA_ACCOUNT_DEFAULT_NAME, type CompanyAccount } from "@groupledger/contract";
import { IconPlus } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { AdminGate, useAdminOnly } from "../../team/permissions.tsx";
import { useCreateCtaAccount } from "../api.ts";
import type { CtaAccountOption } from "../model.ts";
import { Failure } from "../../screens/components/Failure.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

interface Props {
  /** What the account is for, under the label. */
  description: string;
  parentName: string;
  parentRealmId: string;
  options: readonly CtaAccountOption[];
  value: string | null;
  error: string | null;
  canCreate: boolean;
  /** While a choice is being saved. */
  saving?: boolean;
  onChange: (accountId: string) => void;
  onCreated: (account: CompanyAccount) => void;
}

/**
 * The parent's equity account that receives the group's CTA: suggestions first, each with why;
 * accounts that cannot hold a CTA listed but disabled with the reason; or a new account made in
 * the parent's QuickBooks after a confirmation (it changes the customer's books), which becomes
 * the group's CTA account.
 */
export function CtaAccountPicker({ description, parentName, parentRealmId, options, value, error, canCreate, saving = false, onChange, onCreated }: Props) {
  const [confirming, setConfirming] = useState(false);
  // Creating it changes the parent's QuickBooks: an admin's call (the server answers 403 otherwise).
  const adminOnly = useAdminOnly("create an account in the parent's QuickBooks");
  const create = useCreateCtaAccount(parentRealmId);
  const notes = useMemo(() => new Map(options.map((o) => [o.value, o])), [options]);
  const data = useMemo(() => {
    const item = (o: CtaAccountOption) => ({ value: o.value, label: o.label, disabled: o.disabled });
    const suggested = options.filter((o) => o.suggested).map(item);
    const others = options.filter((o) => !o.suggested).map(item);
    return [
      ...(suggested.length ? [{ group: "Suggested", items: suggested }] : []),
      ...(others.length ? [{ group: "Other equity accounts", items: others }] : []),
    ];
  }, [options]);
  const chosen = value ? notes.get(value) : undefined;

  return (
    <Stack gap="xs">
      <Select
        label="CTA account in the parent"
        description={description}
        placeholder="Choose an equity account"
        searchable
        allowDeselect={false}
        disabled={saving}
        nothingFoundMessage="No equity account of the parent matches"
        data={data}
        value={value}
        error={error ?? undefined}
        onChange={(id) => {
          if (id !== null && id !== value) onChange(id);
        }}
        maxDropdownHeight={320}
        comboboxProps={{ withinPortal: true }}
        renderOption={({ option }) => {
          const o = notes.get(option.value);
          return (
            <Stack gap={0}>
              <Text size="sm">{option.label}</Text>
              {o?.note ? (
                <Text size="xs" c={o.disabled ? "red.8" : "dimmed"}>
                  {o.note}
                </Text>
              ) : null}
            </Stack>
          );
        }}
      />
      {chosen?.suggested && chosen.note ? (
        <Text size="xs" c="dimmed" data-testid="cta-account-reason">
          Suggested: {chosen.note}
        </Text>
      ) : null}
      {canCreate ? (
        <Group>
          <AdminGate reason={adminOnly}>
            <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setConfirming(true)} disabled={saving}>
              Create &apos;{CTA_ACCOUNT_DEFAULT_NAME}&apos; in QuickBooks
            </Button>
          </AdminGate>
        </Group>
      ) : null}
      <Modal
        opened={confirming}
        onClose={() => {
          if (create.isPending) return;
          setConfirming(false);
          create.reset();
        }}
        title="Create the CTA account in QuickBooks?"
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            This adds an equity account named <strong>{CTA_ACCOUNT_DEFAULT_NAME}</strong> (detail type Accumulated adjustment) to {parentName}&apos;s
            chart of accounts in QuickBooks Online and makes it the group&apos;s CTA account. It starts at zero; consolidations post every foreign
            subsidiary&apos;s translation differences to it. You can rename or deactivate it in QuickBooks later.
          </Text>
          <Failure title="The account was not created" message={create.error?.message} />
          <DialogActions onCancel={() => setConfirming(false)} busy={create.isPending}>
            <Button
              loading={create.isPending}
              onClick={() =>
                create.mutate(
                  {},
                  {
                    onSuccess: (account) => {
                      setConfirming(false);
                      create.reset();
                      onCreated(account);
                    },
                  },
                )
              }
            >
              Create in QuickBooks
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
    </Stack>
  );
}
