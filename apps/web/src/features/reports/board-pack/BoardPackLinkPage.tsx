import { Alert, Button, Group, Skeleton, Stack, Text } from "@mantine/core";
import { boardPackLinkTokenSchema, type BoardPackInvitation, type BoardPackSubscription } from "@groupledger/contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useLocation } from "react-router";
import { messageOf } from "../../../lib/forms.ts";
import { Failure } from "../../screens/components/Failure.tsx";
import { AuthCard } from "../../session/components/AuthCard.tsx";
import { boardPackLinkApi } from "./api.ts";

/** The link's token travels in the fragment (#token=…) so it never reaches a server log; a query's is read too. */
export function boardPackTokenFrom(hash: string, search: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? new URLSearchParams(search).get("token");
  return token && boardPackLinkTokenSchema.safeParse(token).success ? token.trim() : null;
}

const INCOMPLETE = "The link is not complete. Open the link from the email again (copy the whole address if it was split over two lines).";
const WHAT =
  "a PDF of the group's consolidated balance sheet, income statement, cash flow, changes in equity, key figures, the exchange rates used and the translation reserve";

function Dead({ title, message }: { title: string; message: string }) {
  return (
    <AuthCard title={title}>
      <Alert color="orange" role="alert">
        {message}
      </Alert>
    </AuthCard>
  );
}

/**
 * /board-pack/confirm#token=…: an address chosen for a group's board pack, confirmed (or declined)
 * by its owner. Opening the page only looks the link up; the buttons answer it.
 */
export function BoardPackConfirmPage() {
  const location = useLocation();
  const token = boardPackTokenFrom(location.hash, location.search);
  const lookup = useQuery({ queryKey: ["board-pack-confirmation", token], queryFn: () => boardPackLinkApi.lookup(token!), enabled: token !== null, retry: false, staleTime: Infinity });
  const answer = useMutation({ mutationFn: (yes: boolean) => (yes ? boardPackLinkApi.confirm(token!) : boardPackLinkApi.decline(token!)) });
  if (token === null) return <Dead title="This link cannot be used" message={INCOMPLETE} />;
  if (lookup.isError) return <Dead title="This link cannot be used" message={messageOf(lookup.error)} />;
  if (lookup.isPending) {
    return (
      <AuthCard title="Board pack by email">
        <Skeleton height={180} />
      </AuthCard>
    );
  }
  const p: BoardPackInvitation = answer.data ?? lookup.data;
  if (p.state === "confirmed") {
    return (
      <AuthCard title="Address confirmed">
        <Alert color="teal" role="status" data-testid="board-pack-confirmed">
          {p.email} now receives the board pack of {p.groupName} on day {p.dayOfMonth} of each month. Each email has a link to unsubscribe.
        </Alert>
      </AuthCard>
    );
  }
  if (p.state === "declined") {
    return (
      <AuthCard title="Declined">
        <Alert color="gray" role="status" data-testid="board-pack-declined">
          Nothing will be sent to {p.email}: it is off the board pack of {p.groupName}, and the group&apos;s admins cannot add it back.
        </Alert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Receive ${p.groupName}'s board pack?`}>
      <Stack gap="md">
        <Text size="sm">
          {p.requestedBy ? `${p.requestedBy}, an admin of ${p.groupName} on GroupLedger,` : `An admin of ${p.groupName} on GroupLedger`} chose <strong>{p.email}</strong> to
          receive the group&apos;s monthly board pack by email: {WHAT}, mailed on day {p.dayOfMonth} of each month.
        </Text>
        <Text size="sm" c="dimmed">
          Nothing is sent to this address unless you confirm.{p.expiresAt ? ` This link works until ${new Date(p.expiresAt).toUTCString().slice(5, 22)} UTC.` : ""}
        </Text>
        <Failure title="Not answered" message={answer.error ? messageOf(answer.error) : undefined} />
        <Group>
          <Button loading={answer.isPending && answer.variables === true} disabled={answer.isPending} onClick={() => answer.mutate(true)} data-testid="board-pack-confirm">
            Confirm
          </Button>
          <Button variant="default" loading={answer.isPending && answer.variables === false} disabled={answer.isPending} onClick={() => answer.mutate(false)}>
            No, thanks
          </Button>
        </Group>
      </Stack>
    </AuthCard>
  );
}

/** /board-pack/unsubscribe#token=…: the link in each pack mail; the button takes the address off the group's board pack. */
export function BoardPackUnsubscribePage() {
  const location = useLocation();
  const token = boardPackTokenFrom(location.hash, location.search);
  const lookup = useQuery({ queryKey: ["board-pack-subscription", token], queryFn: () => boardPackLinkApi.subscription(token!), enabled: token !== null, retry: false, staleTime: Infinity });
  const stop = useMutation({ mutationFn: () => boardPackLinkApi.unsubscribe(token!) });
  if (token === null) return <Dead title="This link cannot be used" message={INCOMPLETE} />;
  if (lookup.isError) return <Dead title="This link cannot be used" message={messageOf(lookup.error)} />;
  if (lookup.isPending) {
    return (
      <AuthCard title="Board pack by email">
        <Skeleton height={140} />
      </AuthCard>
    );
  }
  const s: BoardPackSubscription = stop.data ?? lookup.data;
  if (!s.subscribed) {
    return (
      <AuthCard title="Unsubscribed">
        <Alert color="gray" role="status" data-testid="board-pack-unsubscribed">
          {s.email} no longer receives the board pack of {s.groupName}.
        </Alert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Stop receiving ${s.groupName}'s board pack?`}>
      <Stack gap="md">
        <Text size="sm">
          <strong>{s.email}</strong> receives the monthly board pack of {s.groupName}. Unsubscribe, and nothing more is sent to it.
        </Text>
        <Failure title="Not unsubscribed" message={stop.error ? messageOf(stop.error) : undefined} />
        <Group>
          <Button color="red" loading={stop.isPending} onClick={() => stop.mutate()} data-testid="board-pack-unsubscribe">
            Unsubscribe
          </Button>
        </Group>
      </Stack>
    </AuthCard>
  );
}
