// The floor of `bundle.bench.ts`: the least JavaScript a login page can load on this stack. React,
// react-router's data router (the app's, with an error element) and Mantine drawing the same
// card and controls as the real login screen, with none of the app: no validation, no API client,
// no query cache, no other routes. Built by the bench in production mode, never shipped.
import { Alert, Anchor, Button, Container, Group, MantineProvider, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, Link, RouterProvider } from "react-router";

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
            <Anchor component={Link} to="/resetPassword">
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

const router = createBrowserRouter([{ path: "*", element: <Login />, errorElement: <p>Error</p> }]);
createRoot(document.getElementById("root")!).render(
  <MantineProvider>
    <RouterProvider router={router} />
  </MantineProvider>,
);
