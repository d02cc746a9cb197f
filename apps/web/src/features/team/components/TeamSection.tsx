import { ActionIcon, Alert, Badge, Button, Group, Menu, Paper, Select, Skeleton, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { PERMISSION_DESCRIPTIONS, PERMISSION_LABELS, isAdmin, type PermissionLevel, type TeamMember } from "@groupledger/contract";
import { emailSchema } from "@groupledger/domain";
import { IconDots, IconMailForward, IconTrash, IconUserPlus, IconX } from "@tabler/icons-react";
import { useState } from "react";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { Saved } from "../../settings/components/Saved.tsx";
import { useSessionUser } from "../../session/api.ts";
import { teamApi, useTeam, useTeamMutation } from "../api.ts";
import { GroupNameCard } from "./GroupNameForm.tsx";
import { TipAction } from "../../screens/components/TipAction.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";

const LEVEL_OPTIONS = ([0, 1] as const).map((l) => ({ value: String(l), label: PERMISSION_LABELS[l] }));
const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });

function InviteForm() {
  const invite = useTeamMutation((v: { email: string; level: PermissionLevel }) => teamApi.invite(v.email, v.level));
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: "", level: "0" },
    validate: { email: (v) => (emailSchema.safeParse(v).success ? null : "Please enter a valid email.") },
  });
  const submit = form.onSubmit((values) => {
    setSent(null);
    invite.mutate(
      { email: emailSchema.parse(values.email), level: Number(values.level) as PermissionLevel },
      {
        onSuccess: (inv) => {
          form.reset();
          setSent(`Invitation sent: ${inv.email} can join with the link we emailed them.`);
        },
        onError: (err) => {
          const fields = err instanceof ApiError ? err.fieldErrors() : {};
          form.setFieldError("email", fields["email"] ?? messageOf(err));
        },
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Invite a colleague">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput label="Colleague's email" placeholder="name@firm.com" style={{ flex: 1, minWidth: 240 }} {...form.getInputProps("email")} />
        <Select label="Level" data={LEVEL_OPTIONS} allowDeselect={false} w={140} {...form.getInputProps("level")} />
        <Button type="submit" mt={25} leftSection={<IconUserPlus size={16} aria-hidden />} loading={invite.isPending}>
          Send invitation
        </Button>
      </Group>
      <Text size="xs" c="dimmed" mt={6}>
        {PERMISSION_LABELS[0]}: {PERMISSION_DESCRIPTIONS[0]} {PERMISSION_LABELS[1]}: {PERMISSION_DESCRIPTIONS[1]}
      </Text>
      <Saved>{sent}</Saved>
    </form>
  );
}

function MemberRow({ member, canManage, onError }: { member: TeamMember; canManage: boolean; onError: (message: string) => void }) {
  const setLevel = useTeamMutation((level: PermissionLevel) => teamApi.setLevel(member.id, level));
  const remove = useTeamMutation(() => teamApi.remove(member.id));
  const fail = (err: unknown) => onError(messageOf(err));
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500} component="div">
          {member.name || member.email} {member.isYou ? <Badge size="xs" variant="light" component="span">You</Badge> : null}
        </Text>
        {member.name ? (
          <Text size="xs" c="dimmed">
            {member.email}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        {canManage ? (
          <Select
            aria-label={`Level of ${member.email}`}
            data={LEVEL_OPTIONS}
            value={String(member.permissionLevel)}
            allowDeselect={false}
            w={130}
            size="xs"
            disabled={setLevel.isPending}
            onChange={(v) => v !== null && setLevel.mutate(Number(v) as PermissionLevel, { onError: fail })}
          />
        ) : (
          <Badge variant={isAdmin(member) ? "filled" : "light"}>{PERMISSION_LABELS[member.permissionLevel as PermissionLevel] ?? "Member"}</Badge>
        )}
      </Table.Td>
      <Table.Td>{day(member.joinedAt)}</Table.Td>
      <Table.Td ta="right">
        {canManage ? (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${member.email}`} loading={remove.isPending}>
                <IconDots size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => remove.mutate(undefined, { onError: fail })}>
                {member.isYou ? "Leave the account" : "Remove from the account"}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

/** Account Settings → Team: who can sign in, at which level, and pending invitations. */
export function TeamSection() {
  const team = useTeam();
  const me = useSessionUser();
  const canManage = isAdmin(me.data);
  const [error, setError] = useState<string | null>(null);
  const resend = useTeamMutation(teamApi.resend);
  const revoke = useTeamMutation(teamApi.revoke);
  if (team.isPending) return <Skeleton height={220} radius="md" />;
  if (team.isError) return <Alert color="red">{messageOf(team.error)}</Alert>;
  const { members, invitations } = team.data;

  return (
    <Stack gap="lg">
      {error ? (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setError(null)} closeButtonLabel="Dismiss">
          {error}
        </Alert>
      ) : null}
      <GroupNameCard />
      {canManage ? (
        <Paper withBorder radius="md" p="lg" bg="white">
          <Title order={3} size="h4" mb="sm">
            Invite a colleague
          </Title>
          <InviteForm />
        </Paper>
      ) : (
        <Alert color="gray" variant="light">
          You are a member. Only an admin can invite people, change levels or remove members.
        </Alert>
      )}
      <Paper withBorder radius="md" bg="white" style={{ overflow: "hidden" }}>
        <HeadedTable verticalSpacing="sm" horizontalSpacing="md" aria-label="Team members" columns={["Member", "Level", "Joined", null]}>
          {members.map((m) => (
            <MemberRow key={m.id} member={m} canManage={canManage} onError={setError} />
          ))}
        </HeadedTable>
      </Paper>
      {invitations.length > 0 ? (
        <Paper withBorder radius="md" bg="white" style={{ overflow: "hidden" }}>
          <HeadedTable verticalSpacing="sm" horizontalSpacing="md" aria-label="Pending invitations" columns={["Invited", "Level", "Link", null]}>
            {invitations.map((inv) => (
              <Table.Tr key={inv.id}>
                <Table.Td>
                  <Text size="sm">{inv.email}</Text>
                  <Text size="xs" c="dimmed">
                    {inv.invitedBy ? `by ${inv.invitedBy}, ` : ""}sent {inv.sendCount === 1 ? "once" : `${inv.sendCount} times`}
                  </Text>
                </Table.Td>
                <Table.Td>{PERMISSION_LABELS[inv.permissionLevel as PermissionLevel] ?? "Member"}</Table.Td>
                <Table.Td>
                  {inv.expired ? (
                    <Badge color="orange" variant="light">
                      Expired {day(inv.expiresAt)}
                    </Badge>
                  ) : (
                    <Text size="sm">Works until {day(inv.expiresAt)}</Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  {canManage ? (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <TipAction tip="Send again with a new link" label={`Resend the invitation to ${inv.email}`} onClick={() => resend.mutate(inv.id, { onError: (e) => setError(messageOf(e)) })}>
                        <IconMailForward size={18} aria-hidden />
                      </TipAction>
                      <TipAction tip="Revoke: the link stops working" label={`Revoke the invitation to ${inv.email}`} color="red" onClick={() => revoke.mutate(inv.id, { onError: (e) => setError(messageOf(e)) })}>
                        <IconX size={18} aria-hidden />
                      </TipAction>
                    </Group>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </HeadedTable>
        </Paper>
      ) : null}
    </Stack>
  );
}
