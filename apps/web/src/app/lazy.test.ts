import { LAZY_LOAD_TIMEOUT_MS } from "@groupledger/domain";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LazyLoadTimeoutError, withTimeout } from "./lazy.ts";

describe("withTimeout (lazy screens, SPEC §8)", () => {
  afterEach(() => vi.useRealTimers());

  it("fails a load that has not arrived after 120 s", async () => {
    vi.useFakeTimers();
    expect(LAZY_LOAD_TIMEOUT_MS).toBe(120_000);
    const never = new Promise<never>(() => {});
    const result = withTimeout(never, LAZY_LOAD_TIMEOUT_MS);
    const settled = vi.fn();
    result.catch(settled);
    await vi.advanceTimersByTimeAsync(LAZY_LOAD_TIMEOUT_MS - 1);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).rejects.toBeInstanceOf(LazyLoadTimeoutError);
  });

  it("passes a load through, and a load failure too", async () => {
    await expect(withTimeout(Promise.resolve("screen"), 1000)).resolves.toBe("screen");
    await expect(withTimeout(Promise.reject(new Error("chunk 404")), 1000)).rejects.toThrow("chunk 404");
  });
});
