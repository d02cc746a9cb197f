import { Alert } from "@mantine/core";
import type { ReactNode } from "react";

/** What was just done ("Saved."), in teal as a status the user can dismiss; nothing while there is no message. */
export function Notice({ message, onDismiss }: { message: ReactNode; onDismiss: () => void }) {
  if (message === null || message === undefined || message === false || message === "") return null;
  return (
    <Alert color="teal" role="status" withCloseButton closeButtonLabel="Dismiss message" onClose={onDismiss}>
      {message}
    </Alert>
  );
}
