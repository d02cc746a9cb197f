import { Alert, Anchor } from "@mantine/core";
import { Link } from "react-router";
import { dismissError, useErrorBar } from "../errorBar.ts";

/** The one dismissable error bar (SPEC §2, §8), pinned above every screen. */
export function ErrorBar() {
  const content = useErrorBar();
  if (!content) return null;
  return (
    <Alert
      role="alert"
      color="red"
      variant="filled"
      radius={0}
      withCloseButton
      closeButtonLabel="Dismiss error"
      onClose={dismissError}
      style={{ position: "fixed", top: 0, left: 0, right: 0, zIndex: 400 }}
      data-testid="error-bar"
    >
      {content.href ? (
        <Anchor component={Link} to={content.href} c="white" underline="always" onClick={dismissError}>
          {content.message}
        </Anchor>
      ) : (
        content.message
      )}
    </Alert>
  );
}
