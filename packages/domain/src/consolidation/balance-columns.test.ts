import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupArb } from "../../test/arbitraries.ts";
import { loadExample } from "../../test/load-example.ts";
import { formatMonth, parseMonth } from "../periods/month.ts";
import { balanceSeriesOf, type BalanceColumns } from "./balance-columns.ts";
import { consolidate, parseConsolidationInput } from "./consolidate.ts";
import { ConsolidationInputError, type InputIssue } from "./errors.ts";
import type { ConsolidationInputJson, EntityInputJson } from "./input-schema.ts";
import { resolvePeriod } from "./prepare.ts";

/**
 * The columnar form of the balances (balance-columns.ts) against `balances`: the same group in
 * either form gives byte for byte the same result, and a bad columns object is refused with paths.
 */

type Layout = "aligned" | "series";

/**
 * `input` with every entity's balances as columns. "aligned": a row for every account in the chart's
 * order, from the opening month to the period's end (the engine's own layout: adopted, not copied).
 * "series": a row per series in the series' order, from the earliest month a series gives to the
 * latest (copied row by row; months a series does not give are 0, as they are without the series).
 */
function asColumns(input: ConsolidationInputJson, layout: Layout): ConsolidationInputJson {
  const parsed = parseConsolidationInput(structuredClone(input));
  const parent = parsed.entities.find((e) => e.role === "parent")!;
  const periodEnd = resolvePeriod(parsed, parent.fiscalYearStartMonth).to;
  return {
    ...input,
    entities: input.entities.map((e): EntityInputJson => {
      const series = e.balances;
      let from: number;
      let months: number;
      let accounts: string[];
      if (layout === "aligned") {
        from = parseMonth(e.opening.month);
        months = periodEnd - from + 1;
        accounts = e.accounts.map((a) => a.id);
      } else if (series.length === 0) {
        from = parseMonth(e.opening.month);
        months = 0;
        accounts = [];
      } else {
        from = Math.min(...series.map((s) => parseMonth(s.from)));
        months = Math.max(0, ...series.map((s) => parseMonth(s.from) + s.amounts.length - from));
        accounts = series.map((s) => s.account);
      }
      const amounts = new Float64Array(accounts.length * months);
      series.forEach((s, k) => {
        const r = layout === "aligned" ? accounts.indexOf(s.account) : k;
        const offset = parseMonth(s.from) - from;
        s.amounts.forEach((x, j) => {
          if (offset + j >= 0 && offset + j < months) amounts[r * months + offset + j] = x;
        });
      });
      const { balances: _balances, ...rest } = e;
      return { ...rest, balances: [], balanceColumns: { from: formatMonth(from), months, accounts, amounts } };
    }),
  };
}

const run = (input: ConsolidationInputJson) => JSON.stringify(consolidate(parseConsolidationInput(input)));

function issuesOf(input: unknown): readonly InputIssue[] {
  try {
    consolidate(parseConsolidationInput(input));
  } catch (e) {
    if (e instanceof ConsolidationInputError) return e.issues;
    throw e;
  }
  throw new Error("accepted");
}

const EXAMPLES = readdirSync(new URL("../../../../docs/examples/", import.meta.url))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -".json".length));

describe("balances as columns give the same result as balance series", () => {
  it.each(EXAMPLES)("docs/examples/%s.json, both layouts", (name) => {
    const input = loadExample(name);
    const expected = run(input);
    expect(run(asColumns(input, "aligned"))).toBe(expected);
    expect(run(asColumns(input, "series"))).toBe(expected);
  });

  it("random groups, both layouts, some entities in each form", () => {
    fc.assert(
      fc.property(groupArb(), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), ({ input }, columnar) => {
        const expected = run(input);
        expect(run(asColumns(input, "aligned"))).toBe(expected);
        expect(run(asColumns(input, "series"))).toBe(expected);
        // A mix: each entity in either form.
        const aligned = asColumns(input, "aligned");
        expect(run({ ...input, entities: input.entities.map((e, i) => (columnar[i] ? aligned.entities[i]! : e)) })).toBe(expected);
      }),
      { numRuns: 100 },
    );
  }, 60_000);

  it("rows in another order, rows left out when all 0, months beyond the period and before the opening", () => {
    fc.assert(
      fc.property(groupArb({ maxSubsidiaries: 2 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), ({ input }, before, after) => {
        const expected = run(input);
        const aligned = asColumns(input, "aligned");
        const changed: ConsolidationInputJson = {
          ...aligned,
          entities: aligned.entities.map((e) => {
            const c = e.balanceColumns!;
            const months = before + c.months + after;
            const rows = c.accounts.map((_, r) => r).reverse().filter((r) => c.amounts.subarray(r * c.months, (r + 1) * c.months).some((x) => x !== 0));
            const amounts = new Float64Array(rows.length * months);
            rows.forEach((r, k) => {
              amounts.set(c.amounts.subarray(r * c.months, (r + 1) * c.months), k * months + before);
              // Months outside the entity's are never read: make them conspicuous.
              for (let j = 0; j < before; j++) amounts[k * months + j] = 123_456_789;
              for (let j = 0; j < after; j++) amounts[(k + 1) * months - 1 - j] = -987_654_321;
            });
            const columns: BalanceColumns = { from: formatMonth(parseMonth(c.from) - before), months, accounts: rows.map((r) => c.accounts[r]!), amounts };
            return { ...e, balanceColumns: columns };
          }),
        };
        expect(run(changed)).toBe(expected);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it("keeps the columns as given, never writes them, and a change after consolidating changes no result", () => {
    const input = asColumns(loadExample("hoyle-swissco-current-rate"), "aligned");
    const parsed = parseConsolidationInput(input);
    const columns = input.entities.map((e) => e.balanceColumns!);
    parsed.entities.forEach((e, i) => expect(e.balanceColumns!.amounts).toBe(columns[i]!.amounts));
    const copies = columns.map((c) => c.amounts.slice());
    const out = consolidate(parsed);
    const text = JSON.stringify(out);
    columns.forEach((c, i) => expect(c.amounts).toEqual(copies[i]));
    for (const c of columns) c.amounts.fill(7);
    expect(JSON.stringify(out)).toBe(text);
  });

  it("balanceSeriesOf gives the rows as series, which consolidate alike", () => {
    const input = loadExample("hoyle-swissco-current-rate");
    const columnar = parseConsolidationInput(asColumns(input, "series"));
    const json = parseConsolidationInput(input);
    json.entities.forEach((e) => expect(balanceSeriesOf(e)).toBe(e.balances));
    const series = columnar.entities.map((e) => balanceSeriesOf(e));
    expect(series[1]![0]).toEqual({ account: columnar.entities[1]!.balanceColumns!.accounts[0], from: columnar.entities[1]!.balanceColumns!.from, amounts: expect.any(Array) });
    expect(run({ ...input, entities: input.entities.map((e, i) => ({ ...e, balances: series[i]! })) })).toBe(run(input));
  });
});

describe("balanceColumns refused", () => {
  const base = () => asColumns(loadExample("hoyle-swissco-current-rate"), "aligned");
  const withColumns = (columns: unknown, entity = 1, extra: Record<string, unknown> = {}) => {
    const input = base();
    Object.assign(input.entities[entity]!, { balanceColumns: columns, ...extra });
    return input;
  };
  const good = () => base().entities[1]!.balanceColumns!;
  const path = (...rest: (string | number)[]) => ["entities", 1, "balanceColumns", ...rest];

  it("not an object", () => {
    expect(issuesOf(withColumns([1, 2]))).toEqual([{ path: path(), message: "must be an object: { from, months, accounts, amounts }" }]);
    expect(issuesOf(withColumns(null))).toEqual([{ path: path(), message: "must be an object: { from, months, accounts, amounts }" }]);
  });

  it("a bad month, count of months, account list or amounts array, each named", () => {
    expect(issuesOf(withColumns({ ...good(), from: "2024-13", months: -1, accounts: ["a", ""], amounts: [1, 2] }))).toEqual([
      { path: path("from"), message: "must be a month written YYYY-MM, e.g. 2024-01" },
      { path: path("months"), message: "must be a whole number of months, 0 or more" },
      { path: path("accounts", 1), message: "must be a non-empty account id" },
      { path: path("amounts"), message: "must be a Float64Array of accounts.length × months amounts, account-major" },
    ]);
    expect(issuesOf(withColumns({ ...good(), accounts: "a" }))).toEqual([{ path: path("accounts"), message: "must be an array of account ids" }]);
    expect(issuesOf(withColumns({ ...good(), months: 1.5 }))).toEqual([{ path: path("months"), message: "must be a whole number of months, 0 or more" }]);
  });

  it("amounts of the wrong length", () => {
    const c = good();
    expect(issuesOf(withColumns({ ...c, amounts: c.amounts.subarray(1) }))).toEqual([
      { path: path("amounts"), message: `holds ${c.amounts.length - 1} amounts; ${c.accounts.length} accounts × ${c.months} months need ${c.amounts.length}` },
    ]);
  });

  it("amounts that are not safe integers: the first ten named with their account and month, the rest counted", () => {
    const c = good();
    const amounts = c.amounts.slice();
    amounts[0] = 0.5;
    amounts[c.months + 1] = Number.NaN;
    amounts[2] = 2 ** 53;
    amounts[3] = -Infinity;
    const issues = issuesOf(withColumns({ ...c, amounts }));
    const month = (k: number) => formatMonth(parseMonth(c.from) + k);
    expect(issues).toEqual([
      { path: path("amounts", 0), message: `must be a whole number of minor units (cents) within ±2^53 (account "${c.accounts[0]}", ${month(0)}: 0.5)` },
      { path: path("amounts", 2), message: `must be a whole number of minor units (cents) within ±2^53 (account "${c.accounts[0]}", ${month(2)}: 9007199254740992)` },
      { path: path("amounts", 3), message: `must be a whole number of minor units (cents) within ±2^53 (account "${c.accounts[0]}", ${month(3)}: -Infinity)` },
      { path: path("amounts", c.months + 1), message: `must be a whole number of minor units (cents) within ±2^53 (account "${c.accounts[1]}", ${month(1)}: NaN)` },
    ]);
    const many = c.amounts.slice().fill(0.25);
    const all = issuesOf(withColumns({ ...c, amounts: many }));
    expect(all).toHaveLength(11);
    expect(all.at(-1)).toEqual({ path: path("amounts"), message: `and ${many.length - 10} more amounts that are not whole numbers of minor units within ±2^53` });
    // 2^53 − 1 and −(2^53 − 1) are safe.
    const edge = c.amounts.slice();
    edge[0] = Number.MAX_SAFE_INTEGER;
    edge[1] = -Number.MAX_SAFE_INTEGER;
    expect(() => parseConsolidationInput(withColumns({ ...c, amounts: edge }))).not.toThrow();
  });

  it("balances and balanceColumns both given", () => {
    const input = withColumns(good(), 1, { balances: [{ account: "x", from: "2011-01", amounts: [1] }] });
    expect(issuesOf(input)).toEqual([{ path: ["entities", 1, "balances"], message: "give an entity's balances either as balances or as balanceColumns, not both" }]);
  });

  it("balances left out beside balanceColumns is the same as balances: []", () => {
    const input = base();
    const { balances: _b, ...rest } = input.entities[1]!;
    expect(run({ ...input, entities: [input.entities[0]!, rest as EntityInputJson, ...input.entities.slice(2)] })).toBe(run(input));
  });

  it("an unknown account and an account given twice, by row", () => {
    const c = good();
    const accounts = [...c.accounts];
    accounts[0] = "nope";
    accounts[2] = accounts[1]!;
    // (The rows left without their series then unbalance the books: more issues follow.)
    expect(issuesOf(withColumns({ ...c, accounts })).slice(0, 2)).toEqual([
      { path: path("accounts", 0), message: 'unknown account "nope" (not in this entity\'s accounts)' },
      { path: path("accounts", 2), message: `account "${accounts[1]}" has more than one row` },
    ]);
  });

  it("the rest of the input's problems come first, then the columns'", () => {
    const input = withColumns({ ...good(), from: "x" });
    (input as { reportingCurrency: string }).reportingCurrency = "usd";
    const issues = issuesOf(input);
    expect(issues[0]!.path).toEqual(["reportingCurrency"]);
    expect(issues.at(-1)!.path).toEqual(path("from"));
  });
});
