import { Button, Group, type MantineSpacing } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * A dialog's buttons, on its right: Cancel (or `cancelLabel`), off while `busy` and, with `autoFocus`,
 * focused as the dialog opens; then the button that does what the dialog asks (`children`).
 */
export function DialogActions({
  onCancel,
  busy,
  autoFocus = false,
  cancelLabel = "Cancel",
  mt,
  children,
}: {
  onCancel: () => void;
  busy?: boolean;
  autoFocus?: boolean;
  cancelLabel?: string;
  mt?: MantineSpacing;
  children: ReactNode;
}) {
  return (
    <Group justify="flex-end" mt={mt}>
      <Button variant="default" onClick={onCancel} disabled={busy} data-autofocus={autoFocus || undefined}>
        {cancelLabel}
      </Button>
      {children}
    </Group>
  );
}
