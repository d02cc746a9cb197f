import { describe, expect, it } from "vitest";
import { KeyedMutex, MemoryTokenStore, deserializeTokenSet, parseTokenResponse, serializeTokenSet } from "./tokens.ts";
import { readSample } from "./testing/samples.ts";

const NOW = Date.parse("2024-03-05T17:00:00Z");

describe("parseTokenResponse", () => {
  it.each([
    ["oauth/intuit-oauth-jsclient__bearer-token.json", "sample_access_token", "sample_refresh_token", 8726400],
    ["oauth/intuit-oauth-jsclient__refreshResponse.json", "sample_access_token", "sample_refresh_token", 8726400],
    ["oauth/dotnet-sdk__success_token_response.json", "access_token", "refresh_token", 15552000],
  ] as const)("%s", (file, access, refresh, refreshLifetime) => {
    const tokens = parseTokenResponse(readSample(file), NOW);
    expect(tokens).toEqual({
      accessToken: access,
      refreshToken: refresh,
      tokenType: "bearer",
      accessTokenExpiresAt: NOW + 3600_000,
      refreshTokenExpiresAt: NOW + refreshLifetime * 1000,
      idToken: file.includes("dotnet") ? "id_token" : "sample_id_token",
    });
  });

  it("reads the body inside the jsclient's auth response wrapper", () => {
    const wrapper = readSample("oauth/intuit-oauth-jsclient__authResponse.json") as { body: string };
    expect(parseTokenResponse(JSON.parse(wrapper.body), NOW).refreshTokenExpiresAt).toBe(NOW + 8726400_000);
  });

  it("rejects a response without a refresh token", () => {
    expect(() => parseTokenResponse({ access_token: "a", token_type: "bearer", expires_in: 3600, x_refresh_token_expires_in: 1 }, NOW)).toThrow();
  });
});

describe("serialization", () => {
  it("round-trips and validates", () => {
    const tokens = parseTokenResponse(readSample("oauth/dotnet-sdk__success_token_response.json"), NOW);
    expect(deserializeTokenSet(serializeTokenSet(tokens))).toEqual(tokens);
    const { idToken: _omit, ...withoutId } = tokens;
    expect(deserializeTokenSet(serializeTokenSet(withoutId))).toEqual(withoutId);
    expect(() => deserializeTokenSet(JSON.stringify({ v: 2, ...tokens }))).toThrow();
    expect(() => deserializeTokenSet('{"v":1}')).toThrow();
  });
});

describe("KeyedMutex and MemoryTokenStore", () => {
  it("runs one holder per key at a time, in arrival order, and other keys in parallel", async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    let active = 0;
    let peak = 0;
    const task = (key: string, name: string) =>
      mutex.run(key, async () => {
        active++;
        peak = Math.max(peak, active);
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, 2));
        log.push(`end ${name}`);
        active--;
        if (name === "a2") throw new Error("a2 fails");
        return name;
      });
    const results = await Promise.allSettled([task("a", "a1"), task("a", "a2"), task("a", "a3"), task("b", "b1")]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    const a = log.filter((l) => l.includes(" a"));
    expect(a).toEqual(["start a1", "end a1", "start a2", "end a2", "start a3", "end a3"]);
    expect(peak).toBe(2); // a1 and b1 together
  });

  it("stores per realm and counts saves", async () => {
    const store = new MemoryTokenStore();
    const tokens = parseTokenResponse(readSample("oauth/dotnet-sdk__success_token_response.json"), NOW);
    expect(await store.load("1")).toBeNull();
    await store.save("1", tokens);
    expect(await store.load("1")).toEqual(tokens);
    expect(await store.load("2")).toBeNull();
    expect(store.saves.get("1")).toBe(1);
  });
});
