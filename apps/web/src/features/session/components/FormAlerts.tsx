import { Alert } from "@mantine/core";

/** What a sign-in form says above its fields: what was sent or done (hidden while there is an error), and why the last try failed. */
export function FormAlerts({ info = null, error, errorTitle }: { info?: string | null; error: string | null; errorTitle: string }) {
  return (
    <>
      {info && !error ? (
        <Alert color="teal" variant="light" role="status">
          {info}
        </Alert>
      ) : null}
      {error ? (
        <Alert color="red" variant="light" role="alert" title={errorTitle}>
          {error}
        </Alert>
      ) : null}
    </>
  );
}
