import { Checkbox, Group, Select, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { nightlySyncRequestSchema, type NightlySync } from "@groupledger/contract";
import { useMemo, useState } from "react";
import { messageOf, validateWith } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { formatDate } from "../../companies/format.ts";
import { Loaded } from "../../screens/components/Loaded.tsx";
import { useAdminOnly } from "../../team/permissions.tsx";
import { useNightlySync, useSetNightlySync } from "../api.ts";
import { nightlySyncSentence, timeZoneOptions } from "../nightlySync.ts";
import { SaveRow } from "./Saved.tsx";

const browserZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
};

function Form({ setting }: { setting: NightlySync }) {
  const save = useSetNightlySync();
  const adminOnly = useAdminOnly("change the nightly sync");
  const [saved, setSaved] = useState<string | null>(null);
  const zones = useMemo(() => timeZoneOptions(setting.timeZone, browserZone()), [setting.timeZone]);
  const initial = { enabled: setting.enabled, time: setting.time, timeZone: setting.timeZone, replaceChanged: setting.replaceChanged };
  const form = useForm({ initialValues: initial, validate: validateWith(nightlySyncRequestSchema) });
  const submit = form.onSubmit((values) => {
    setSaved(null);
    save.mutate(values, {
      onSuccess: (next) => {
        const kept = { enabled: next.enabled, time: next.time, timeZone: next.timeZone, replaceChanged: next.replaceChanged };
        form.setInitialValues(kept);
        form.setValues(kept);
        setSaved(`The nightly sync was saved. ${nightlySyncSentence(next)}`);
      },
      onError: (err) => {
        const fields = err instanceof ApiError ? err.fieldErrors() : {};
        if (Object.keys(fields).length > 0) form.setErrors(fields);
        else form.setFieldError("time", messageOf(err));
      },
    });
  });
  const disabled = adminOnly !== null || !form.values.enabled;
  return (
    <form onSubmit={submit} noValidate aria-label="Nightly sync">
      <Stack gap="xs">
        <Switch
          label="Sync every company each night"
          description="Reads what changed in QuickBooks since the last sync (besides the syncs QuickBooks' change notifications start)."
          disabled={adminOnly !== null}
          {...form.getInputProps("enabled", { type: "checkbox" })}
        />
        <Group align="flex-start" gap="sm">
          <TextInput
            label="Time of day"
            description="24-hour clock, HH:MM"
            placeholder="06:00"
            w={150}
            disabled={disabled}
            {...form.getInputProps("time")}
          />
          <Select
            label="Time zone"
            description="The clock the time is read on, daylight saving included"
            data={zones}
            searchable
            allowDeselect={false}
            nothingFoundMessage="No time zone of that name"
            style={{ flex: 1 }}
            maw={360}
            disabled={disabled}
            {...form.getInputProps("timeZone")}
          />
        </Group>
        <Checkbox
          label="Replace changed entries after the nightly sync"
          description="Approves in advance: every posted entry whose books the nightly sync finds changed is deleted in QuickBooks and posted again, in period order, and the admins get a summary by mail. Off: changed entries wait for your review under Multi Period / Company."
          disabled={disabled}
          {...form.getInputProps("replaceChanged", { type: "checkbox" })}
        />
        <Text size="xs" c="dimmed" data-testid="nightly-last-run">
          {setting.lastRunDate ? `Last nightly sync: ${formatDate(setting.lastRunDate)} (${setting.timeZone.replaceAll("_", " ")}).` : "No nightly sync has run yet."}
        </Text>
      </Stack>
      <SaveRow label="Save nightly sync" pending={save.isPending} dirty={form.isDirty()} saved={saved} adminOnly={adminOnly} />
    </form>
  );
}

/** The group's nightly sync (GET/PUT /api/settings/nightly-sync): on or off, the time and the time zone. */
export function NightlySyncForm() {
  return (
    <Loaded query={useNightlySync()} height={90}>
      {(setting) => <Form setting={setting} />}
    </Loaded>
  );
}
