import { StrictMode } from "react";
import type { Root } from "react-dom/client";
import { createBrowserRouter, Link, RouterProvider } from "react-router";
import { raiseError } from "../features/errors/errorBar.ts";
import { dropInvalidToken, expireSession } from "../features/session/expiry.ts";
import { setResponseHandlers } from "../lib/http.ts";
import { LinkProvider } from "./links.tsx";
import { createQueryClient, Providers } from "./providers.tsx";
import { routes } from "./routes.tsx";

/**
 * The whole app: the data router over every route (SPEC §2), the query cache and the global
 * response handlers. Loaded by the entry for every page but a first visit to /login, and by the
 * login shell once the user signs in or follows a link.
 */
export function renderApp(root: Root): void {
  setResponseHandlers({ invalidToken: dropInvalidToken, expiredToken: expireSession, unexpected: raiseError });
  const router = createBrowserRouter(routes);
  root.render(
    <StrictMode>
      <Providers client={createQueryClient()}>
        <LinkProvider component={Link}>
          <RouterProvider router={router} />
        </LinkProvider>
      </Providers>
    </StrictMode>,
  );
}
