import { Suspense } from "react";
import { Outlet } from "react-router";
import { ScreenLoader } from "../../../app/Root.tsx";
import { PublicChrome } from "./PublicChrome.tsx";

/** The public pages' route layout: their chrome around the current page. */
export function PublicLayout() {
  return (
    <PublicChrome>
      <Suspense fallback={<ScreenLoader />}>
        <Outlet />
      </Suspense>
    </PublicChrome>
  );
}
