import { Button, List, Modal, Stack, Text } from "@mantine/core";
import { DatePickerInput } from "@mantine/dates";
import "@mantine/dates/styles.css";
import type { Company } from "@groupledger/contract";
import { useState } from "react";
import { todayIsoDate } from "../format.ts";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

export type Dialog = { kind: "disconnect"; company: Company } | { kind: "remove"; company: Company } | { kind: "archive"; company: Company };

interface Props {
  dialog: Dialog | null;
  busy: boolean;
  onCancel: () => void;
  onDisconnect: (company: Company) => void;
  onRemove: (company: Company) => void;
  onArchive: (company: Company, date: string) => void;
}

function Actions({ busy, confirm, color, onCancel, onConfirm }: { busy: boolean; confirm: string; color?: string; onCancel: () => void; onConfirm: () => void }) {
  return (
    <DialogActions onCancel={onCancel} busy={busy} autoFocus mt="lg">
      <Button onClick={onConfirm} loading={busy} {...(color ? { color } : {})}>
        {confirm}
      </Button>
    </DialogActions>
  );
}

function ArchiveForm({ company, busy, onCancel, onArchive }: { company: Company; busy: boolean; onCancel: () => void; onArchive: (date: string) => void }) {
  const [date, setDate] = useState<string | null>(todayIsoDate());
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (date) onArchive(date);
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          {company.companyName} leaves the consolidation from this date, for example the day it was sold or wound up. Its data stays in
          GroupLedger and you can unarchive it at any time.
        </Text>
        <DatePickerInput
          label="Archive from"
          value={date}
          onChange={setDate}
          valueFormat="D MMMM YYYY"
          required
          data-autofocus
          popoverProps={{ withinPortal: true }}
          error={date ? undefined : "Choose the date the company leaves the group."}
        />
      </Stack>
      <DialogActions onCancel={onCancel} busy={busy} mt="lg">
        <Button type="submit" loading={busy} disabled={!date}>
          Archive
        </Button>
      </DialogActions>
    </form>
  );
}

/** The confirmations of the companies screen: disconnect, remove, and archive with its date. */
export function CompanyDialogs({ dialog, busy, onCancel, onDisconnect, onRemove, onArchive }: Props) {
  const company = dialog?.company;
  const title =
    dialog?.kind === "disconnect" ? `Disconnect ${company?.companyName}?` : dialog?.kind === "remove" ? `Remove ${company?.companyName}?` : `Archive ${company?.companyName}`;
  return (
    <Modal opened={dialog !== null} onClose={busy ? () => {} : onCancel} centered size="md" title={<Text fw={700}>{title}</Text>}>
      {dialog?.kind === "disconnect" ? (
        <>
          <Text size="sm">
            GroupLedger's access to this QuickBooks company is revoked at QuickBooks. Its synced accounts and balances stay here, and it
            stays listed as disconnected until you reconnect it.
          </Text>
          <Text size="sm" mt="sm" c="dimmed">
            Nothing changes in the company's QuickBooks books.
          </Text>
          <Actions busy={busy} confirm="Disconnect" color="orange" onCancel={onCancel} onConfirm={() => onDisconnect(dialog.company)} />
        </>
      ) : null}
      {dialog?.kind === "remove" ? (
        <>
          <Text size="sm">This deletes from GroupLedger:</Text>
          <List size="sm" mt={6} spacing={4}>
            <List.Item>the connection to QuickBooks and its stored authorization;</List.Item>
            <List.Item>the synced chart of accounts and monthly balances;</List.Item>
            <List.Item>any account mappings made for it.</List.Item>
          </List>
          {dialog.company.parent ? (
            <Text size="sm" mt="sm" fw={600}>
              It is your parent company: the group has no parent until you set another one.
            </Text>
          ) : null}
          <Text size="sm" mt="sm" c="dimmed">
            Nothing is deleted in QuickBooks. You can connect the company again later; it then syncs from scratch.
          </Text>
          <Actions busy={busy} confirm="Remove company" color="red" onCancel={onCancel} onConfirm={() => onRemove(dialog.company)} />
        </>
      ) : null}
      {dialog?.kind === "archive" ? (
        <ArchiveForm key={dialog.company.realmId} company={dialog.company} busy={busy} onCancel={onCancel} onArchive={(date) => onArchive(dialog.company, date)} />
      ) : null}
    </Modal>
  );
}
