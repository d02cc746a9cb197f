import { Button, Group, Modal, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { IDLE_TITLE, IDLE_QUESTION } from "../messages.ts";

/** "14:05", "1:02:00": the time left, rounded up to the second. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return `${h > 0 ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

/** The time left until `logoutAt()`, read again every second while `active`. */
function useTimeLeft(active: boolean, logoutAt: () => number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    setNow(Date.now());
    const handle = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(handle);
  }, [active]);
  const at = active ? logoutAt() : undefined;
  return at === undefined ? undefined : at - now;
}

/** SPEC §2: 'Idle Timeout', 'Are you still there?', Stay / Logout; with the time left before the automatic logout. */
export function IdleDialog({ opened, onStay, onLogout, logoutAt = () => undefined }: { opened: boolean; onStay: () => void; onLogout: () => void; logoutAt?: () => number | undefined }) {
  const left = useTimeLeft(opened, logoutAt);
  return (
    <Modal opened={opened} onClose={onStay} title={IDLE_TITLE}
      styles={{ title: { fontWeight: 700, fontSize: "var(--mantine-font-size-lg)" } }} centered closeOnClickOutside={false} size="sm" zIndex={500}>
      <Text>{IDLE_QUESTION}</Text>
      <Text size="sm" c="dimmed" mt={4} data-testid="idle-countdown">
        {left === undefined
          ? "For your security you will be logged out if there is no activity."
          : `For your security you will be logged out in ${formatCountdown(left)} if there is no activity.`}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onLogout}>
          Logout
        </Button>
        <Button onClick={onStay} data-autofocus>
          Stay
        </Button>
      </Group>
    </Modal>
  );
}
