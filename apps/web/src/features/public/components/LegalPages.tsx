import { Container, List, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

const UPDATED = "Last updated: 1 October 2026";

function LegalPage({ title, intro, sections }: { title: string; intro: string; sections: { heading: string; body: ReactNode }[] }) {
  return (
    <Container size={780} py={56}>
      <Paper withBorder radius="md" p={{ base: "lg", md: 40 }} bg="white">
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1}>{title}</Title>
            <Text size="sm" c="dimmed">
              {UPDATED}
            </Text>
          </Stack>
          <Text>{intro}</Text>
          {sections.map((s) => (
            <Stack key={s.heading} gap={6} component="section">
              <Title order={2} size="h4">
                {s.heading}
              </Title>
              <Text component="div" size="sm" c="dark.6" lh={1.6}>
                {s.body}
              </Text>
            </Stack>
          ))}
        </Stack>
      </Paper>
    </Container>
  );
}

/** /privacy: what we keep and why, in plain words. */
export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro="GroupLedger processes your group's accounting data only to consolidate it for you. This page says what we keep, why, and for how long."
      sections={[
        {
          heading: "What we collect",
          body: (
            <List size="sm" spacing={4}>
              <List.Item>Your account: email address, a securely hashed password, and when you signed in.</List.Item>
              <List.Item>Your companies' data read from QuickBooks Online: chart of accounts, balances and transactions needed for a consolidation.</List.Item>
              <List.Item>What you set up: mappings, exchange rates, eliminations and consolidation results.</List.Item>
              <List.Item>An audit log of sign-ins and changes to your account, kept for your security.</List.Item>
            </List>
          ),
        },
        {
          heading: "How we use it",
          body: "To run the consolidations you ask for, to post the journal entries you approve, to keep your account secure and to answer support requests. We do not sell your data and we do not use it for advertising.",
        },
        {
          heading: "QuickBooks access",
          body: "Connection tokens are encrypted at rest. We only write to QuickBooks when you post a consolidation. You can revoke our access from QuickBooks at any time.",
        },
        {
          heading: "Service providers",
          body: "We use a hosting provider, an email provider and an error-reporting service, each bound by a data-processing agreement. Analytics, if enabled, record page views without the contents of your books.",
        },
        {
          heading: "Retention and deletion",
          body: "We keep your data while your account is open and for 90 days after it closes, then delete it. You can ask for a copy or for deletion at any time through Support.",
        },
        {
          heading: "Your rights",
          body: "Depending on where you live, you may have the right to access, correct, export or delete your personal data, and to complain to a data-protection authority. Contact Support and we will answer within 30 days.",
        },
      ]}
    />
  );
}

/** /terms: the agreement in plain words. */
export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      intro="These terms are the agreement between you (and the organization you sign up for) and GroupLedger. By creating an account you accept them."
      sections={[
        {
          heading: "The service",
          body: "GroupLedger connects to your QuickBooks Online companies and helps you consolidate them. It is a tool for qualified accounting staff; you remain responsible for your financial statements and for reviewing entries before you post them.",
        },
        {
          heading: "Your account",
          body: "Keep your password to yourself and tell us at once if you think someone else has used your account. You may only connect companies you are authorized to access.",
        },
        {
          heading: "Trial, plans and billing",
          body: "The free trial lasts 30 days. After that, a paid plan is billed monthly per group, in advance. You can cancel at any time; the plan then runs until the end of the month already paid.",
        },
        {
          heading: "Your data",
          body: "Your data remains yours. We use it only to provide the service, as described in the Privacy Policy. You can export your results at any time.",
        },
        {
          heading: "Availability and changes",
          body: "We aim for the service to be available around the clock and announce planned maintenance in advance. We may improve the service; if we remove something you rely on, we will tell you at least 30 days ahead.",
        },
        {
          heading: "Liability",
          body: "To the extent the law allows, our total liability is limited to the fees you paid in the 12 months before the claim. We are not liable for indirect losses.",
        },
      ]}
    />
  );
}
