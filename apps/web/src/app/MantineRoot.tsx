import { MantineProvider, mergeThemeOverrides, type MantineThemeOverride } from "@mantine/core";
import type { ReactNode } from "react";
import { contrastVariables, theme } from "./theme.ts";

/** Mantine with the app's theme: the one provider the login shell and the app share. */
export function MantineRoot({ children, themeOverride }: { children: ReactNode; themeOverride?: MantineThemeOverride | undefined }) {
  return (
    <MantineProvider theme={themeOverride ? mergeThemeOverrides(theme, themeOverride) : theme} defaultColorScheme="light" cssVariablesResolver={contrastVariables}>
      {children}
    </MantineProvider>
  );
}
