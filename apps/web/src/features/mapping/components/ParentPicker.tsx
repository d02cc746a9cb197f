import { Select, Stack, Text, UnstyledButton } from "@mantine/core";
import type { CompanyAccount } from "@groupledger/contract";
import { IconChevronDown } from "@tabler/icons-react";
import { memo, useMemo, useState } from "react";
import { accountLabel, parentOptions } from "../model.ts";

interface Props {
  sub: CompanyAccount;
  parents: readonly CompanyAccount[];
  value: string | null;
  disabled: boolean;
  error: string | null;
  onChange: (parentId: string | null) => void;
}

const pickerName = (sub: CompanyAccount) => `Parent account for ${sub.acctNum ? `${sub.acctNum} ` : ""}${sub.fullyQualifiedName}`;

/**
 * The searchable parent-account select of one row. Its options are computed only when the row is
 * on screen (the grid is virtualized), and incompatible parent accounts are never selectable:
 * another classification is not listed, a same-classification account that still cannot be used
 * shows, disabled, with the reason.
 */
function Picker({ sub, parents, value, disabled, error, onChange, onDone }: Props & { onDone: () => void }) {
  const options = useMemo(() => parentOptions(sub, parents), [sub, parents]);
  const problems = useMemo(() => new Map(options.map((o) => [o.value, o.problem])), [options]);
  const data = useMemo(() => {
    const list = options.map((o) => ({ value: o.value, label: o.label, disabled: o.problem !== null }));
    // A current map onto an account that is no longer offered (gone, or another classification) still shows what it is.
    if (value !== null && !problems.has(value)) {
      const p = parents.find((a) => a.Id === value);
      list.unshift({ value, label: p ? accountLabel(p) : `Account ${value} (no longer in the parent)`, disabled: true });
    }
    return list;
  }, [options, problems, value, parents]);
  return (
    <Select
      size="xs"
      searchable
      clearable
      nothingFoundMessage={`No ${sub.classification.toLowerCase()} account of the parent matches`}
      placeholder="Choose a parent account"
      aria-label={pickerName(sub)}
      defaultDropdownOpened
      autoFocus
      onDropdownClose={onDone}
      data={data}
      value={value}
      disabled={disabled}
      error={error ?? undefined}
      onChange={(v) => {
        onChange(v);
        onDone();
      }}
      // Escape and the arrow keys belong to the open dropdown, not to the grid's row navigation.
      onKeyDown={(e) => e.stopPropagation()}
      maxDropdownHeight={280}
      comboboxProps={{ withinPortal: true, width: 360, position: "bottom-start" }}
      renderOption={({ option }) => {
        const problem = problems.get(option.value);
        return problem ? (
          <Stack gap={0}>
            <Text size="xs">{option.label}</Text>
            <Text size="xs" c="dimmed">
              {problem}
            </Text>
          </Stack>
        ) : (
          <Text size="xs">{option.label}</Text>
        );
      }}
    />
  );
}

/**
 * The row's parent account: a plain button showing the current choice, swapped for the searchable
 * select only while the user edits it. A grid of 5,000 accounts keeps ~20 rows on screen, and a
 * full select per row (inputs, pop-over, option list) was most of the time to first paint.
 */
export const ParentPicker = memo(function ParentPicker(props: Props) {
  const [editing, setEditing] = useState(false);
  const { sub, parents, value, disabled, error } = props;
  if (editing && !disabled) return <Picker {...props} onDone={() => setEditing(false)} />;
  const current = value === null ? null : parents.find((p) => p.Id === value);
  const label = value === null ? null : current ? accountLabel(current) : `Account ${value} (no longer in the parent)`;
  return (
    <Stack gap={2}>
      <UnstyledButton
        type="button"
        data-parent-picker
        aria-label={`${pickerName(sub)}: ${label ?? "not mapped"}`}
        aria-haspopup="listbox"
        disabled={disabled}
        onClick={() => setEditing(true)}
        style={{
          display: "flex",
          alignItems: "center",
          justifyContent: "space-between",
          gap: 4,
          width: "100%",
          height: 30,
          padding: "0 8px",
          border: `1px solid var(--mantine-color-${error ? "red-6" : "gray-4"})`,
          borderRadius: 4,
          background: disabled ? "var(--mantine-color-gray-1)" : "white",
          fontSize: 12,
          color: label ? "var(--mantine-color-black)" : "var(--mantine-color-dimmed)",
          overflow: "hidden",
        }}
      >
        <span style={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>{label ?? "Not mapped"}</span>
        <IconChevronDown size={14} aria-hidden style={{ flex: "none" }} />
      </UnstyledButton>
      {error ? (
        <Text size="xs" c="red.7" lineClamp={3} title={error}>
          {error}
        </Text>
      ) : null}
    </Stack>
  );
});
