import { Badge } from "@mantine/core";
import { Link } from "react-router";
import { useBilling } from "../api.ts";

/** Days left in the trial, or that it ended (read-only), in the header on every screen; opens the subscription settings. */
export function TrialBadge() {
  const billing = useBilling();
  const b = billing.data;
  if (!b || (!b.inTrial && !b.readOnly)) return null;
  const label = b.readOnly ? "Trial ended: read-only" : `Trial: ${b.trialDaysLeft ?? 0} day${b.trialDaysLeft === 1 ? "" : "s"} left`;
  const color = b.readOnly ? "red" : (b.trialDaysLeft ?? 0) <= 7 ? "orange" : "ledger";
  return (
    <Badge component={Link} to="/settings?tab=subscription" variant="light" color={color} size="lg" style={{ cursor: "pointer", textTransform: "none" }} data-testid="trial-badge">
      {label}
    </Badge>
  );
}
