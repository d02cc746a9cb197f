import { readFileSync } from "node:fs";
import type { ConsolidationInputJson } from "../src/index.ts";

/** Reads one of the documented examples under docs/examples (the same files the CLI runs). */
export function loadExample(name: string): ConsolidationInputJson {
  const url = new URL(`../../../docs/examples/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as ConsolidationInputJson;
}
