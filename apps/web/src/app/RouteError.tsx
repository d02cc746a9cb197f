import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { useEffect } from "react";
import { useRouteError } from "react-router";
import { raiseError } from "../features/errors/errorBar.ts";

/**
 * A screen that failed to load or render (e.g. its chunk timed out after 120 s). The error bar
 * says so; the page offers the one thing that usually helps.
 */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    raiseError(error);
  }, [error]);
  return (
    <Center mih="60vh" p="xl">
      <Stack align="center" gap="sm" maw={440} ta="center">
        <Title order={2}>This screen could not be loaded</Title>
        <Text c="dimmed">
          Your data is safe. Reloading the page usually fixes this; if it keeps happening, check your connection.
        </Text>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
      </Stack>
    </Center>
  );
}
