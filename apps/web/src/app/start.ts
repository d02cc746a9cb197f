import { createElement } from "react";
import type { Root } from "react-dom/client";
import type { RestoredToken } from "../features/session/tokenStore.ts";
import { LOGIN_PATH } from "../features/session/paths.ts";

/**
 * Which code draws the first screen. A first visit to /login without a session gets the login
 * shell: React, Mantine and the form, no router, query cache or schemas (issue 18 item 11: the
 * route's JavaScript under 120 KB gzip). Every other page, and /login with a session (the public
 * guard moves it on), starts the whole app.
 */
export function firstScreen(pathname: string, token: RestoredToken["state"]): "shell" | "app" {
  return pathname === LOGIN_PATH && token !== "valid" ? "shell" : "app";
}

let root: Root | null = null;
/** The app's start once asked for: a second link clicked while its code loads must not start a second app. */
let started: Promise<void> | null = null;

/** The one React root both draw into: the app replaces the shell in place, no page load. */
export function setRoot(next: Root): void {
  root = next;
  started = null;
}

/**
 * Starts the whole app, first moving the address to `path` (a link the shell's user followed:
 * pushed; where signing in leads: replacing /login, as the router's guard does). If its code
 * cannot be loaded after the shell ran (a deploy replaced it), the browser loads that address
 * afresh; on a first load that would only repeat, so the page says what happened.
 */
export function startApp(path?: { to: string; history: "push" | "replace" }): Promise<void> {
  if (!root) throw new Error("startApp before the root exists");
  started ??= load(root, path);
  return started;
}

async function load(target: Root, path: { to: string; history: "push" | "replace" } | undefined): Promise<void> {
  if (path) window.history[path.history === "push" ? "pushState" : "replaceState"](null, "", path.to);
  try {
    const { renderApp } = await import("./App.tsx");
    renderApp(target);
  } catch {
    if (path) window.location.reload();
    else showLoadFailure(target);
  }
}

/** The entry's last word when the code of the first screen does not arrive. */
export function showLoadFailure(target: Root): void {
  target.render(
    createElement("p", { role: "alert", style: { padding: 24, fontFamily: "sans-serif" } }, "GroupLedger could not be loaded. Check your connection, then reload the page."),
  );
}
