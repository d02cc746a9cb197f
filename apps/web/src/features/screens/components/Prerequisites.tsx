import { List, Text, ThemeIcon } from "@mantine/core";
import { IconCheck, IconCircleDashed } from "@tabler/icons-react";
import type { NavFacts, NavRequirements } from "../../navigation/enabling.ts";

interface Prerequisite {
  label: string;
  met: boolean;
}

/** The requirement flags of a screen as a checklist against the account's real state. */
export function prerequisites(req: NavRequirements, facts: NavFacts): Prerequisite[] {
  const out: Prerequisite[] = [];
  if (req.requireCompanies) out.push({ label: "At least one company connected", met: facts.hasParent || facts.hasSubsidiary });
  if (req.requireParent) out.push({ label: "A parent company connected", met: facts.hasParent });
  if (req.requireSubsidiary) out.push({ label: "At least one subsidiary connected", met: facts.hasSubsidiary });
  if (req.requireForeignCurrency) {
    out.push({ label: "A subsidiary that keeps its books in another currency than the parent", met: facts.foreignCurrency });
  }
  if (req.requireOnboardingStep !== undefined) {
    out.push({
      label: `Onboarding at step ${req.requireOnboardingStep} or finished`,
      met: !facts.onboarding || facts.onboardingStep >= req.requireOnboardingStep,
    });
  }
  if (req.requireOnboardingComplete) out.push({ label: "Onboarding finished", met: !facts.onboarding });
  if (req.requireOBALConfigured) out.push({ label: "Opening balance period set", met: facts.obalConfigured });
  return out;
}

export function PrerequisiteList({ items }: { items: Prerequisite[] }) {
  return (
    <List spacing="xs" center aria-label="Before you start">
      {items.map((p) => (
        <List.Item
          key={p.label}
          icon={
            <ThemeIcon size={22} radius="xl" color={p.met ? "teal" : "gray"} variant={p.met ? "filled" : "light"}>
              {p.met ? <IconCheck size={14} aria-hidden /> : <IconCircleDashed size={14} aria-hidden />}
            </ThemeIcon>
          }
        >
          <Text size="sm" c={p.met ? "dark" : "dimmed"}>
            {p.label}
            <Text span size="xs" c={p.met ? "teal.9" : "dimmed"} ml={6}>
              {p.met ? "Done" : "To do"}
            </Text>
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
