import { Alert, Button, List, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useState } from "react";
import { fixLink } from "../model.ts";
import { WithFixLink } from "../../screens/components/FixLink.tsx";

/** A long list (a currency missing rates for a year) is shortened until asked; the first few say what to do. */
const SHOWN = 8;

/** What stops the consolidation, each with a link to the screen where it is fixed. */
export function ReportProblems({ problems, title, color = "red" }: { problems: readonly { code: string; message: string }[]; title: string; color?: string }) {
  const [all, setAll] = useState(false);
  if (problems.length === 0) return null;
  const shown = all ? problems : problems.slice(0, SHOWN);
  return (
    <Alert color={color} radius="md" title={title} icon={<IconAlertTriangle size={18} aria-hidden />} role="alert" data-testid="report-problems">
      <List size="sm" spacing={6}>
        {shown.map((p, i) => (
          <List.Item key={`${p.code}-${i}`}>
            <WithFixLink message={p.message} fix={fixLink(p.code)} fw={600} />
          </List.Item>
        ))}
      </List>
      {problems.length > SHOWN ? (
        <Button variant="subtle" size="compact-sm" mt="xs" onClick={() => setAll(!all)}>
          {all ? "Show fewer" : `Show all ${problems.length} problems`}
        </Button>
      ) : null}
    </Alert>
  );
}

/** What to read with a statement (figures left in, pairs missing): the server's warnings, one a line. */
export function ReportWarnings({ warnings }: { warnings: readonly string[] }) {
  return warnings.length ? (
    <Alert color="yellow" title="Read with the statement">
      <Stack gap={4}>
        {warnings.map((w) => (
          <Text key={w} size="sm">
            {w}
          </Text>
        ))}
      </Stack>
    </Alert>
  ) : null;
}
