import { AppShell, Burger, Group, ScrollArea, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import type { AccountPatch } from "@groupledger/contract";
import { RELEASE_NOTES_VERSION } from "@groupledger/domain";
import { Suspense, useEffect, useRef, useState } from "react";
import { Outlet, useNavigate } from "react-router";
import { ScreenLoader } from "../../../app/Root.tsx";
import { useAcknowledgeReleaseNotes, usePatchAccount } from "../../account/api.ts";
import { ReleaseNotesModal } from "../../account/components/ReleaseNotesModal.tsx";
import { releaseNotesAction } from "../../account/releaseNotes.ts";
import { usePublicConfig } from "../../config/api.ts";
import { IdleDialog } from "../../idle/components/IdleDialog.tsx";
import { useIdle } from "../../idle/useIdle.ts";
import { SideNav } from "../../navigation/components/SideNav.tsx";
import { screensHeldByOnboarding } from "../../navigation/navItems.ts";
import { useReauthorizationAlert } from "../../companies/reauthorization.ts";
import { FirstCompanyModal } from "../../onboarding/components/FirstCompanyModal.tsx";
import { OnboardingPanel } from "../../onboarding/components/OnboardingPanel.tsx";
import { WelcomeOverlay } from "../../onboarding/components/WelcomeOverlay.tsx";
import { GET_STARTED, onboardingView } from "../../onboarding/flow.ts";
import { useCompaniesStep } from "../../onboarding/useCompaniesStep.ts";
import { useContinueOnboarding } from "../../onboarding/useContinueOnboarding.ts";
import { useSessionUser } from "../../session/api.ts";
import { useShellData } from "../useShellData.ts";
import { Logo } from "./Logo.tsx";
import { TrialBadge } from "../../billing/components/TrialBadge.tsx";
import { UserMenu } from "./UserMenu.tsx";

/** Runs the idle timer only once the timeout is known, so a shortened test timeout is never missed. */
function IdleGuard({ timeoutMs }: { timeoutMs: number }) {
  const navigate = useNavigate();
  const idle = useIdle(timeoutMs, () => void navigate("/logout?autoLogout=true"));
  return (
    <IdleDialog
      opened={idle.open}
      logoutAt={idle.logoutAt}
      onStay={idle.close}
      onLogout={() => {
        idle.close();
        void navigate("/logout");
      }}
    />
  );
}

/** The authenticated frame (SPEC §2 Layout elements): header, side navigation, onboarding, dialogs. */
export function AppLayout() {
  const [navOpened, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const navigate = useNavigate();
  const user = useSessionUser();
  const config = usePublicConfig();
  const { account, companies, status, facts } = useShellData();
  const patchAccount = usePatchAccount();
  const continueOnboarding = useContinueOnboarding();
  const companiesStep = useCompaniesStep(account.data, companies.data, status.data);
  useReauthorizationAlert(status.data);
  const acknowledge = useAcknowledgeReleaseNotes();
  const [releaseNotesDismissed, setReleaseNotesDismissed] = useState(false);
  const autoAcknowledged = useRef(false);

  const view = onboardingView(account.data);
  const notes =
    user.data && account.data ? releaseNotesAction(user.data.releaseNotesVersion, account.data.onboarding) : "none";

  // SPEC §4: while onboarding, the release notes are taken as read at once.
  useEffect(() => {
    if (notes === "acknowledge" && !autoAcknowledged.current) {
      autoAcknowledged.current = true;
      acknowledge.mutate(RELEASE_NOTES_VERSION);
    }
  }, [notes, acknowledge]);

  const setOnboarding = (patch: AccountPatch, then?: string) =>
    patchAccount.mutate(patch, {
      onSuccess: () => {
        if (then) void navigate(then);
      },
    });
  const finishOnboarding = () => setOnboarding({ onboarding: false });

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 264, breakpoint: "sm", collapsed: { mobile: !navOpened } }}
      padding="lg"
      styles={{ main: { background: "var(--mantine-color-gray-0)" } }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpened} onClick={toggleNav} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Logo />
          </Group>
          <Group gap="md" wrap="nowrap">
            <TrialBadge />
            <UserMenu email={user.data?.email} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" onClick={closeNav}>
        <AppShell.Section grow component={ScrollArea}>
          <SideNav facts={facts} />
        </AppShell.Section>
        <AppShell.Section pt="sm" style={{ borderTop: "1px solid var(--mantine-color-gray-2)" }}>
          <Text size="xs" c="dimmed" px="xs">
            {account.data?.name ?? "\u00a0"}
          </Text>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        {view.active && !view.showWelcome ? (
          <OnboardingPanel
            view={view}
            busy={patchAccount.isPending || continueOnboarding.busy}
            onContinue={continueOnboarding.go}
            onFinish={finishOnboarding}
          />
        ) : null}
        <Suspense fallback={<ScreenLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <WelcomeOverlay
        opened={view.showWelcome}
        busy={patchAccount.isPending}
        unlocks={screensHeldByOnboarding(facts)}
        onGetStarted={() => setOnboarding({ onboardingStep: GET_STARTED.step }, GET_STARTED.path)}
        onSkip={finishOnboarding}
      />
      <ReleaseNotesModal
        opened={notes === "open" && !releaseNotesDismissed && !view.showWelcome}
        busy={acknowledge.isPending}
        onAcknowledge={() => acknowledge.mutate(RELEASE_NOTES_VERSION)}
        onClose={() => setReleaseNotesDismissed(true)}
      />
      <FirstCompanyModal
        opened={companiesStep.firstCompanyModal && !view.showWelcome}
        company={companies.data?.find((c) => c.realmId === companiesStep.firstCompany) ?? null}
        onContinue={companiesStep.closeFirstCompanyModal}
      />
      {config.data ? <IdleGuard timeoutMs={config.data.idleTimeoutMs} /> : null}
    </AppShell>
  );
}
