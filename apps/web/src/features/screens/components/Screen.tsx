import { Stack } from "@mantine/core";
import type { ReactNode } from "react";
import { ScreenHeader } from "./ScreenHeader.tsx";

/** A screen of the app: its title and what it is for, then its content, at most `maw` wide. */
export function Screen({ title, description, maw, children }: { title: string; description: string; maw?: number; children: ReactNode }) {
  return (
    <Stack gap="lg" maw={maw}>
      <ScreenHeader title={title} description={description} />
      {children}
    </Stack>
  );
}
