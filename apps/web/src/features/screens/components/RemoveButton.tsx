import { ActionIcon } from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";

/** A row's Remove: a red bin named by `label` for assistive technology ("Remove adjustment 2"), spinning while `loading`. */
export function RemoveButton({ label, loading, onClick }: { label: string; loading?: boolean; onClick: () => void }) {
  return (
    <ActionIcon variant="subtle" color="red" aria-label={label} loading={loading} onClick={onClick}>
      <IconTrash size={16} aria-hidden />
    </ActionIcon>
  );
}
