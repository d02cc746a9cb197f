import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { dismissError } from "../features/errors/errorBar.ts";

// Lazy screens load their chunk on first render; on a busy 2-core CI machine that can take longer
// than Testing Library's 1 s default for findBy*/waitFor. A generous wait costs nothing when the UI is fast.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks the layout APIs Mantine asks about; answer like a desktop browser with no preference.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
window.scrollTo = () => {};
Element.prototype.scrollIntoView ??= () => {};

// Test files share their worker's modules (vite.config.ts: isolate false): nothing one test leaves
// behind in a module's state, storage or a spy reaches the next.
afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  dismissError();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
