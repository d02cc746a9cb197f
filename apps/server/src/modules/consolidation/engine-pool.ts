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
  /** The input's balance amounts, taken out of it (packBalances), in memory shared with the thread. */
  amounts?: Float64Array;
  /** Answer with leanOutput. */
  lean?: boolean;
}

type Series = { account?: unknown; from?: unknown; amounts: number[] };
type EntityShape = { accounts?: unknown; balances?: unknown; balanceColumns?: unknown };

/**
 * A large group's input is mostly its balance amounts (50 companies × 1,000 accounts × 36 months:
 * 1.8 M numbers). They travel as one Float64Array (from `allocate`: the pool's is memory shared with
 * the thread, threadAmounts), not copied (every minor-unit amount is an integer below 2^53, exact in
 * a double); the rest of the input is copied.
 *
 * An entity whose series all start in the same month and are as long, each naming a different one of
 * its accounts, with safe-integer amounts (every entity the server assembles: series from the
 * opening month to the period's end), is sent as the engine's columnar form: `balanceColumns`, a row
 * for every account in the chart's order (0 where it has no series), which the worker hands the
 * engine as a view of that memory and the engine adopts as its own columns
 * (packages/domain balance-columns.ts): no array per series is made on the engine's thread, and
 * nothing is copied there. Any other entity's series travel one after the other, each series' amounts
 * replaced by its length, and are made arrays again in the worker. The caller's input is not changed.
 */
export function packBalances(input: unknown, allocate: (count: number) => Float64Array = (count) => new Float64Array(count)): { input: unknown; amounts?: Float64Array } {
  const entities = (input as { entities?: unknown } | null)?.entities;
  if (!Array.isArray(entities)) return { input };
  const plans = entities.map((e: unknown) => planEntity(e));
  if (plans.every((plan) => plan === undefined)) return { input };
  let total = 0;
  for (const plan of plans) total += plan?.size ?? 0;
  const amounts = allocate(total);
  let at = 0;
  const packed = entities.map((e: EntityShape, i) => {
    const plan = plans[i];
    if (!plan) return e;
    const offset = at;
    at += plan.size;
    if (plan.kind === "columns") {
      for (const [row, s] of plan.rows) amounts.set(s.amounts, offset + row * plan.months);
      return { ...e, balances: [], balanceColumns: { from: plan.from, months: plan.months, accounts: plan.accounts, amounts: offset } };
    }
    let k = offset;
    const balances = (e.balances as unknown[]).map((b) => {
      if (!isSeries(b)) return b;
      amounts.set(b.amounts, k);
      k += b.amounts.length;
      return { ...b, amounts: b.amounts.length };
    });
    return { ...e, balances };
  });
  return { input: { ...(input as object), entities: packed }, amounts };
}

type Plan =
  | { kind: "columns"; size: number; from: string; months: number; accounts: string[]; rows: [number, Series][] }
  | { kind: "series"; size: number };

const isSeries = (b: unknown): b is Series => Array.isArray((b as Series | null)?.amounts);

/** How one entity's balances travel (packBalances): as columns, as series, or (undefined) untouched. */
function planEntity(e: unknown): Plan | undefined {
  const balances = (e as EntityShape | null)?.balances;
  if (!Array.isArray(balances)) return undefined;
  const series = balances.filter(isSeries);
  if (series.length === 0) return undefined;
  const asSeries: Plan = { kind: "series", size: series.reduce((n, s) => n + s.amounts.length, 0) };
  const accounts = (e as EntityShape).accounts;
  // (Columns given as well are the engine's to refuse, not to be replaced by these.)
  if (series.length !== balances.length || !Array.isArray(accounts) || (e as EntityShape).balanceColumns !== undefined) return asSeries;
  const ids: string[] = [];
  const rowOf = new Map<string, number>();
  for (const a of accounts as unknown[]) {
    const id = (a as { id?: unknown } | null)?.id;
    if (typeof id !== "string" || id.length === 0 || rowOf.has(id)) return asSeries;
    rowOf.set(id, ids.length);
    ids.push(id);
  }
  const from = series[0]!.from;
  const months = series[0]!.amounts.length;
  if (typeof from !== "string") return asSeries;
  const rows: [number, Series][] = [];
  const taken = new Set<number>();
  for (const s of series) {
    const row = typeof s.account === "string" ? rowOf.get(s.account) : undefined;
    if (row === undefined || taken.has(row) || s.from !== from || s.amounts.length !== months || !allSafeIntegers(s.amounts)) return asSeries;
    taken.add(row);
    rows.push([row, s]);
  }
  return { kind: "columns", size: ids.length * months, from, months, accounts: ids, rows };
}

function allSafeIntegers(xs: readonly unknown[]): boolean {
  for (let k = 0; k < xs.length; k++) if (!Number.isSafeInteger(xs[k])) return false;
  return true;
}

/** The input packBalances sent, for the engine (in the worker): columns as views of `amounts`, series as arrays again. */
export function unpackBalances(input: unknown, amounts: Float64Array | undefined): unknown {
  if (!amounts) return input;
  let at = 0;
  for (const e of (input as { entities: { balances?: { amounts: unknown }[]; balanceColumns?: { accounts: string[]; months: number; amounts: unknown } }[] }).entities) {
    const columns = e.balanceColumns;
    if (columns && typeof columns.amounts === "number") {
      at = columns.amounts;
      const size = columns.accounts.length * columns.months;
      columns.amounts = amounts.subarray(at, at + size);
      at += size;
      continue;
    }
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
  /** Where this thread's jobs' amounts are written (threadAmounts): shared with the thread, reused job after job. */
  amounts: SharedArrayBuffer | undefined;
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
        const packed = packBalances(job.input, (count) => threadAmounts(thread, count));
        const message: EngineJob = { id: job.id, ...packed, lean: job.lean };
        thread.worker.postMessage(message);
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
    const thread: Thread = { worker, ready: false, job: undefined, amounts: undefined };
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

/**
 * `count` zeros for a job's amounts (packBalances), in memory shared with the thread that runs the
 * job, kept for its next jobs. A fresh 15 MB array for a large group (50 companies × 1,000 accounts
 * × 37 months) cost the request thread about 60 ms on this machine only to fault its pages in
 * (docs/performance.md, "Fourth round"); a thread runs one job at a time and keeps no reference to
 * a job's input once it has answered (the engine's result refers to none of it), so the next job
 * may overwrite it. The buffer grows to the largest job the thread has run and is dropped with it.
 */
function threadAmounts(thread: Thread, count: number): Float64Array {
  const bytes = count * Float64Array.BYTES_PER_ELEMENT;
  if (!thread.amounts || thread.amounts.byteLength < bytes) thread.amounts = new SharedArrayBuffer(bytes);
  const amounts = new Float64Array(thread.amounts, 0, count);
  amounts.fill(0);
  return amounts;
}

let shared: EnginePool | undefined;

/** The process's engine pool, started on first use. */
export function enginePool(): EnginePool {
  return (shared ??= new EnginePool());
}
