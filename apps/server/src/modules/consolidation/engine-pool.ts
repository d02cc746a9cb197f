import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { ConsolidationInputJson, ConsolidationOutput, EntityResult, InputIssue } from "@groupledger/domain";
import { AppError } from "../../http/errors.ts";
import { tsWorker } from "../../services/ts-worker.ts";

/**
 * The consolidation engine off the request thread (issue 22): a few worker threads run
 * `consolidate` on inputs built where the database is (input.ts), so a cold report or a run
 * preview no longer holds every other request behind its CPU time; on PGlite the database itself
 * runs on the request thread and needs it.
 *
 * A job is the built input, copied to a worker (structured clone) and the output copied back.
 * What can go wrong stays with the request that asked: an input the engine refuses is its answer
 * (`issues`), an engine bug fails that request, a thread that dies fails the job it was running and
 * is replaced, and when more jobs wait than `maxQueued` the request is refused with 503 and
 * Retry-After instead of the queue (and its inputs) growing without bound.
 */

export type EngineResult<Output = ConsolidationOutput> = { ok: true; output: Output } | { ok: false; issues: readonly InputIssue[] };

/**
 * The output without what only postings and reconciliations read: the entities' translated lines
 * and the journal entries. For a large group those are most of the output (50 companies × 1,000
 * accounts: 13 of 14 MB), and copying them back cost the request thread as much as the engine's run.
 */
export type LeanOutput = Omit<ConsolidationOutput, "journalEntries" | "entities"> & { entities: Omit<EntityResult, "lines">[] };

export function leanOutput(output: ConsolidationOutput): LeanOutput {
  const { journalEntries: _entries, entities, ...rest } = output;
  return { ...rest, entities: entities.map(({ lines: _lines, ...entity }) => entity) };
}

/** What a worker is sent and answers (engine-worker.ts). */
export interface EngineJob {
  id: number;
  input: unknown;
  /** The input's balance amounts, taken out of it (packAmounts). */
  amounts?: Float64Array;
  /** Answer with leanOutput. */
  lean?: boolean;
}

type Series = { amounts: number[] };
const seriesOf = (input: unknown): Series[] => {
  const entities = (input as { entities?: unknown } | null)?.entities;
  if (!Array.isArray(entities)) return [];
  return entities.flatMap((e: { balances?: unknown }) => (Array.isArray(e?.balances) ? (e.balances as Series[]).filter((b) => Array.isArray(b?.amounts)) : []));
};

/**
 * A large group's input is mostly its balance amounts (50 companies × 1,000 accounts × 36 months:
 * 1.8 M numbers); copying them as arrays cost the request thread more than the engine's own run
 * (300 ms against 250–370 ms, docs/performance.md). They travel as one Float64Array whose memory
 * is handed over, not copied (every minor-unit amount is an integer below 2^53, exact in a
 * double); the rest of the input is copied with its series emptied. The caller's input is not changed.
 */
export function packAmounts(input: unknown): { input: unknown; amounts?: Float64Array<ArrayBuffer> } {
  const series = seriesOf(input);
  if (series.length === 0) return { input };
  let total = 0;
  for (const s of series) total += s.amounts.length;
  const amounts = new Float64Array(total);
  let at = 0;
  for (const s of series) {
    amounts.set(s.amounts, at);
    at += s.amounts.length;
  }
  // The same input, each series' amounts replaced by its length (read back in the same order).
  const lengths = new Map(series.map((s) => [s, s.amounts.length]));
  const skeleton = {
    ...(input as object),
    entities: (input as { entities: { balances?: unknown }[] }).entities.map((e) =>
      Array.isArray(e?.balances) ? { ...e, balances: (e.balances as Series[]).map((b) => (lengths.has(b) ? { ...b, amounts: lengths.get(b)! } : b)) } : e,
    ),
  };
  return { input: skeleton, amounts };
}

/** The input packAmounts sent, whole again (in the worker). */
export function unpackAmounts(input: unknown, amounts: Float64Array | undefined): unknown {
  if (!amounts) return input;
  let at = 0;
  for (const e of (input as { entities: { balances?: { amounts: unknown }[] }[] }).entities) {
    for (const b of e.balances ?? []) {
      if (typeof b.amounts !== "number") continue;
      const n = b.amounts;
      const out = new Array<number>(n);
      for (let i = 0; i < n; i++) out[i] = amounts[at + i]!;
      at += n;
      b.amounts = out;
    }
  }
  return input;
}
export type EngineAnswer = { id: number } & (EngineResult<ConsolidationOutput | LeanOutput> | { ok: false; failure: string });

export interface EnginePoolOptions {
  /** Threads; default one fewer than the cores (the request thread keeps one), at least 1. */
  size?: number;
  /** Jobs waiting for a thread beyond which a request is refused (503); default 32 per thread. */
  maxQueued?: number;
  /** The worker's module; tests give one that can crash or stall on demand. */
  worker?: URL;
}

interface Job {
  id: number;
  input: unknown;
  lean: boolean;
  resolve: (r: EngineResult<ConsolidationOutput | LeanOutput>) => void;
  reject: (e: Error) => void;
}

interface Thread {
  worker: Worker;
  /** Once the worker has loaded the engine and listens (its first message): jobs sent before could be lost. */
  ready: boolean;
  job: Job | undefined;
}

export class EnginePool {
  readonly size: number;
  readonly maxQueued: number;
  private readonly module: URL;
  private readonly threads = new Set<Thread>();
  private readonly idle: Thread[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Threads started in all, replacements included (tests: a crash starts a new one). */
  started = 0;

  constructor(options: EnginePoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism() - 1));
    this.maxQueued = options.maxQueued ?? 32 * this.size;
    this.module = options.worker ?? new URL("./engine-worker.ts", import.meta.url);
  }

  /** Consolidates `input` on a worker thread: the output, or the issues the engine refused it with. */
  run(input: ConsolidationInputJson | unknown): Promise<EngineResult> {
    return this.enqueue(input, false) as Promise<EngineResult>;
  }

  /** As run, answering with leanOutput (a report's needs). */
  runLean(input: ConsolidationInputJson | unknown): Promise<EngineResult<LeanOutput>> {
    return this.enqueue(input, true) as Promise<EngineResult<LeanOutput>>;
  }

  private enqueue(input: unknown, lean: boolean): Promise<EngineResult<ConsolidationOutput | LeanOutput>> {
    if (this.closed) return Promise.reject(new Error("The engine pool is closed."));
    if (this.queue.length >= this.maxQueued && this.idle.length === 0) {
      return Promise.reject(
        new AppError(503, "engine_busy", "The server is computing many consolidations at once; try again in a moment.", { retryAfterSeconds: 2 }, { "retry-after": "2" }),
      );
    }
    return new Promise<EngineResult<ConsolidationOutput | LeanOutput>>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, lean, resolve, reject });
      this.dispatch();
    });
  }

  /** Starts the threads now rather than on the first job (a server: its first report does not wait for them to load the engine). */
  warm(): void {
    while (!this.closed && this.threads.size < this.size) this.start();
  }

  /** Jobs waiting for a thread now. */
  get queued(): number {
    return this.queue.length;
  }

  /** Stops every thread; jobs still waiting or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error("The engine pool is closed."));
    await Promise.all([...this.threads].map((t) => t.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.idle.pop();
      if (!thread) {
        // Threads join the idle ones when ready, and dispatch again.
        while (this.threads.size < this.size) this.start();
        return;
      }
      const job = this.queue.shift()!;
      thread.job = job;
      thread.worker.ref();
      try {
        const packed = packAmounts(job.input);
        const message: EngineJob = { id: job.id, ...packed, lean: job.lean };
        thread.worker.postMessage(message, packed.amounts ? [packed.amounts.buffer] : []);
      } catch (e) {
        // An input that cannot be copied (a function, a symbol): that request's error, the thread is fine.
        thread.job = undefined;
        this.release(thread);
        job.reject(new Error(`The consolidation input could not be sent to the engine: ${e instanceof Error ? e.message : String(e)}`));
      }
    }
  }

  private start(): Thread {
    this.started++;
    const worker = tsWorker(this.module);
    const thread: Thread = { worker, ready: false, job: undefined };
    this.threads.add(thread);
    worker.on("message", (answer: EngineAnswer | { ready: true }) => {
      if (!("id" in answer)) {
        thread.ready = true;
        this.release(thread);
        this.dispatch();
        return;
      }
      const job = thread.job;
      if (!job || job.id !== answer.id) return;
      thread.job = undefined;
      this.release(thread);
      if (answer.ok) job.resolve({ ok: true, output: answer.output });
      else if ("issues" in answer) job.resolve({ ok: false, issues: answer.issues });
      else job.reject(new Error(`The consolidation engine failed: ${answer.failure}`));
      this.dispatch();
    });
    // A thread that dies (an uncaught error, out of memory, an exit) fails only the job it ran.
    let failure: Error | undefined;
    worker.on("error", (e) => (failure = e));
    worker.on("exit", (code) => {
      this.threads.delete(thread);
      const at = this.idle.indexOf(thread);
      if (at >= 0) this.idle.splice(at, 1);
      const job = thread.job;
      thread.job = undefined;
      const why = failure?.message ?? `exit code ${code}`;
      if (job) job.reject(new AppError(500, "engine_crashed", `The consolidation engine stopped while computing this (${why}); it has been restarted. Try again.`));
      if (this.closed) return;
      if (!thread.ready) {
        // It died loading the engine: starting another would die the same way, over and over.
        // The waiting requests fail; the next request tries again.
        for (const waiting of this.queue.splice(0)) waiting.reject(new AppError(500, "engine_unavailable", `The consolidation engine could not start (${why}).`));
        return;
      }
      this.dispatch();
    });
    return thread;
  }

  private release(thread: Thread): void {
    if (!this.threads.has(thread)) return;
    // An idle thread does not keep the process alive (a CLI or a test ends when its work does).
    thread.worker.unref();
    this.idle.push(thread);
  }
}

let shared: EnginePool | undefined;

/** The process's engine pool, started on first use. */
export function enginePool(): EnginePool {
  return (shared ??= new EnginePool());
}
