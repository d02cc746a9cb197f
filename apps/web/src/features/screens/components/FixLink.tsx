import { Anchor } from "@mantine/core";
import { Link } from "react-router";

/** What a problem says, then (when it has one) the link to the screen where it is fixed. */
export function WithFixLink({ message, fix, fw }: { message: string; fix: { href: string; label: string } | null; fw?: number }) {
  return (
    <>
      {message}
      {fix ? (
        <>
          {" "}
          <Anchor component={Link} to={fix.href} size="sm" fw={fw}>
            {fix.label}
          </Anchor>
        </>
      ) : null}
    </>
  );
}
