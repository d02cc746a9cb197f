// The floor of `bundle.bench.ts`: the least JavaScript a login page can load on this stack. React
// and Mantine drawing the same card and controls as the real login screen (what the login shell,
// src/app/shell.tsx, draws), with none of the app: no form state, no links that start the app, no
// page chrome. Built by the bench in production mode, never shipped.
import { Alert, Anchor, Button, Container, Group, MantineProvider, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { createRoot } from "react-dom/client";

function Login() {
  return (
    <Container size={460} py={48}>
      <Paper withBorder shadow="sm" radius="md" p="xl">
        <Stack gap="lg">
          <Title order={1}>Log in</Title>
          <Text c="dimmed">Floor</Text>
          <Alert color="red" title="Could not log in" />
          <TextInput label="Email" type="email" />
          <PasswordInput label="Password" />
          <Group justify="flex-end">
            <Anchor href="/resetPassword">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" fullWidth>
            Log in
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}

createRoot(document.getElementById("root")!).render(
  <MantineProvider>
    <Login />
  </MantineProvider>,
);
