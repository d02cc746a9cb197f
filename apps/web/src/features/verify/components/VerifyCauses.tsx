import { Anchor, List, Stack, Text } from "@mantine/core";
import type { VerifyCause } from "@groupledger/contract";
import { IconExternalLink } from "@tabler/icons-react";
import { Link } from "react-router";
import { causeLink } from "../model.ts";

/** Why the month does not reconcile, as far as GroupLedger can tell, each cause with the link to where it is fixed. */
export function VerifyCauses({ causes }: { causes: readonly VerifyCause[] }) {
  if (causes.length === 0) return null;
  return (
    <Stack gap={4} mt="xs" data-testid="verify-causes">
      <Text size="sm" fw={700} c="inherit">
        {causes.length === 1 ? "Why" : "Why, in the order to fix it"}
      </Text>
      <List size="sm" spacing={4} c="inherit" aria-label="Causes">
        {causes.map((c, i) => {
          const link = causeLink(c);
          return (
            <List.Item key={`${c.code}-${c.realmId ?? ""}-${c.docNumbers.join(",")}-${i}`} data-testid="verify-cause">
              {c.message}{" "}
              {link ? (
                link.external ? (
                  <Anchor href={link.href} target="_blank" rel="noopener noreferrer" c="inherit" underline="always" fw={600}>
                    {link.label}
                    <IconExternalLink size={13} aria-hidden style={{ marginLeft: 3, verticalAlign: "-2px" }} />
                  </Anchor>
                ) : (
                  <Anchor component={Link} to={link.href} c="inherit" underline="always" fw={600}>
                    {link.label}
                  </Anchor>
                )
              ) : null}
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
