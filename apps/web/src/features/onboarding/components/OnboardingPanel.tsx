import { Anchor, Button, Group, Paper, Stepper, Text } from "@mantine/core";
import { IconExternalLink } from "@tabler/icons-react";
import type { OnboardingStep } from "@groupledger/domain";
import { continueTarget, stepperActive, type OnboardingView } from "../flow.ts";
import { ONBOARDING_MAIN_STEPS } from "../supportLinks.ts";

interface Props {
  view: OnboardingView;
  busy: boolean;
  onContinue: (step: OnboardingStep, path: string) => void;
  onFinish: () => void;
}

/**
 * The onboarding progress panel with the step indicator (SPEC §2), shown while onboarding is active.
 * Its one way out is 'Finish Onboarding' (SPEC §4: it disables onboarding). At step 3, the last one,
 * a 'Skip This Step' beside it would do exactly the same, so it is not offered (issue 18).
 */
export function OnboardingPanel({ view, busy, onContinue, onFinish }: Props) {
  const next = continueTarget(view.step);
  return (
    <Paper withBorder radius="md" p="md" mb="lg" bg="ledger.0" component="section" aria-label="Onboarding progress">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="lg">
        <Stepper
          active={stepperActive(view)}
          size="sm"
          iconSize={28}
          style={{ flex: 1 }}
          allowNextStepsSelect={false}
          aria-label="Onboarding steps"
        >
          {ONBOARDING_MAIN_STEPS.map(({ step, label }) => (
            <Stepper.Step
              key={step}
              label={`Step ${step}`}
              description={
                <Text size="sm" component="span" display="block" c="dark.6">
                  {label}
                </Text>
              }
            />
          ))}
        </Stepper>
        <Group gap="xs" wrap="nowrap">
          {next ? (
            <Button size="xs" onClick={() => onContinue(next.step, next.path)} loading={busy}>
              Continue
            </Button>
          ) : null}
          <Button size="xs" variant="subtle" onClick={onFinish} disabled={busy}>
            Finish Onboarding
          </Button>
        </Group>
      </Group>
      {/* Outside the stepper: its steps are buttons, and a link inside a button is unreachable (axe: nested-interactive). */}
      <Group gap="lg" mt="xs" aria-label="How each step works" component="nav">
        {ONBOARDING_MAIN_STEPS.map(({ step, href }) => (
          <Anchor key={step} href={href} target="_blank" rel="noopener noreferrer" size="xs">
            How step {step} works <IconExternalLink size={11} style={{ verticalAlign: "-1px" }} aria-label="(opens in a new tab)" />
          </Anchor>
        ))}
      </Group>
    </Paper>
  );
}
