import { Alert, Button, Group, Modal, Popover, Select, Stack, Switch, Text, TextInput } from "@mantine/core";
import type { CompanyAccount, CompanyMap } from "@groupledger/contract";
import { chartMappingProblem } from "@groupledger/domain";
import { IconAlertTriangle, IconArrowsJoin, IconChecks, IconSearch, IconTrash, IconUnlink } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { ApiError } from "../../../lib/http.ts";
import { useMapChange, type MapChange, type Suggestions } from "../api.ts";
import { acceptAllSplit, accountLabel, buildRows, chartAccount, filterRows, NO_FILTERS, rowErrors, type RowFilters } from "../model.ts";
import { BalanceBasis } from "./BalanceBasis.tsx";
import { MappingGrid } from "./MappingGrid.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

interface Props {
  realmId: string;
  companyName: string;
  accounts: readonly CompanyAccount[];
  parents: readonly CompanyAccount[];
  map: CompanyMap | undefined;
  suggestions: Suggestions | undefined;
  gridHeight?: number;
}

type Feedback = { kind: "done" | "failed"; text: string };

const unique = (xs: string[]) => [...new Set(xs)].sort((a, b) => a.localeCompare(b));

/** Suggestions "Accept all" leaves alone: a person decides those. */
const reviewText = (n: number) => `${n} low-confidence ${n === 1 ? "suggestion" : "suggestions"} left for review`;

/** Parent accounts every selected account may map to (same classification, no chartMappingProblem). */
function commonTargets(selected: readonly CompanyAccount[], parents: readonly CompanyAccount[]) {
  const classes = unique(selected.map((a) => a.classification));
  if (classes.length !== 1) return { classes, options: [] as { value: string; label: string }[] };
  const subs = selected.map(chartAccount);
  const options = parents
    .filter((p) => p.classification === classes[0] && subs.every((s) => chartMappingProblem(s, chartAccount(p)) === null))
    .map((p) => ({ value: p.Id, label: accountLabel(p) }))
    .sort((a, b) => a.label.localeCompare(b.label, "en", { numeric: true }));
  return { classes, options };
}

/** One subsidiary's mapping: filters, bulk actions, the invalid-maps banner and the grid. */
/** A filter of the grid: "all" (named `allLabel`) or one of `values`, never empty. */
function FilterSelect({
  w,
  label,
  allLabel,
  values,
  value,
  searchable = false,
  onChange,
}: {
  w: number;
  label: string;
  allLabel: string;
  values: readonly string[];
  value: string;
  searchable?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <Select
      size="xs"
      w={w}
      label={label}
      data={[{ value: "all", label: allLabel }, ...values.map((v) => ({ value: v, label: v }))]}
      value={value}
      allowDeselect={false}
      searchable={searchable}
      onChange={(v) => onChange(v ?? "all")}
    />
  );
}

export function MappingWorkspace({ realmId, companyName, accounts, parents, map, suggestions, gridHeight }: Props) {
  const change = useMapChange(realmId);
  const [filters, setFilters] = useState<RowFilters>(NO_FILTERS);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [multiOpen, setMultiOpen] = useState(false);
  const [multiTarget, setMultiTarget] = useState<string | null>(null);

  const rows = useMemo(() => buildRows(accounts, map, suggestions), [accounts, map, suggestions]);
  // A company that keeps account numbers off (QuickBooks' default) is mapped by name.
  const numbered = useMemo(() => accounts.some((a) => a.acctNum), [accounts]);
  const shown = useMemo(() => filterRows(rows, filters), [rows, filters]);
  const byId = useMemo(() => new Map(accounts.map((a) => [a.Id, a])), [accounts]);
  const classes = useMemo(() => unique(accounts.map((a) => a.classification)), [accounts]);
  const types = useMemo(
    () => unique(accounts.filter((a) => filters.classification === "all" || a.classification === filters.classification).map((a) => a.accountType)),
    [accounts, filters.classification],
  );
  const { accept: acceptable, review } = acceptAllSplit(shown);
  const selectedAccounts = [...selected].map((id) => byId.get(id)).filter((a): a is CompanyAccount => a !== undefined);
  const selectedMapped = selectedAccounts.filter((a) => map?.map[a.Id] !== undefined);
  const targets = useMemo(() => commonTargets(selectedAccounts, parents), [selectedAccounts, parents]);
  const invalid = map?.invalid ?? [];

  const run = (c: MapChange, done: string, after?: () => void) =>
    change.mutate(c, {
      onSuccess: () => {
        setErrors({});
        setFeedback({ kind: "done", text: done });
        after?.();
      },
      onError: (error) => {
        const perRow = error instanceof ApiError ? rowErrors(error.fieldErrors()) : {};
        setErrors(perRow);
        const n = Object.keys(perRow).length;
        setFeedback({ kind: "failed", text: n > 1 ? `${error.message} The reasons are shown next to the ${n} accounts.` : error.message });
      },
    });

  const mapOne = (subId: string, parentId: string) => {
    const sub = byId.get(subId);
    const p = parents.find((a) => a.Id === parentId);
    run({ kind: "map", map: { [subId]: parentId } }, `${sub ? accountLabel(sub) : subId} now maps to ${p ? accountLabel(p) : parentId}.`);
  };
  const unmapOne = (subId: string) => {
    const sub = byId.get(subId);
    run({ kind: "unmap", accountIds: [subId] }, `${sub ? accountLabel(sub) : subId} is no longer mapped.`);
  };
  const acceptAll = () =>
    run(
      { kind: "map", map: Object.fromEntries(acceptable.map((r) => [r.account.Id, r.suggestion?.parentAccountId ?? ""])) },
      `${acceptable.length} suggested ${acceptable.length === 1 ? "map was" : "maps were"} accepted.` +
        (review.length > 0 ? ` ${reviewText(review.length)}: the reason is beside each.` : ""),
    );
  const multimap = () => {
    if (!multiTarget) return;
    const p = parents.find((a) => a.Id === multiTarget);
    run(
      { kind: "multimap", map: { [multiTarget]: [...selected] } },
      `${selected.size} ${selected.size === 1 ? "account now maps" : "accounts now map"} to ${p ? accountLabel(p) : multiTarget}.`,
      () => {
        setSelected(new Set());
        setMultiOpen(false);
        setMultiTarget(null);
      },
    );
  };
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = (select: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const r of shown) {
        if (select) next.add(r.account.Id);
        else next.delete(r.account.Id);
      }
      return next;
    });
  const setFilter = <K extends keyof RowFilters>(key: K, value: RowFilters[K]) => setFilters((f) => ({ ...f, [key]: value }));

  return (
    <Stack gap="sm">
      {invalid.length > 0 ? (
        <Alert color="orange" radius="md" icon={<IconAlertTriangle size={18} />} title={`${invalid.length} ${invalid.length === 1 ? "map" : "maps"} of ${companyName} cannot be used`} role="alert" data-testid="invalid-maps">
          <Stack gap={4}>
            {invalid.slice(0, 3).map((i) => {
              const a = byId.get(i.accountId);
              return (
                <Text size="sm" key={i.accountId}>
                  <b>{a ? accountLabel(a) : `Account ${i.accountId}`}</b>: {i.reason}
                </Text>
              );
            })}
            {invalid.length > 3 ? <Text size="sm">…and {invalid.length - 3} more, marked in the grid.</Text> : null}
            <Group mt={4}>
              <Button
                size="xs"
                color="orange"
                loading={change.isPending && change.variables.kind === "unmapInvalid"}
                disabled={change.isPending}
                onClick={() =>
                  run(
                    { kind: "unmapInvalid", accountIds: invalid.map((i) => i.accountId) },
                    `${invalid.length} invalid ${invalid.length === 1 ? "map was" : "maps were"} removed; map those accounts again.`,
                  )
                }
              >
                Unmap invalid maps
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}

      {feedback ? (
        <Alert
          color={feedback.kind === "done" ? "teal" : "red"}
          radius="md"
          withCloseButton
          closeButtonLabel="Dismiss message"
          onClose={() => setFeedback(null)}
          role={feedback.kind === "done" ? "status" : "alert"}
          py={8}
        >
          {feedback.text}
        </Alert>
      ) : null}

      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          size="xs"
          w={240}
          label="Search"
          placeholder="Number, name or type"
          leftSection={<IconSearch size={14} aria-hidden />}
          value={filters.search}
          onChange={(e) => setFilter("search", e.currentTarget.value)}
        />
        <FilterSelect
          w={150}
          label="Classification"
          allLabel="All"
          values={classes}
          value={filters.classification}
          onChange={(v) => setFilters((f) => ({ ...f, classification: v, accountType: "all" }))}
        />
        <FilterSelect w={200} label="Type" allLabel="All types" values={types} value={filters.accountType} searchable onChange={(v) => setFilter("accountType", v)} />
        <Switch
          size="sm"
          mb={6}
          label="Unmapped only"
          checked={filters.unmappedOnly}
          onChange={(e) => setFilter("unmappedOnly", e.currentTarget.checked)}
        />
      </Group>

      <Group gap="xs" justify="space-between">
        <Group gap="xs">
          <Button size="xs" leftSection={<IconChecks size={16} aria-hidden />} disabled={acceptable.length === 0 || change.isPending} onClick={acceptAll}>
            Accept all suggestions{acceptable.length > 0 ? ` (${acceptable.length})` : ""}
          </Button>
          {review.length > 0 ? (
            <Text size="xs" c="orange.8" data-testid="review-count">
              {reviewText(review.length)}
            </Text>
          ) : null}
          <Popover opened={multiOpen} onChange={setMultiOpen} position="bottom-start" width={380} shadow="md" trapFocus withinPortal>
            <Popover.Target>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconArrowsJoin size={16} aria-hidden />}
                disabled={selected.size === 0 || change.isPending}
                onClick={() => setMultiOpen((o) => !o)}
              >
                Map selected to…{selected.size > 0 ? ` (${selected.size})` : ""}
              </Button>
            </Popover.Target>
            <Popover.Dropdown>
              <Stack gap="xs">
                {targets.classes.length > 1 ? (
                  <Text size="sm" c="red.8" role="alert">
                    The selection mixes {targets.classes.join(", ")} accounts; an account maps only to a parent account of its own
                    classification. Select accounts of one classification.
                  </Text>
                ) : (
                  <>
                    <Select
                      size="xs"
                      label={`Parent account for ${selected.size} selected ${selected.size === 1 ? "account" : "accounts"}`}
                      placeholder="Search the parent's accounts"
                      searchable
                      data={targets.options}
                      value={multiTarget}
                      onChange={setMultiTarget}
                      nothingFoundMessage="No parent account suits every selected account"
                      comboboxProps={{ withinPortal: false }}
                    />
                    <Group justify="flex-end">
                      <Button size="xs" disabled={!multiTarget} loading={change.isPending} onClick={multimap}>
                        Map {selected.size}
                      </Button>
                    </Group>
                  </>
                )}
              </Stack>
            </Popover.Dropdown>
          </Popover>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconUnlink size={16} aria-hidden />}
            disabled={selectedMapped.length === 0 || change.isPending}
            onClick={() =>
              run(
                { kind: "unmap", accountIds: selectedMapped.map((a) => a.Id) },
                `${selectedMapped.length} ${selectedMapped.length === 1 ? "account is" : "accounts are"} no longer mapped.`,
                () => setSelected(new Set()),
              )
            }
          >
            Unmap selected{selectedMapped.length > 0 ? ` (${selectedMapped.length})` : ""}
          </Button>
        </Group>
        <Button
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          disabled={!map || Object.keys(map.map).length === 0 || change.isPending}
          onClick={() => setConfirmRemove(true)}
        >
          Remove all maps
        </Button>
      </Group>

      <BalanceBasis accounts={accounts} />
      <MappingGrid
        rows={shown}
        parents={parents}
        selected={selected}
        errors={errors}
        busy={change.isPending}
        onToggle={toggle}
        onToggleAll={toggleAll}
        onMap={mapOne}
        onUnmap={unmapOne}
        numbered={numbered}
        {...(gridHeight !== undefined ? { height: gridHeight } : {})}
      />

      <Modal opened={confirmRemove} onClose={() => setConfirmRemove(false)} title={`Remove every map of ${companyName}?`} centered>
        <Text size="sm">
          All {map ? Object.keys(map.map).length : 0} maps of {companyName} are removed, and its accounts must be mapped again before
          the next consolidation. The accounts themselves and QuickBooks are not changed.
        </Text>
        <DialogActions onCancel={() => setConfirmRemove(false)} mt="lg">
          <Button color="red" loading={change.isPending} onClick={() => run({ kind: "removeAll" }, `Every map of ${companyName} was removed.`, () => setConfirmRemove(false))}>
            Remove all maps
          </Button>
        </DialogActions>
      </Modal>
    </Stack>
  );
}
