import { MantineProvider, mergeThemeOverrides, type MantineThemeOverride } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { contrastVariables, theme } from "./theme.ts";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Failures already went through the global response handler (error bar, token handling);
      // retrying would only repeat them, and focus refetches would make screens flicker mid-close.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export function Providers({ client, children, themeOverride }: { client: QueryClient; children: ReactNode; themeOverride?: MantineThemeOverride }) {
  return (
    <MantineProvider theme={themeOverride ? mergeThemeOverrides(theme, themeOverride) : theme} defaultColorScheme="light" cssVariablesResolver={contrastVariables}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
