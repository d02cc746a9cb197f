import { Tabs } from "@mantine/core";
import { IconCreditCard, IconShieldLock, IconUser, IconUsers } from "@tabler/icons-react";
import { useSearchParams } from "react-router";
import { SubscriptionSection } from "../../billing/components/SubscriptionSection.tsx";
import { Screen } from "../../screens/components/Screen.tsx";
import { TeamSection } from "../../team/components/TeamSection.tsx";
import { ProfileSection } from "./ProfileSection.tsx";
import { SecuritySection } from "./SecuritySection.tsx";

const TABS = ["profile", "security", "team", "subscription"] as const;
type Tab = (typeof TABS)[number];

/** /settings: the signed-in user's profile and security, the account's team and subscription. ?tab= keeps the section in the URL. */
export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: Tab = (TABS as readonly string[]).includes(requested ?? "") ? (requested as Tab) : "profile";
  return (
    <Screen title="Account Settings" description="Your profile and sign-in, the people on your account, and your subscription." maw={1000}>
      <Tabs value={tab} onChange={(v) => setParams(v && v !== "profile" ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="profile" leftSection={<IconUser size={16} aria-hidden />}>
            Profile
          </Tabs.Tab>
          <Tabs.Tab value="security" leftSection={<IconShieldLock size={16} aria-hidden />}>
            Security
          </Tabs.Tab>
          <Tabs.Tab value="team" leftSection={<IconUsers size={16} aria-hidden />}>
            Team
          </Tabs.Tab>
          <Tabs.Tab value="subscription" leftSection={<IconCreditCard size={16} aria-hidden />}>
            Subscription
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <ProfileSection />
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <SecuritySection />
        </Tabs.Panel>
        <Tabs.Panel value="team">
          <TeamSection />
        </Tabs.Panel>
        <Tabs.Panel value="subscription">
          <SubscriptionSection />
        </Tabs.Panel>
      </Tabs>
    </Screen>
  );
}
