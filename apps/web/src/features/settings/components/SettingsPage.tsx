import { Tabs } from "@mantine/core";
import { IconCreditCard, IconShieldLock, IconUser, IconUsers, type Icon } from "@tabler/icons-react";
import type { ComponentType } from "react";
import { useSearchParams } from "react-router";
import { SubscriptionSection } from "../../billing/components/SubscriptionSection.tsx";
import { Screen } from "../../screens/components/Screen.tsx";
import { TeamSection } from "../../team/components/TeamSection.tsx";
import { ProfileSection } from "./ProfileSection.tsx";
import { SecuritySection } from "./SecuritySection.tsx";

/** The sections, in the tabs' order: the ?tab= value, the tab's label and icon, what it shows. */
const TABS = [
  { value: "profile", label: "Profile", icon: IconUser, Section: ProfileSection },
  { value: "security", label: "Security", icon: IconShieldLock, Section: SecuritySection },
  { value: "team", label: "Team", icon: IconUsers, Section: TeamSection },
  { value: "subscription", label: "Subscription", icon: IconCreditCard, Section: SubscriptionSection },
] as const satisfies readonly { value: string; label: string; icon: Icon; Section: ComponentType }[];
type Tab = (typeof TABS)[number]["value"];

/** /settings: the signed-in user's profile and security, the account's team and subscription. ?tab= keeps the section in the URL. */
export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: Tab = TABS.find((t) => t.value === requested)?.value ?? "profile";
  return (
    <Screen title="Account Settings" description="Your profile and sign-in, the people on your account, and your subscription." maw={1000}>
      <Tabs value={tab} onChange={(v) => setParams(v && v !== "profile" ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="lg">
          {TABS.map(({ value, label, icon: TabIcon }) => (
            <Tabs.Tab key={value} value={value} leftSection={<TabIcon size={16} aria-hidden />}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map(({ value, Section }) => (
          <Tabs.Panel key={value} value={value}>
            <Section />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Screen>
  );
}
