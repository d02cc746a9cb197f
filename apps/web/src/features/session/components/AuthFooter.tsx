import { Anchor } from "@mantine/core";
import { Link } from "react-router";

/** The line under a sign-in card that sends the user to the other form ("Already have an account? Log in"). */
export function AuthFooter({ question, to, link }: { question: string; to: string; link: string }) {
  return (
    <>
      {question}{" "}
      <Anchor component={Link} to={to}>
        {link}
      </Anchor>
    </>
  );
}
