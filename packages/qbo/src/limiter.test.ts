import { describe, expect, it } from "vitest";
import { VirtualClock } from "./clock.ts";
import { LimiterPool, RealmLimiter } from "./limiter.ts";

describe("RealmLimiter", () => {
  it("never lets more than maxConcurrent run at once, and serves everyone", async () => {
    const clock = new VirtualClock();
    const limiter = new RealmLimiter({ maxConcurrent: 10, maxPerWindow: 500, windowMs: 60_000 }, clock);
    let active = 0;
    let peak = 0;
    const done = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        limiter.run(async () => {
          active++;
          peak = Math.max(peak, active);
          await clock.sleep(100 + (i % 7));
          active--;
          return i;
        }),
      ),
    );
    expect(done).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(peak).toBe(10);
    expect(limiter.peakConcurrent).toBe(10);
  });

  it("holds the 501st request of a minute until the first one is a minute old", async () => {
    const clock = new VirtualClock(0);
    const limiter = new RealmLimiter({ maxConcurrent: 10, maxPerWindow: 500, windowMs: 60_000 }, clock);
    const startedAt: number[] = [];
    await Promise.all(
      Array.from({ length: 1001 }, async (_, i) => {
        await clock.sleep(i * 10); // a request every 10 ms: 100 per second, five times the allowed rate
        await limiter.run(async () => {
          startedAt.push(clock.now());
        });
      }),
    );
    expect(startedAt).toHaveLength(1001);
    expect(startedAt[499]).toBe(4_990);
    expect(startedAt[500]).toBe(60_000); // the window slides: first start (t=0) + 60 s
    expect(startedAt[501]).toBe(60_010);
    expect(startedAt[1000]).toBe(120_000);
    // No rolling minute ever holds more than 500 starts.
    for (let i = 500; i < startedAt.length; i++) expect((startedAt[i] ?? 0) - (startedAt[i - 500] ?? 0)).toBeGreaterThanOrEqual(60_000);
  });

  it("holds the 41st batch of a minute, letting other requests by, until the first batch is a minute old", async () => {
    const clock = new VirtualClock(0);
    const limiter = new RealmLimiter({ maxConcurrent: 10, maxPerWindow: 500, maxBatchesPerWindow: 40, windowMs: 60_000 }, clock);
    const batchStarts: number[] = [];
    const requestStarts: number[] = [];
    await Promise.all([
      ...Array.from({ length: 81 }, async (_, i) => {
        await clock.sleep(i * 100);
        await limiter.run(async () => void batchStarts.push(clock.now()), "batch");
      }),
      ...Array.from({ length: 20 }, async (_, i) => {
        await clock.sleep(5_000 + i * 100);
        await limiter.run(async () => void requestStarts.push(clock.now()));
      }),
    ]);
    expect(batchStarts[39]).toBe(3_900);
    expect(batchStarts[40]).toBe(60_000); // the first batch (t=0) left the window
    expect(batchStarts[41]).toBe(60_100);
    expect(batchStarts[80]).toBe(120_000);
    for (let i = 40; i < batchStarts.length; i++) expect((batchStarts[i] ?? 0) - (batchStarts[i - 40] ?? 0)).toBeGreaterThanOrEqual(60_000);
    // Plain requests queued behind waiting batches went at once.
    expect(requestStarts).toEqual(Array.from({ length: 20 }, (_, i) => 5_000 + i * 100));
    expect(() => new RealmLimiter({ maxConcurrent: 1, maxPerWindow: 1, maxBatchesPerWindow: 0, windowMs: 1 })).toThrow();
  });

  it("ignores a second release and rejects nonsense options", async () => {
    const limiter = new RealmLimiter({ maxConcurrent: 1, maxPerWindow: 10, windowMs: 1000 }, new VirtualClock());
    const release = await limiter.acquire();
    release();
    release();
    const again = await limiter.acquire();
    let third = false;
    void limiter.acquire().then(() => (third = true));
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(false); // one slot, held by `again`: a double release did not free a second
    again();
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(true);
    expect(() => new RealmLimiter({ maxConcurrent: 0, maxPerWindow: 1, windowMs: 1 })).toThrow();
  });

  it("LimiterPool hands out one limiter per realm", () => {
    const pool = new LimiterPool();
    expect(pool.forRealm("1")).toBe(pool.forRealm("1"));
    expect(pool.forRealm("1")).not.toBe(pool.forRealm("2"));
  });
});
