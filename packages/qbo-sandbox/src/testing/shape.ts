/**
 * Structural comparison with the recorded samples: every key path we emit (array positions and
 * report nesting depth folded away) must exist in the sample with the same value type, and keys
 * shared with the sample must come in the sample's order.
 */
import { readFileSync } from "node:fs";

export const SAMPLES = new URL("../../../../../shared/qbo-samples/", import.meta.url);

export function sample(rel: string): unknown {
  const file = JSON.parse(readFileSync(new URL(rel, SAMPLES), "utf8")) as Record<string, unknown>;
  if (rel.startsWith("minimul-qbo_api/")) {
    const response = file["response"] as Record<string, unknown>;
    return response["body_json"] ?? response["body"];
  }
  return file;
}

type Paths = Map<string, { types: Set<string>; orders: string[][] }>;

function fold(path: string): string {
  return path.replace(/(Rows\.Row\[\]\.)+/g, "Rows.Row[].");
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

export function paths(value: unknown, into: Paths = new Map(), at = ""): Paths {
  const key = fold(at);
  let entry = into.get(key);
  if (entry === undefined) into.set(key, (entry = { types: new Set(), orders: [] }));
  entry.types.add(typeOf(value));
  if (Array.isArray(value)) {
    for (const v of value) paths(v, into, `${at}[]`);
  } else if (value !== null && typeof value === "object") {
    entry.orders.push(Object.keys(value));
    for (const [k, v] of Object.entries(value)) paths(v, into, at === "" ? k : `${at}.${k}`);
  }
  return into;
}

export interface ShapeOptions {
  /** Key paths we add on purpose (e.g. Account.AcctNum), with everything below them. */
  readonly extra?: readonly string[];
  /** Intuit's documentation examples reorder keys; only recordings are checked for order. */
  readonly checkOrder?: boolean;
}

/** Problems found; empty when `actual` is structurally a subset of the samples. */
export function shapeProblems(actual: unknown, samples: readonly unknown[], options: ShapeOptions = {}): string[] {
  const extra = options.extra ?? [];
  const want: Paths = new Map();
  for (const s of samples) paths(s, want);
  const got = paths(actual);
  const problems: string[] = [];
  for (const [path, { types, orders }] of got) {
    if (extra.some((e) => path === e || path.startsWith(`${e}.`) || path.startsWith(`${e}[]`))) continue;
    const w = want.get(path);
    if (w === undefined) {
      problems.push(`unexpected key path ${path}`);
      continue;
    }
    for (const t of types) if (!w.types.has(t) && !(t === "array" && w.types.has("array"))) problems.push(`${path}: type ${t}, sample has ${[...w.types].join("|")}`);
    if (options.checkOrder === false) continue;
    for (const order of orders) {
      const overlap = (o: string[]): number => order.filter((k) => o.includes(k)).length;
      const reference = [...w.orders].sort((a, b) => overlap(b) - overlap(a))[0] ?? [];
      const shared = order.filter((k) => reference.includes(k));
      const expected = reference.filter((k) => shared.includes(k));
      if (shared.join(",") !== expected.join(",")) problems.push(`${path}: key order ${shared.join(",")} vs sample ${expected.join(",")}`);
    }
  }
  return [...new Set(problems)];
}

/** Key paths of the sample that `actual` lacks (to catch an emitter that drops required structure). */
export function missingPaths(actual: unknown, sampleValue: unknown, required: readonly string[]): string[] {
  const got = paths(actual);
  const have = paths(sampleValue);
  return required.filter((p) => have.has(p) && !got.has(p));
}
