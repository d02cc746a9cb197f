import { useLocation, useSearchParams } from "react-router";
import { LoginForm, loginNotice } from "./LoginForm.tsx";

/** The /login route inside the app: the form, with the notice and email the router hands over. */
export function LoginPage() {
  const location = useLocation();
  const [params] = useSearchParams();
  return <LoginForm notice={loginNotice(location.state, params)} initialEmail={params.get("email") ?? ""} />;
}
