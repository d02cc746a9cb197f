import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { consolidate, type ConsolidationInputJson, parseConsolidationInput } from "@groupledger/domain";
import { AppError } from "../src/http/errors.ts";
import { EnginePool, leanOutput, packBalances, unpackBalances } from "../src/modules/consolidation/engine-pool.ts";

/** The engine pool (engine-pool.ts): the engine's answers, and what a crash, a flood or a bad input does to the other requests. */
const example = JSON.parse(readFileSync(new URL("../../../docs/examples/two-year-rollforward.json", import.meta.url), "utf8")) as ConsolidationInputJson;
const testWorker = new URL("./engine-pool-worker.ts", import.meta.url);
const pools: EnginePool[] = [];
const pool = (options: ConstructorParameters<typeof EnginePool>[0]) => {
  const p = new EnginePool({ worker: testWorker, ...options });
  pools.push(p);
  return p;
};
afterAll(() => Promise.all(pools.map((p) => p.close())));

describe("the engine pool", () => {
  it("sends the balance amounts as one Float64Array, as the engine's columns where they fit, the caller's input untouched", () => {
    const before = structuredClone(example);
    const packed = packBalances(example);
    // Every entity's series start in the same month and are as long: each travels as columns, a row per account.
    const size = example.entities.reduce((n, e) => n + e.accounts.length * e.balances[0]!.amounts.length, 0);
    expect(packed.amounts).toHaveLength(size);
    expect(JSON.stringify(packed.input)).not.toContain(JSON.stringify(example.entities[0]!.balances[0]!.amounts));
    const unpacked = unpackBalances(structuredClone(packed.input), packed.amounts) as ConsolidationInputJson;
    for (const e of unpacked.entities) {
      expect(e.balances).toEqual([]);
      // A view of the memory handed over, not a copy.
      expect(e.balanceColumns!.amounts.buffer).toBe(packed.amounts!.buffer);
      expect(e.balanceColumns!.accounts).toEqual(example.entities.find((x) => x.id === e.id)!.accounts.map((a) => a.id));
    }
    expect(consolidate(parseConsolidationInput(unpacked))).toEqual(consolidate(parseConsolidationInput(example)));
    expect(example).toEqual(before);
    expect(packBalances({ not: "an input" })).toEqual({ input: { not: "an input" } });
  });

  it("writes each job's amounts into memory shared with its thread, reused by the next job on it (its rows cleared)", async () => {
    const p = pool({ size: 1 });
    // A larger group first, then smaller ones: the second must not read what the first left behind.
    const larger = structuredClone(example);
    for (const e of larger.entities) for (const b of e.balances) for (let k = 0; k < b.amounts.length; k++) b.amounts[k] = b.amounts[k]! * 3;
    const fewer = structuredClone(example);
    for (const e of fewer.entities) e.balances = e.balances.filter((_, k) => k % 2 === 0);
    for (const input of [larger, example, fewer]) {
      const here = (() => {
        try {
          return { ok: true, output: consolidate(parseConsolidationInput(structuredClone(input))) };
        } catch (e) {
          return { ok: false, issues: (e as { issues: unknown }).issues };
        }
      })();
      expect(await p.run(input)).toEqual(here);
    }
  });

  it("sends series that do not fit columns as series, which the engine then refuses or accepts as it would here", () => {
    const variants: ConsolidationInputJson[] = [];
    const edit = (change: (input: ConsolidationInputJson) => void) => {
      const input = structuredClone(example);
      change(input);
      variants.push(input);
    };
    edit((x) => x.entities[1]!.balances[0]!.amounts.pop()); // a shorter series
    edit((x) => (x.entities[1]!.balances[1]!.from = x.entities[1]!.opening.month.replace(/-\d\d$/, "-01"))); // another start
    edit((x) => (x.entities[1]!.balances[1]!.account = x.entities[1]!.balances[0]!.account)); // an account twice
    edit((x) => (x.entities[1]!.balances[0]!.account = "nope")); // an unknown account
    edit((x) => (x.entities[1]!.balances[0]!.amounts[0] = 0.5)); // not a whole number
    for (const input of variants) {
      const packed = packBalances(input);
      const unpacked = unpackBalances(structuredClone(packed.input), packed.amounts) as ConsolidationInputJson;
      expect(unpacked.entities[1]).toEqual(input.entities[1]);
      expect(unpacked.entities[0]!.balanceColumns).toBeDefined();
      const outcome = (x: unknown) => {
        try {
          return JSON.stringify(consolidate(parseConsolidationInput(x)));
        } catch (e) {
          return e instanceof Error ? e.message : String(e);
        }
      };
      expect(outcome(unpacked)).toBe(outcome(input));
    }
  });

  it("answers what the engine answers in this thread, and the issues of an input it refuses; a crash fails only its own request and the thread is replaced; an input that cannot be sent fails only itself", async () => {
    const p = pool({ size: 1 });
    const [good, lean, refused] = await Promise.all([p.run(example), p.runLean(example), p.run({ ...example, reportingCurrency: "dollars" })]);
    const here = consolidate(parseConsolidationInput(example));
    expect(good).toEqual({ ok: true, output: here });
    // A report's answer: all but the translated lines and the journal entries.
    expect(lean).toEqual({ ok: true, output: leanOutput(here) });
    expect(lean.ok && Object.keys(lean.output)).not.toContain("journalEntries");
    expect(lean.ok && lean.output.entities[0]).not.toHaveProperty("lines");
    expect(lean.ok && lean.output.worksheet).toEqual(here.worksheet);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.issues.map((i) => i.path.join("."))).toContain("reportingCurrency");

    // Queued behind the crash: answered by the replacement thread.
    const crash = p.run({ test: { crash: true } });
    const behind = p.run(example);
    const crashed = await crash.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(crashed).toBeInstanceOf(AppError);
    expect(crashed).toMatchObject({ status: 500, code: "engine_crashed" });
    expect((crashed as Error).message).toMatch(/exit code 7.*restarted/);
    expect((await behind).ok).toBe(true);
    expect(p.started).toBe(2);

    await expect(p.run({ ...example, notCopyable: () => 1 })).rejects.toThrow(/could not be sent to the engine/);
    expect((await p.run(example)).ok).toBe(true);
    expect(p.started).toBe(2);
  });

  it("refuses with 503 and Retry-After when more jobs wait than it keeps, and answers the ones it kept", async () => {
    const p = pool({ size: 1, maxQueued: 2 });
    expect((await p.run(example)).ok).toBe(true); // the thread is up
    const running = p.run({ ...example, test: { stallMs: 400 } });
    const kept = [p.run(example), p.run(example)];
    expect(p.queued).toBe(2);
    const refused = await p.run(example).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ status: 503, code: "engine_busy", headers: { "retry-after": "2" } });
    expect((await running).ok).toBe(true);
    for (const r of await Promise.all(kept)) expect(r.ok).toBe(true);
  });
});
