import "@mantine/core/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { createQueryClient, Providers } from "./app/providers.tsx";
import { routes } from "./app/routes.tsx";
import { raiseError } from "./features/errors/errorBar.ts";
import { dropInvalidToken, expireSession } from "./features/session/expiry.ts";
import { restoreToken } from "./features/session/tokenStore.ts";
import { setResponseHandlers } from "./lib/http.ts";

setResponseHandlers({ invalidToken: dropInvalidToken, expiredToken: expireSession, unexpected: raiseError });

// SPEC §4: a stored token logs the user in; an expired one is deleted and the user starts at '/'.
if (restoreToken().state === "expired" && window.location.pathname !== "/") {
  window.history.replaceState(null, "", "/");
}

// A deploy replaces chunk files; an old tab asking for one that is gone gets the error bar, not a blank screen.
window.addEventListener("vite:preloadError", (event) => {
  event.preventDefault();
  raiseError((event as Event & { payload?: unknown }).payload ?? "A part of the app could not be loaded.");
});

const root = document.getElementById("root");
if (!root) throw new Error("missing #root element");
const router = createBrowserRouter(routes);
createRoot(root).render(
  <StrictMode>
    <Providers client={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
