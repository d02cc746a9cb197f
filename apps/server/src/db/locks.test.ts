import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { KeyedMutex, LockBusyError, processLocks } from "./locks.ts";

const BUSY = "Another posting of Northwind UK's opening balance is in progress";

describe("LockBusyError", () => {
  it("says what is in progress and how long it waited, in whole seconds", () => {
    const e = new LockBusyError("obal:1", BUSY, 20_000);
    expect(e).toMatchObject({ name: "LockBusyError", key: "obal:1", busy: BUSY, waitedMs: 20_000 });
    expect(e.message).toBe(`${BUSY} and has not finished within 20 seconds.`);
    expect(new LockBusyError("k", BUSY, 1_200).message).toBe(`${BUSY} and has not finished within 1 second.`);
  });
});

describe("KeyedMutex", () => {
  const later = () => Date.now() + 5_000;

  it("hands a free key out at once and makes the next caller wait for its release", async () => {
    const mutex = new KeyedMutex();
    const release = await mutex.acquire("k", later(), BUSY, 5_000);
    let second = false;
    const waiting = mutex.acquire("k", later(), BUSY, 5_000).then((r) => ((second = true), r));
    await sleep(20);
    expect(second).toBe(false);
    release();
    (await waiting)();
    expect(second).toBe(true);
  });

  it("wakes waiters first come, first served", async () => {
    const mutex = new KeyedMutex();
    const release = await mutex.acquire("k", later(), BUSY, 5_000);
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) =>
      mutex.acquire("k", later(), BUSY, 5_000).then(async (r) => {
        order.push(n);
        await sleep(5);
        r();
      }),
    );
    release();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
  });

  it("other keys do not wait", async () => {
    const mutex = new KeyedMutex();
    await mutex.acquire("a", later(), BUSY, 5_000);
    const b = await Promise.race([mutex.acquire("b", later(), BUSY, 5_000), sleep(200).then(() => "waited")]);
    expect(typeof b).toBe("function");
  });

  it("gives up at the deadline with LockBusyError, and the waiter that gave up is skipped when the key is released", async () => {
    const mutex = new KeyedMutex();
    const release = await mutex.acquire("k", later(), BUSY, 5_000);
    const impatient = mutex.acquire("k", Date.now() + 30, BUSY, 30);
    const patient = mutex.acquire("k", later(), BUSY, 5_000);
    await expect(impatient).rejects.toThrow(LockBusyError);
    await expect(impatient).rejects.toMatchObject({ key: "k", busy: BUSY, waitedMs: 30 });
    release();
    const next = await patient;
    next();
    // Free again: taken at once.
    (await mutex.acquire("k", later(), BUSY, 5_000))();
  });

  it("releasing twice wakes one waiter, not two", async () => {
    const mutex = new KeyedMutex();
    const release = await mutex.acquire("k", later(), BUSY, 5_000);
    const held: string[] = [];
    const first = mutex.acquire("k", later(), BUSY, 5_000).then((r) => (held.push("first"), r));
    const second = mutex.acquire("k", later(), BUSY, 5_000).then((r) => (held.push("second"), r));
    release();
    release();
    await first;
    await sleep(20);
    expect(held).toEqual(["first"]);
    (await first)();
    (await second)();
    expect(held).toEqual(["first", "second"]);
  });
});

describe("processLocks (PGlite: one process, the mutex is the whole lock)", () => {
  it("runs one section per key at a time and answers with its result", async () => {
    const withLock = processLocks(5_000);
    let inside = 0;
    let most = 0;
    const section = async (n: number) => {
      inside++;
      most = Math.max(most, inside);
      await sleep(5);
      inside--;
      return n;
    };
    expect(await Promise.all([1, 2, 3, 4].map((n) => withLock("k", BUSY, () => section(n))))).toEqual([1, 2, 3, 4]);
    expect(most).toBe(1);
  });

  it("frees the key when the section throws", async () => {
    const withLock = processLocks(5_000);
    await expect(withLock("k", BUSY, async () => Promise.reject(new Error("QuickBooks said no")))).rejects.toThrow("QuickBooks said no");
    expect(await withLock("k", BUSY, async () => "next")).toBe("next");
  });

  it("a section waiting longer than the bound gets LockBusyError with the caller's sentence", async () => {
    const withLock = processLocks(30);
    const holder = withLock("k", BUSY, () => sleep(200));
    await expect(withLock("k", BUSY, async () => "never")).rejects.toMatchObject({ name: "LockBusyError", key: "k", busy: BUSY, waitedMs: 30 });
    await holder;
  });
});
