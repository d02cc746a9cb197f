import { Alert, Button, Paper, Text, type AlertProps } from "@mantine/core";
import type { ReactNode } from "react";

/** Why something failed (it could not be loaded, it was not saved), in red for assistive technology as an alert; nothing while there is no message. */
export function Failure({ message, ...alert }: { message: ReactNode } & Omit<AlertProps, "children" | "color" | "role">) {
  if (message === null || message === undefined || message === false || message === "") return null;
  return (
    <Alert color="red" role="alert" {...alert}>
      {message}
    </Alert>
  );
}

/** In place of a screen's content that could not be loaded: what, why, and (with `onRetry`) a button to try again. */
export function LoadFailure({ title, message, onRetry }: { title: string; message: ReactNode; onRetry?: () => void }) {
  return (
    <Paper withBorder radius="md" p="lg" bg="white" role="alert">
      <Text fw={600}>{title}</Text>
      <Text size="sm" c="dimmed">
        {message}
      </Text>
      {onRetry ? (
        <Button mt="sm" variant="light" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </Paper>
  );
}
