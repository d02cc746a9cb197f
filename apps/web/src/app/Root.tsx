import { Center, Loader } from "@mantine/core";
import { Suspense, useEffect } from "react";
import { Outlet, useLocation } from "react-router";
import { ErrorBar } from "../features/errors/components/ErrorBar.tsx";
import { SessionExpiryWatcher } from "../features/session/SessionExpiryWatcher.tsx";
import { analytics } from "./analytics.ts";

/** SPEC §2: every route change is a page view and starts at the top of the page. */
export function RouteEffects() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    analytics().pageView(`${pathname}${search}`);
    window.scrollTo(0, 0);
  }, [pathname, search]);
  return null;
}

export function ScreenLoader() {
  return (
    <Center mih={240} role="status" aria-live="polite">
      <Loader size="md" aria-label="Loading" />
    </Center>
  );
}

/** The frame around every route: error bar, route effects, session expiry, and the loading state of lazy layouts. */
export function Root() {
  return (
    <>
      <RouteEffects />
      <SessionExpiryWatcher />
      <ErrorBar />
      <Suspense fallback={<ScreenLoader />}>
        <Outlet />
      </Suspense>
    </>
  );
}
