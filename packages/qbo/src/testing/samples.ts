import { readdirSync, readFileSync } from "node:fs";

/** /work/main/packages/qbo/src/testing -> /work/shared/qbo-samples (the recorded wire format). */
export const SAMPLES = new URL("../../../../../shared/qbo-samples/", import.meta.url);

export function readSample(rel: string): unknown {
  return JSON.parse(readFileSync(new URL(rel, SAMPLES), "utf8")) as unknown;
}

export function listSamples(dir: string, keep: (name: string) => boolean = () => true): string[] {
  return readdirSync(new URL(`${dir}/`, SAMPLES))
    .filter((name) => name.endsWith(".json") && keep(name))
    .map((name) => `${dir}/${name}`)
    .sort();
}

/** One recorded exchange of minimul/qbo_api's cassettes. */
export interface RecordedExchange {
  readonly request: { readonly method: string; readonly uri: string; readonly body: string };
  readonly response: { readonly status: { readonly code: number }; readonly headers: Record<string, string[]>; readonly body_json: unknown };
}

export function readExchange(rel: string): RecordedExchange {
  return readSample(rel) as RecordedExchange;
}
