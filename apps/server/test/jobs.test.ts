import pg from "pg";
import { describe, expect, it } from "vitest";
import { fromPool, type Database } from "../src/db/client.ts";
import { JobQueue, LeaseLostError } from "../src/jobs/queue.ts";
import { PermanentJobError, Worker, type JobHandler } from "../src/jobs/worker.ts";
import { createTestDatabase, drivers } from "./databases.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withDb(driver: (typeof drivers)[number], fn: (db: Database, url?: string) => Promise<void>) {
  const t = await createTestDatabase(driver);
  try {
    await fn(t.database, t.url);
  } finally {
    await t.drop();
  }
}

describe.each(drivers)("job queue on %s", (driver) => {
  it("runs a job, records progress and result", async () => {
    await withDb(driver, async (database) => {
      const queue = new JobQueue(database.db);
      const seen: number[] = [];
      const worker = new Worker(queue, {
        sync: async (ctx) => {
          await ctx.progress(0.5, "half way", { step: 1 });
          const mid = await queue.get(ctx.job.id);
          seen.push(Number(mid?.progress));
          expect(mid?.message).toBe("half way");
          expect(mid?.checkpoint).toEqual({ step: 1 });
          return { pulled: 42 };
        },
      });
      const { job, created } = await queue.enqueue({ kind: "sync", payload: { realmId: "1" } });
      expect(created).toBe(true);
      expect(await worker.poll()).toBe(1);
      await worker.idle();
      const done = await queue.get(job.id);
      expect(done).toMatchObject({ state: "succeeded", result: { pulled: 42 }, attempts: 1, lockedBy: null });
      expect(Number(done?.progress)).toBe(1);
      expect(seen).toEqual([0.5]);
      expect(done?.finishedAt).toBeInstanceOf(Date);
    });
  });

  it("keeps one active job per dedupe key", async () => {
    await withDb(driver, async (database) => {
      const queue = new JobQueue(database.db);
      const a = await queue.enqueue({ kind: "sync", dedupeKey: "sync:realm-1" });
      const b = await queue.enqueue({ kind: "sync", dedupeKey: "sync:realm-1" });
      const c = await queue.enqueue({ kind: "sync", dedupeKey: "sync:realm-2" });
      expect(b).toEqual({ job: a.job, created: false });
      expect(c.created).toBe(true);
      const worker = new Worker(queue, { sync: async () => undefined });
      await worker.poll();
      await worker.idle();
      const d = await queue.enqueue({ kind: "sync", dedupeKey: "sync:realm-1" });
      expect(d.created).toBe(true);
      expect(d.job.id).not.toBe(a.job.id);
    });
  });

  it("retries a failing job with backoff, then gives up; a permanent error ends it at once", async () => {
    await withDb(driver, async (database) => {
      const queue = new JobQueue(database.db);
      let calls = 0;
      const handlers: Record<string, JobHandler> = {
        flaky: async () => {
          calls++;
          throw new Error("QBO answered 503");
        },
        broken: async () => {
          throw new PermanentJobError("the company was disconnected");
        },
      };
      const worker = new Worker(queue, handlers);
      const flaky = (await queue.enqueue({ kind: "flaky", maxAttempts: 2 })).job;
      await worker.poll();
      await worker.idle();
      let row = await queue.get(flaky.id);
      expect(row).toMatchObject({ state: "queued", attempts: 1, error: "QBO answered 503" });
      expect(row!.runAfter.getTime()).toBeGreaterThan(Date.now() + 1000);
      expect(await worker.poll()).toBe(0); // not due yet

      await database.db.execute((await import("drizzle-orm")).sql`update jobs set run_after = now() where id = ${flaky.id}`);
      await worker.poll();
      await worker.idle();
      row = await queue.get(flaky.id);
      expect(row).toMatchObject({ state: "failed", attempts: 2 });
      expect(calls).toBe(2);

      const broken = (await queue.enqueue({ kind: "broken" })).job;
      await worker.poll();
      await worker.idle();
      expect(await queue.get(broken.id)).toMatchObject({ state: "failed", attempts: 1, error: "the company was disconnected" });
    });
  });

  it("resumes a job from its checkpoint when its worker dies, and refuses the dead worker's late writes", async () => {
    await withDb(driver, async (database) => {
      const queue = new JobQueue(database.db, 200);
      const { job } = await queue.enqueue({ kind: "sync" });
      // A worker claims the job, gets to month 3, and its process dies.
      const claimed = await queue.claim(["sync"], "dead-worker");
      expect(claimed?.id).toBe(job.id);
      await queue.heartbeat(job.id, "dead-worker", { progress: 0.25, checkpoint: { monthsDone: 3 } });
      expect(await queue.claim(["sync"], "survivor")).toBeNull(); // lease still held

      await sleep(350);
      const resumedFrom: unknown[] = [];
      const survivor = new Worker(queue, {
        sync: async (ctx) => {
          resumedFrom.push(ctx.checkpoint, ctx.job.attempts);
          await ctx.progress(1, "done");
        },
      }, { workerId: "survivor", leaseMs: 200 });
      expect(await survivor.poll()).toBe(1);
      await survivor.idle();
      expect(resumedFrom).toEqual([{ monthsDone: 3 }, 2]);
      expect(await queue.get(job.id)).toMatchObject({ state: "succeeded" });
      await expect(queue.complete(job.id, "dead-worker")).rejects.toThrow(LeaseLostError);
      await expect(queue.heartbeat(job.id, "dead-worker")).rejects.toThrow(LeaseLostError);
    });
  });

  it("keeps the lease of a long job alive between progress calls", async () => {
    await withDb(driver, async (database) => {
      const queue = new JobQueue(database.db, 200);
      const worker = new Worker(queue, { slow: async () => { await sleep(700); } }, { leaseMs: 200 });
      const { job } = await queue.enqueue({ kind: "slow" });
      await worker.poll();
      await sleep(450);
      // Past the original lease, nobody else may take it.
      expect(await queue.claim(["slow"], "thief")).toBeNull();
      await worker.idle();
      expect(await queue.get(job.id)).toMatchObject({ state: "succeeded", attempts: 1 });
    });
  });

  it("runs every job exactly once with several workers in several processes", async () => {
    await withDb(driver, async (database, url) => {
      const pools = url ? [new pg.Pool({ connectionString: url, max: 3 }), new pg.Pool({ connectionString: url, max: 3 })] : [];
      try {
        const databases = [database, ...pools.map((p) => fromPool(p))];
        const queue = new JobQueue(database.db);
        const ids = new Set<string>();
        for (let i = 0; i < 24; i++) ids.add((await queue.enqueue({ kind: "work", payload: { i } })).job.id);
        const runs = new Map<string, number>();
        const handler: JobHandler = async (ctx) => {
          runs.set(ctx.job.id, (runs.get(ctx.job.id) ?? 0) + 1);
          await sleep(5);
        };
        const workers = [0, 1, 2].map((i) => new Worker(new JobQueue(databases[i % databases.length]!.db), { work: handler }, { concurrency: 3 }));
        while ((await Promise.all(workers.map((w) => w.poll()))).some((n) => n > 0)) {
          await Promise.all(workers.map((w) => w.idle()));
        }
        await Promise.all(workers.map((w) => w.idle()));
        expect([...runs.keys()].sort()).toEqual([...ids].sort());
        expect([...runs.values()].every((n) => n === 1)).toBe(true);
      } finally {
        await Promise.all(pools.map((p) => p.end()));
      }
    });
  });

  it("a started worker takes a job queued in its process at once, and the next one as soon as a slot is free, not at its next poll", async () => {
    await withDb(driver, async (database) => {
      const queue = new JobQueue(database.db);
      const ended: number[] = [];
      const worker = new Worker(queue, { quick: async () => void ended.push(Date.now()) }, { concurrency: 1, pollMs: 60_000 });
      worker.start();
      try {
        // Its first poll has found nothing: the next would be a minute away.
        await sleep(200);
        const queuedAt = Date.now();
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push((await queue.enqueue({ kind: "quick", payload: { i } })).job.id);
        for (let waited = 0; ended.length < 3 && waited < 10_000; waited += 20) await sleep(20);
        expect(ended).toHaveLength(3);
        expect(Math.max(...ended) - queuedAt).toBeLessThan(5_000);
        for (const id of ids) expect(await queue.get(id)).toMatchObject({ state: "succeeded", attempts: 1 });
      } finally {
        await worker.stop();
      }
      // Stopped, it is woken no more.
      const { job } = await queue.enqueue({ kind: "quick" });
      await sleep(100);
      expect(await queue.get(job.id)).toMatchObject({ state: "queued" });
    });
  });

  it("a worker stopped while a poll is under way runs nothing queued after it stopped", async () => {
    await withDb(driver, async (database) => {
      const queue = new JobQueue(database.db);
      const ran: string[] = [];
      // The poll's claim is slow (a busy database): it reaches the table only after the stop.
      const claim = queue.claim.bind(queue);
      queue.claim = async (...args) => {
        await sleep(200);
        return claim(...args);
      };
      const worker = new Worker(queue, { quick: async (ctx) => void ran.push(ctx.job.id) }, { concurrency: 1, pollMs: 60_000 });
      worker.start();
      await sleep(20);
      await worker.stop();
      const { job } = await queue.enqueue({ kind: "quick" });
      await sleep(400);
      expect(ran).toEqual([]);
      expect(await queue.get(job.id)).toMatchObject({ state: "queued" });
    });
  });

  it("keeps each lane's slots for its kinds: a long job of one lane holds up none of the other's, and no lane takes more than its slots", async () => {
    await withDb(driver, async (database) => {
      const queue = new JobQueue(database.db);
      let release = () => undefined as void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let inFlight = 0;
      let peak = 0;
      const worker = new Worker(
        queue,
        {
          run: async () => released,
          sync: async () => {
            peak = Math.max(peak, ++inFlight);
            await sleep(20);
            inFlight--;
          },
        },
        { lanes: [{ kinds: ["sync"], concurrency: 2 }, { concurrency: 1 }] },
      );
      const runs = [(await queue.enqueue({ kind: "run" })).job.id, (await queue.enqueue({ kind: "run" })).job.id];
      const syncs = [];
      for (let i = 0; i < 5; i++) syncs.push((await queue.enqueue({ kind: "sync", payload: { i } })).job.id);
      // One run (its lane has one slot) and two syncs start; the syncs all finish while the run waits.
      expect(await worker.poll()).toBe(3);
      for (let i = 0; i < 5; i++) {
        await sleep(60);
        await worker.poll();
      }
      for (const id of syncs) expect(await queue.get(id)).toMatchObject({ state: "succeeded" });
      expect(peak).toBe(2);
      const states = await Promise.all(runs.map(async (id) => (await queue.get(id))!.state));
      expect(states.sort()).toEqual(["queued", "running"]);
      release();
      await worker.idle();
      await worker.poll();
      await worker.idle();
      for (const id of runs) expect(await queue.get(id)).toMatchObject({ state: "succeeded" });
    });
  });

  it("stops mid-job without failing it, so another worker resumes it", async () => {
    await withDb(driver, async (database) => {
      const queue = new JobQueue(database.db, 200);
      let firstRunAborted = false;
      const first = new Worker(queue, {
        sync: async (ctx) => {
          await ctx.progress(0.4, "month 4 of 10", { monthsDone: 4 });
          await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
          firstRunAborted = true;
          throw new Error("aborted");
        },
      }, { leaseMs: 200 });
      const { job } = await queue.enqueue({ kind: "sync" });
      await first.poll();
      await sleep(50);
      await first.stop();
      expect(firstRunAborted).toBe(true);
      expect(await queue.get(job.id)).toMatchObject({ state: "running", checkpoint: { monthsDone: 4 } });
      await sleep(300);
      const second = new Worker(queue, { sync: async (ctx) => ({ resumedAt: ctx.checkpoint }) }, { leaseMs: 200 });
      await second.poll();
      await second.idle();
      expect(await queue.get(job.id)).toMatchObject({ state: "succeeded", result: { resumedAt: { monthsDone: 4 } } });
    });
  });
});
