import { Button, Group, List, Modal, Text, ThemeIcon } from "@mantine/core";
import { useState } from "react";
import type { HeldScreen } from "../../navigation/navItems.ts";
import { ONBOARDING_MAIN_STEPS } from "../supportLinks.ts";
import { SkipOnboardingDialog } from "./SkipOnboardingDialog.tsx";

interface Props {
  opened: boolean;
  busy: boolean;
  /** What skipping unlocks, for the confirmation. */
  unlocks: HeldScreen[];
  onGetStarted: () => void;
  /** Called once the user has confirmed: ends onboarding (SPEC §4). */
  onSkip: () => void;
}

/**
 * SPEC §2/§9: the welcome overlay at onboarding step 0. A modal so focus stays inside it and the
 * screen behind is inert until the user decides. 'Skip This Step' ends the whole guide, so it asks
 * first, in a dialog stacked above the overlay (Cancel returns to it).
 */
export function WelcomeOverlay({ opened, busy, unlocks, onGetStarted, onSkip }: Props) {
  const [confirming, setConfirming] = useState(false);
  return (
    <Modal.Stack>
      <Modal
        stackId="welcome"
        opened={opened}
        onClose={() => {}}
        withCloseButton={false}
        closeOnClickOutside={false}
        closeOnEscape={false}
        centered
        size="lg"
        title={<Text fw={700} size="xl">Welcome to GroupLedger</Text>}
        overlayProps={{ backgroundOpacity: 0.45, blur: 2 }}
      >
        <Text>
          Three steps get your group ready for its first consolidation. It takes about 20 minutes, and you can leave and come back at any
          point: your progress is saved.
        </Text>
        <List spacing="sm" mt="md" center>
          {ONBOARDING_MAIN_STEPS.map(({ step, label }) => (
            <List.Item
              key={step}
              icon={
                <ThemeIcon radius="xl" size={26}>
                  <Text size="sm" fw={700}>
                    {step}
                  </Text>
                </ThemeIcon>
              }
            >
              <Text fw={600}>{label}</Text>
              <Text size="sm" c="dimmed">
                {step === 1 && "Connect the parent company and each subsidiary from QuickBooks Online."}
                {step === 2 && "Map every subsidiary account onto the parent's chart of accounts."}
                {step === 3 && "Lock the opening period and post translated opening trial balances."}
              </Text>
            </List.Item>
          ))}
        </List>
        <Group justify="flex-end" mt="xl">
          <Button variant="subtle" color="gray" onClick={() => setConfirming(true)} disabled={busy}>
            Skip This Step
          </Button>
          <Button onClick={onGetStarted} loading={busy} data-autofocus>
            Get Started
          </Button>
        </Group>
      </Modal>
      <SkipOnboardingDialog
        stackId="skip-onboarding"
        opened={opened && confirming}
        busy={busy}
        unlocks={unlocks}
        onCancel={() => setConfirming(false)}
        onConfirm={onSkip}
      />
    </Modal.Stack>
  );
}
