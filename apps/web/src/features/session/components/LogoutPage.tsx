import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { ScreenLoader } from "../../../app/Root.tsx";
import { sessionApi } from "../api.ts";
import { clearToken, readToken } from "../tokenStore.ts";
import type { LoginNotice } from "./LoginForm.tsx";

/** /logout and /logout?autoLogout=true (after an idle timeout) end the session (SPEC §2). */
export function LogoutPage() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const auto = params.get("autoLogout") === "true";
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const hadToken = readToken() !== null;
    // The server refuses this token from now on; a failure (already refused, offline) must not keep anyone signed in.
    const revoke = hadToken ? sessionApi.logout().catch(() => undefined) : Promise.resolve();
    void revoke.then(() => {
      clearToken();
      client.clear();
      const state: LoginNotice = { notice: auto ? "autoLogout" : "loggedOut" };
      void navigate(auto ? "/login?autoLogout=true" : "/login", { replace: true, state });
    });
  }, [auto, client, navigate]);

  return <ScreenLoader />;
}
