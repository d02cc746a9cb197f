import { afterEach, beforeEach, vi } from "vitest";
import { dismissError, raiseError } from "../features/errors/errorBar.ts";
import { saveToken } from "../features/session/tokenStore.ts";
import { setResponseHandlers } from "../lib/http.ts";
import { shellApi } from "./fixtures.ts";
import { fakeToken, inOneHour, mockApi } from "./render.tsx";

/** A user signed in for the next hour whose shell loads; `routes` add answers or replace the shell's. Returns the calls made. */
export function signedIn(routes: Record<string, unknown> = {}, shell: Parameters<typeof shellApi>[0] = {}) {
  saveToken(fakeToken(inOneHour()));
  return mockApi({ ...shellApi(shell), ...routes });
}

/**
 * The hooks of a screen's tests: failures nobody explains reach the error bar, as App.tsx sets it up,
 * and every test ends with the bar closed and its spies restored. With `today`, only Date is faked,
 * to that instant (the screens' default periods follow it); timers stay real for the UI.
 */
export function screenTestHooks({ today }: { today?: string } = {}) {
  beforeEach(() => {
    if (today !== undefined) {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date(today));
    }
    setResponseHandlers({ invalidToken: () => {}, expiredToken: () => {}, unexpected: raiseError });
  });
  afterEach(() => {
    if (today !== undefined) vi.useRealTimers();
    vi.restoreAllMocks();
    dismissError();
  });
}
