import { type MantineThemeOverride } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { MantineRoot } from "./MantineRoot.tsx";

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
    <MantineRoot themeOverride={themeOverride}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineRoot>
  );
}
