import { Button, Group, Modal, Text } from "@mantine/core";
import { useEffect } from "react";
import { useBlocker } from "react-router";

/**
 * Typed rates are only in this page until saved: leaving asks first, and closing or reloading the
 * tab gets the browser's own warning. Logging out (by hand or after the idle time-out) is never
 * held up: a session must be able to end.
 */
export function UnsavedChangesGuard({ changes }: { changes: number }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => changes > 0 && currentLocation.pathname !== nextLocation.pathname && nextLocation.pathname !== "/logout");

  useEffect(() => {
    if (changes === 0) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [changes]);

  return (
    <Modal opened={blocker.state === "blocked"} onClose={() => blocker.reset?.()} title={<Text fw={700}>Leave without saving?</Text>} centered>
      <Text size="sm">
        {changes} {changes === 1 ? "rate you typed is" : "rates you typed are"} not saved. If you leave now, {changes === 1 ? "it is" : "they are"} lost.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          Stay
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
      </Group>
    </Modal>
  );
}
