import { describe, it, expect } from "vitest";
import {
  ACTIVITY_DEBOUNCE_MS,
  AUTH_POPUP,
  AUTH_RETURN_PATH,
  DEFAULT_PERMISSION_LEVEL,
  FRONTEND_RELEASE,
  IDLE_TIMEOUT_MS,
  LAZY_LOAD_TIMEOUT_MS,
  RELEASE_NOTES_VERSION,
  TOKEN_STORAGE_KEY,
} from "./constants.ts";

describe("business constants", () => {
  it("have the values from the spec", () => {
    expect(RELEASE_NOTES_VERSION).toBe("1");
    expect(FRONTEND_RELEASE).toBe("1.75.51");
    expect(IDLE_TIMEOUT_MS).toBe(900_000);
    expect(IDLE_TIMEOUT_MS).toBe(15 * 60 * 1000);
    expect(ACTIVITY_DEBOUNCE_MS).toBe(250);
    expect(DEFAULT_PERMISSION_LEVEL).toBe(0);
    expect(LAZY_LOAD_TIMEOUT_MS).toBe(120_000);
    expect(AUTH_POPUP).toEqual({ width: 600, height: 544 });
    expect(AUTH_RETURN_PATH).toBe("/qbo/auth/complete");
    expect(TOKEN_STORAGE_KEY).toBe("t");
  });
});
