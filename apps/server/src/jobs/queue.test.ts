import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./queue.ts";

describe("retryDelayMs", () => {
  it("doubles from 2 s and stops at 5 minutes", () => {
    expect([1, 2, 3, 8, 9, 20].map(retryDelayMs)).toEqual([2000, 4000, 8000, 256_000, 300_000, 300_000]);
  });
});
