import { Center, Paper, Stack, ThemeIcon, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** The calm card every page of the QuickBooks pop-up shows (600x544: nothing may need scrolling). */
export function PopupFrame({ icon, color, title, children }: { icon: ReactNode; color?: string; title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder radius="md" p="xl" w="100%" maw={480} bg="white">
        <Stack gap="sm" align="flex-start">
          <ThemeIcon size={44} radius="md" variant="light" {...(color ? { color } : {})}>
            {icon}
          </ThemeIcon>
          <Title order={1} size="h3">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
