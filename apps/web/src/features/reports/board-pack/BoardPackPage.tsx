import { useState } from "react";
import { Alert, Badge, Button, Group, NumberInput, Paper, Progress, Select, Skeleton, Stack, Switch, Table, TagsInput, Text, Title } from "@mantine/core";
import { IconDownload, IconPrinter, IconSend } from "@tabler/icons-react";
import type { BoardPackLayoutView, BoardPackSchedule, Company } from "@groupledger/contract";
import { localMonthOf, shiftMonth } from "@groupledger/domain";
import { useSearchParams } from "react-router";
import { messageOf } from "../../../lib/forms.ts";
import { useCompanies, useCompanyStatus, type StatusMap } from "../../companies/api.ts";
import { Failure } from "../../screens/components/Failure.tsx";
import { MonthRangeInputs } from "../../screens/components/MonthInput.tsx";
import { Screen } from "../../screens/components/Screen.tsx";
import { ReportsAreaNav } from "../components/ReportsAreaNav.tsx";
import { COMPARISONS, defaultMonth, firstBookMonth, longMonth, rangeProblem, readState, writeState, type Comparison } from "../period.ts";
import { downloadBoardPack, useBoardPack, useBoardPackSchedule, useResendConfirmation, useSaveBoardPackSchedule, useSendBoardPack } from "./api.ts";
import classes from "./BoardPackPage.module.css";

const DESCRIPTION =
  "The group's statements for a board: balance sheet and income statement with a comparison, cash flow, changes in equity, key figures, the exchange rates used and how the translation reserve was computed. The same pages as the PDF; print this page or download the PDF, and have it mailed every month.";

/** /consolidation/reports/board-pack: the board pack (issue 23), generated on the server by a background job. */
export function BoardPackPage() {
  const companies = useCompanies();
  const status = useCompanyStatus();
  return (
    <Screen title="Board pack" description={DESCRIPTION}>
      <Stack gap="md">
        <div className={classes.noPrint}>
          <ReportsAreaNav />
        </div>
        {companies.isPending || status.isPending ? <Skeleton height={360} radius="md" /> : null}
        <Failure title="The companies could not be loaded" message={companies.error?.message ?? status.error?.message} />
        {companies.data && status.data ? <BoardPackSection companies={companies.data} status={status.data} /> : null}
      </Stack>
    </Screen>
  );
}

function BoardPackSection({ companies, status }: { companies: Company[]; status: StatusMap }) {
  const parent = companies.find((c) => c.parent);
  const [params, setParams] = useSearchParams();
  const currentMonth = localMonthOf(new Date());
  const state = readState(params);
  const month = defaultMonth(companies, status, currentMonth);
  const period = state.period ?? { kind: "month" as const, from: month, to: month };
  const compare: Comparison = state.compare ?? "prior_period";
  // The same address parameters as the statements' pages, so the period goes along between them.
  const update = (from: string, to: string, c: Comparison = compare) =>
    setParams((p) => writeState(p, { kind: "custom", from, to, compare: c, view: state.view ?? "balance-sheet" }), { replace: true });
  const problem = rangeProblem(period.from, period.to);
  const { job, error } = useBoardPack(parent && !problem ? { from: period.from, to: period.to, compare } : null);
  const [saved, setSaved] = useState<{ ok: boolean; text: string } | null>(null);

  if (!parent) {
    return (
      <Alert color="gray" title="Choose a parent company first">
        The board pack is drawn up in the parent&apos;s currency and on its chart of accounts: set the parent on Connected Companies.
      </Alert>
    );
  }
  const pack = job?.pack ?? null;
  const onDownload = async () => {
    if (!pack) return;
    setSaved(null);
    try {
      setSaved({ ok: true, text: `Saved ${await downloadBoardPack(pack.id)}.` });
    } catch (e) {
      setSaved({ ok: false, text: messageOf(e) });
    }
  };
  return (
    <Stack gap="md">
      <Group align="end" gap="md" className={classes.noPrint}>
        <MonthRangeInputs
          from={period.from}
          to={period.to}
          onFrom={(m) => update(m, period.to)}
          onTo={(m) => update(period.from, m)}
          min={firstBookMonth(companies, shiftMonth(currentMonth, -36))}
          max={currentMonth}
          monthName={longMonth}
          w={170}
        />
        <Select label="Compare with" data={COMPARISONS.map((c) => ({ value: c.value, label: c.label }))} value={compare} onChange={(v) => v && update(period.from, period.to, v as Comparison)} w={240} allowDeselect={false} />
        <Button leftSection={<IconDownload size={16} aria-hidden />} disabled={!pack} onClick={() => void onDownload()} data-testid="board-pack-download">
          Download PDF
        </Button>
        <Button variant="default" leftSection={<IconPrinter size={16} aria-hidden />} disabled={!pack} onClick={() => window.print()}>
          Print
        </Button>
      </Group>
      {problem ? (
        <Text size="sm" c="red.8" role="alert">
          {problem}
        </Text>
      ) : null}
      {saved ? (
        <Text size="sm" c={saved.ok ? "teal.9" : "red.8"} role="status" className={classes.noPrint}>
          {saved.text}
        </Text>
      ) : null}
      <Failure title="The board pack could not be prepared" message={error?.message ?? (job?.state === "failed" ? (job.error ?? "The generation failed.") : undefined)} />
      {job && !pack && job.state !== "failed" ? (
        <Paper withBorder p="md" radius="md" className={classes.noPrint} data-testid="board-pack-progress">
          <Text size="sm" mb={6}>
            {job.message ?? "Waiting for a worker to start the board pack…"}
          </Text>
          <Progress value={Math.round(job.progress * 100)} animated aria-label="Board pack progress" />
        </Paper>
      ) : null}
      {pack ? <PackPages layout={pack.layout} /> : null}
      <div className={classes.noPrint}>
        <ScheduleCard month={period.to} />
      </div>
    </Stack>
  );
}

/** The pack's pages, exactly the server's text (the PDF's too). */
function PackPages({ layout }: { layout: BoardPackLayoutView }) {
  return (
    <Stack gap="xl" className={classes.pack} data-testid="board-pack">
      <Stack gap={4}>
        <Text c="dimmed" size="sm">
          Board pack
        </Text>
        <Title order={2} data-testid="board-pack-group">
          {layout.groupName}
        </Title>
        <Text size="lg">{layout.period.label}</Text>
        <Text size="xs" c="dimmed">
          Consolidated figures in {layout.currency}. Generated {layout.generatedAt.slice(0, 16).replace("T", " ")} UTC.
        </Text>
      </Stack>
      {layout.sections.map((s) => (
        <section key={s.id} className={classes.section} data-testid={`board-pack-${s.id}`} aria-label={s.title}>
          <Title order={3} mb={4}>
            {s.title}
          </Title>
          <Text size="sm" c="dimmed" mb="sm" maw={900}>
            {s.intro}
          </Text>
          {s.tables.map((t) => (
            <Table.ScrollContainer key={t.caption} minWidth={t.columns.length > 4 ? 900 : 600} mb="md">
              <Table striped={false} withTableBorder={false} verticalSpacing={3} fz="sm" aria-label={t.caption}>
                {t.caption !== s.title ? <Table.Caption style={{ captionSide: "top", textAlign: "left", fontWeight: 700 }}>{t.caption}</Table.Caption> : null}
                <Table.Thead>
                  <Table.Tr>
                    {t.columns.map((c, i) => (
                      <Table.Th key={`${c}-${i}`} ta={i === 0 ? "left" : "right"}>
                        {c}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {t.rows.map((r, i) => (
                    <Table.Tr key={`${r.label}-${i}`} className={classes.row} fw={r.kind === "line" ? undefined : 700} data-kind={r.kind}>
                      <Table.Td pl={r.kind === "line" ? "lg" : undefined}>{r.label}</Table.Td>
                      {r.cells.map((c, j) => (
                        <Table.Td key={j} ta="right" ff="monospace" style={{ whiteSpace: "nowrap" }}>
                          {c}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ))}
          {s.chart ? <Bars chart={s.chart} /> : null}
          {s.notes.map((n) => (
            <Text key={n} size="sm" fw={500}>
              {n}
            </Text>
          ))}
        </section>
      ))}
    </Stack>
  );
}

const SERIES_COLOURS = ["var(--mantine-color-blue-6)", "var(--mantine-color-gray-5)"];

/** The key figures as the PDF draws them: a bar per period, from a common zero. */
function Bars({ chart }: { chart: NonNullable<BoardPackLayoutView["sections"][number]["chart"]> }) {
  const values = chart.groups.flatMap((g) => g.values);
  const max = Math.max(1, ...values.map((v) => Math.max(0, v)));
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  return (
    <Stack gap="xs" maw={760} role="img" aria-label={`${chart.title}: ${chart.groups.map((g) => `${g.label} ${g.texts.join(" / ")}`).join("; ")}`}>
      <Group gap="md">
        {chart.series.map((s, i) => (
          <Badge key={s} color="gray" variant="light" leftSection={<span style={{ display: "inline-block", width: 10, height: 10, background: SERIES_COLOURS[i] }} />}>
            {s}
          </Badge>
        ))}
      </Group>
      {chart.groups.map((g) => (
        <Group key={g.label} gap="sm" wrap="nowrap" align="start">
          <Text size="sm" fw={600} w={110}>
            {g.label}
          </Text>
          <Stack gap={2} style={{ flex: 1 }}>
            {g.values.map((v, i) => (
              <Group key={i} gap="xs" wrap="nowrap">
                <div style={{ flex: 1, position: "relative", height: 12 }}>
                  <div
                    style={{
                      position: "absolute",
                      height: 12,
                      background: SERIES_COLOURS[i],
                      left: `${(100 * (v < 0 ? v - min : -min)) / span}%`,
                      width: `${Math.max(0.3, (100 * Math.abs(v)) / span)}%`,
                    }}
                  />
                </div>
                <Text size="xs" ff="monospace" w={130} ta="right">
                  {g.texts[i]}
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * The monthly mail (admins): on/off, the day, the recipients with each one's state (a team address,
 * confirmed, awaiting confirmation since a date with "Resend confirmation", not verified), and "Send
 * now" for the period's last month.
 */
function ScheduleCard({ month }: { month: string }) {
  const schedule = useBoardPackSchedule();
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={4} mb={4}>
        Monthly board pack by email
      </Title>
      <Text size="sm" c="dimmed" mb="sm" maw={760}>
        On the chosen day of each month (UTC) the pack of the month just ended goes to each recipient. Your team&apos;s verified addresses receive it at once. Any
        other address (a director outside GroupLedger) is first mailed a link to confirm it: nothing is sent to it until its owner confirms, and every pack
        mail has a link to unsubscribe.
      </Text>
      <Failure title="The schedule could not be loaded" message={schedule.error?.message} />
      {schedule.data ? <ScheduleForm schedule={schedule.data} month={month} /> : null}
    </Paper>
  );
}

const shortDate = (iso: string) => new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** A recipient's state in words. */
export function recipientStateLabel(r: BoardPackSchedule["recipientStatus"][number]): { label: string; color: string } {
  switch (r.state) {
    case "team":
      return { label: "Verified (your team)", color: "teal" };
    case "confirmed":
      return { label: r.since ? `Confirmed ${shortDate(r.since)}` : "Confirmed", color: "teal" };
    case "pending":
      return { label: r.since ? `Awaiting confirmation since ${shortDate(r.since)}` : "Awaiting confirmation", color: "orange" };
    default:
      return { label: "Not verified: nothing is sent", color: "red" };
  }
}

function RecipientsTable({ schedule, onRemove, removing }: { schedule: BoardPackSchedule; onRemove: (email: string) => void; removing: boolean }) {
  const resend = useResendConfirmation();
  const [resent, setResent] = useState<string | null>(null);
  if (schedule.recipientStatus.length === 0 && schedule.declined.length === 0) return null;
  return (
    <Stack gap={6}>
      {schedule.recipientStatus.length > 0 ? (
        <Table aria-label="Recipients and their state" withTableBorder verticalSpacing={6} data-testid="board-pack-recipients">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Recipient</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {schedule.recipientStatus.map((r) => {
              const { label, color } = recipientStateLabel(r);
              return (
                <Table.Tr key={r.email} data-testid={`board-pack-recipient-${r.email}`}>
                  <Table.Td>{r.email}</Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500} c={`${color}.8`}>
                      {label}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {r.state === "pending" || r.state === "unverified" ? (
                        <Button
                          size="compact-xs"
                          variant="default"
                          loading={resend.isPending && resend.variables === r.email}
                          onClick={() => resend.mutate(r.email, { onSuccess: () => setResent(`A new confirmation link was mailed to ${r.email}; the earlier one no longer works.`) })}
                        >
                          {r.state === "pending" ? "Resend confirmation" : "Send confirmation"}
                        </Button>
                      ) : null}
                      <Button size="compact-xs" variant="subtle" color="red" disabled={removing} onClick={() => onRemove(r.email)} aria-label={`Remove ${r.email}`}>
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      ) : null}
      <Failure title="Not sent" message={resend.error ? messageOf(resend.error) : undefined} />
      {resent ? (
        <Text size="sm" c="teal.9" role="status">
          {resent}
        </Text>
      ) : null}
      {schedule.declined.length > 0 ? (
        <Text size="sm" c="dimmed" data-testid="board-pack-declined">
          Declined or unsubscribed (not sent, and cannot be added again): {schedule.declined.map((d) => `${d.email} (${shortDate(d.at)})`).join(", ")}.
        </Text>
      ) : null}
    </Stack>
  );
}

function ScheduleForm({ schedule, month }: { schedule: BoardPackSchedule; month: string }) {
  const [enabled, setEnabled] = useState(schedule.enabled);
  const [day, setDay] = useState<number>(schedule.dayOfMonth);
  const [recipients, setRecipients] = useState<string[]>(schedule.recipients);
  const save = useSaveBoardPackSchedule();
  const send = useSendBoardPack();
  const [sent, setSent] = useState<string | null>(null);
  const remove = (email: string) => {
    const rest = schedule.recipients.filter((r) => r !== email);
    save.mutate({ enabled: schedule.enabled, dayOfMonth: schedule.dayOfMonth, compare: schedule.compare, recipients: rest }, { onSuccess: () => setRecipients((now) => now.filter((r) => r !== email)) });
  };
  const mailable = schedule.recipientStatus.filter((r) => r.state === "team" || r.state === "confirmed").length;
  return (
    <Stack gap="sm" maw={720}>
      <Switch label="Mail the board pack every month" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
      <NumberInput label="Day of the month" description="1 to 28, so every month has it" min={1} max={28} value={day} onChange={(v) => setDay(typeof v === "number" ? v : Number(v) || 1)} w={220} />
      <TagsInput
        label="Recipients"
        description="Your team's verified addresses, or any address: one outside your team is mailed a link to confirm it first"
        data={schedule.verifiedAddresses}
        value={recipients}
        onChange={setRecipients}
        placeholder="name@example.com"
        splitChars={[",", " ", ";"]}
        clearable
      />
      <RecipientsTable schedule={schedule} onRemove={remove} removing={save.isPending} />
      <Failure title="Not saved" message={save.error ? messageOf(save.error) : undefined} />
      <Failure title="Not sent" message={send.error ? messageOf(send.error) : undefined} />
      {save.isSuccess ? (
        <Text size="sm" c="teal.9" role="status" data-testid="board-pack-schedule-saved">
          Saved{schedule.enabled ? `: each month's pack goes out on day ${schedule.dayOfMonth} of the month after` : ""}.
          {schedule.recipientStatus.some((r) => r.state === "pending") ? " Addresses awaiting confirmation get nothing until they confirm." : ""}
        </Text>
      ) : null}
      {sent ? (
        <Text size="sm" c="teal.9" role="status" data-testid="board-pack-sent">
          {sent}
        </Text>
      ) : null}
      <Group>
        <Button loading={save.isPending} onClick={() => save.mutate({ enabled, dayOfMonth: day, recipients, compare: "prior_period" })} data-testid="board-pack-schedule-save">
          Save schedule
        </Button>
        <Button
          variant="default"
          leftSection={<IconSend size={16} aria-hidden />}
          loading={send.isPending}
          disabled={mailable === 0}
          onClick={() =>
            send.mutate(month, {
              onSuccess: (r) =>
                setSent(
                  `The pack of ${longMonth(month)} is on its way to ${r.recipients.join(", ")}.` +
                    (r.skipped.length > 0 ? ` Not sent to ${r.skipped.map((x) => `${x.email} (${x.state === "pending" ? "awaiting confirmation" : "not verified"})`).join(", ")}.` : ""),
                ),
            })
          }
          data-testid="board-pack-send"
        >
          Send {longMonth(month)} now
        </Button>
      </Group>
    </Stack>
  );
}
