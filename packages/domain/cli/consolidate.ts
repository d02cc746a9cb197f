// `npm run consolidate -- input.json [--format json|csv]`: prints the consolidation of a group
// described in the documented input format (docs/engine.md). Exit codes: 0 done, 2 bad input
// or unreadable file, 1 an unexpected fault.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ConsolidationInputError, consolidate, formatIssue, parseConsolidationInput, worksheetCsv } from "../src/index.ts";

const USAGE = "usage: npm run consolidate -- path/to/input.json [--format json|csv]";

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCli(args: readonly string[]): Promise<CliResult> {
  let format = "json";
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--format") format = args[++i] ?? "";
    else if (arg.startsWith("--format=")) format = arg.slice("--format=".length);
    else files.push(arg);
  }
  if (files.length !== 1 || (format !== "json" && format !== "csv")) return { code: 2, stdout: "", stderr: `${USAGE}\n` };
  const file = files[0]!;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    return { code: 2, stdout: "", stderr: `cannot read ${file}: ${reason}\n` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { code: 2, stdout: "", stderr: `${file} is not valid JSON: ${(error as Error).message}\n` };
  }
  try {
    const result = consolidate(parseConsolidationInput(json));
    return { code: 0, stdout: format === "csv" ? worksheetCsv(result) : `${JSON.stringify(result, null, 2)}\n`, stderr: "" };
  } catch (error) {
    if (error instanceof ConsolidationInputError) {
      const list = error.issues.map((i) => `  ${formatIssue(i)}`).join("\n");
      return { code: 2, stdout: "", stderr: `${file}: the input has ${error.issues.length} problem(s):\n${list}\n` };
    }
    throw error;
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedDirectly) {
  runCli(process.argv.slice(2)).then(
    (r) => {
      process.stdout.write(r.stdout);
      process.stderr.write(r.stderr);
      process.exitCode = r.code;
    },
    (error: unknown) => {
      process.stderr.write(`unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
