import "@mantine/core/styles.css";
import { createRoot } from "react-dom/client";
import { raiseError } from "./features/errors/errorBar.ts";
import { restoreToken } from "./features/session/tokenStore.ts";
import { firstScreen, setRoot, showLoadFailure, startApp } from "./app/start.ts";

// SPEC §4: a stored token logs the user in; an expired one is deleted and the user starts at '/'.
const restored = restoreToken();
if (restored.state === "expired" && window.location.pathname !== "/") {
  window.history.replaceState(null, "", "/");
}

// A deploy replaces chunk files; an old tab asking for one that is gone gets the error bar, not a blank screen.
window.addEventListener("vite:preloadError", (event) => {
  event.preventDefault();
  raiseError((event as Event & { payload?: unknown }).payload ?? "A part of the app could not be loaded.");
});

const element = document.getElementById("root");
if (!element) throw new Error("missing #root element");
const root = createRoot(element);
setRoot(root);
if (firstScreen(window.location.pathname, restored.state) === "shell") {
  void import("./app/shell.tsx").then((m) => m.renderShell(root), () => showLoadFailure(root));
} else {
  void startApp();
}
