import { ActionIcon, Tooltip, type MantineColor } from "@mantine/core";
import type { ReactNode } from "react";

/** An icon button (`children`: the icon) that says what it does in a tooltip, named by `label` for assistive technology. */
export function TipAction({ tip, label, color, onClick, children }: { tip: string; label: string; color?: MantineColor; onClick: () => void; children: ReactNode }) {
  return (
    <Tooltip label={tip}>
      <ActionIcon variant="subtle" color={color} aria-label={label} onClick={onClick}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
