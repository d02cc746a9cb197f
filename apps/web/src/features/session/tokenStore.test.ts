import { TOKEN_STORAGE_KEY } from "@groupledger/domain";
import { describe, expect, it, vi } from "vitest";
import { fakeToken } from "../../test/render.tsx";
import { clearToken, onTokenChange, readToken, restoreToken, saveToken } from "./tokenStore.ts";

const NOW = Date.UTC(2026, 9, 31, 12, 0, 0);
const nowSeconds = NOW / 1000;

describe("token storage", () => {
  it("keeps the token in sessionStorage under 't' and tells listeners", () => {
    const seen = vi.fn();
    const off = onTokenChange(seen);
    saveToken("x.y.z");
    expect(TOKEN_STORAGE_KEY).toBe("t");
    expect(sessionStorage.getItem("t")).toBe("x.y.z");
    expect(readToken()).toBe("x.y.z");
    clearToken();
    expect(sessionStorage.getItem("t")).toBeNull();
    expect(seen.mock.calls).toEqual([["x.y.z"], [null]]);
    off();
  });
});

describe("restoreToken (SPEC §4 expiry rules)", () => {
  it("reports no token", () => {
    expect(restoreToken(NOW)).toEqual({ state: "none" });
  });

  it("restores a token whose exp is in the future (seconds or milliseconds)", () => {
    const seconds = fakeToken(nowSeconds + 60);
    saveToken(seconds);
    expect(restoreToken(NOW)).toEqual({ state: "valid", token: seconds });
    const millis = fakeToken(NOW + 60_000);
    saveToken(millis);
    expect(restoreToken(NOW)).toEqual({ state: "valid", token: millis });
  });

  it.each([
    ["exp in the past", fakeToken(nowSeconds - 1)],
    ["exp exactly now", fakeToken(nowSeconds)],
    ["no exp claim", fakeToken(undefined)],
    ["fewer than 3 dot-separated parts", fakeToken(nowSeconds + 60).split(".").slice(0, 2).join(".")],
    ["a payload that is not JSON", "aaa.bbb.ccc"],
  ])("deletes an expired token: %s", (_label, token) => {
    saveToken(token);
    expect(restoreToken(NOW)).toEqual({ state: "expired" });
    expect(sessionStorage.getItem("t")).toBeNull();
  });
});
