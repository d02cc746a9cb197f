import type { z } from "zod";

/** One problem in the input, located by its JSON path (e.g. ["entities", 1, "balances", 0]). */
export interface InputIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Thrown when the input cannot be consolidated; carries every problem found, not just the first. */
export class ConsolidationInputError extends Error {
  readonly issues: readonly InputIssue[];
  constructor(issues: readonly InputIssue[]) {
    super(`The consolidation input has ${issues.length} problem(s):\n${issues.map(formatIssue).join("\n")}`);
    this.name = "ConsolidationInputError";
    this.issues = issues;
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** $.entities[1].rates["2024-01"] style path, the form JSON tools (jq, JSONPath) understand. */
export function formatPath(path: readonly (string | number | symbol)[]): string {
  let out = "$";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (typeof part === "string" && IDENTIFIER.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

export function formatIssue(issue: InputIssue): string {
  return `${formatPath(issue.path)}: ${issue.message}`;
}

export function issuesFromZod(error: z.ZodError): InputIssue[] {
  return error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: i.message,
  }));
}

/** Collects issues while checking, so one run reports everything that is wrong. */
export class IssueList {
  readonly items: InputIssue[] = [];
  add(path: readonly (string | number)[], message: string): void {
    this.items.push({ path, message });
  }
  get empty(): boolean {
    return this.items.length === 0;
  }
  throwIfAny(): void {
    if (this.items.length) throw new ConsolidationInputError(this.items);
  }
}
