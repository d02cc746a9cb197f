import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/**
 * The repository's source import graph, for architecture tests: every TypeScript file under
 * apps/<name>/src and packages/<name>/src, with an edge for each relative import or workspace
 * package import (`@groupledger/<name>` → the file its package.json exports as "."). Imports of
 * other packages (node:, npm) are not edges.
 */

export interface ImportRef {
  specifier: string;
  /** `import type …` / `export type … from`: erased when compiled, so it loads nothing. */
  typeOnly: boolean;
  /** `import("…")`: loaded when called, not when the importing file loads. */
  dynamic: boolean;
}

/** The imports a TypeScript file's text names (static, re-exports and dynamic `import("…")`). */
export function importsOf(text: string, fileName = "file.ts"): ImportRef[] {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const refs: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false, dynamic: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, dynamic: false });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) refs.push({ specifier: arg.text, typeOnly: false, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

export interface SourceGraph {
  root: string;
  /** Repository-relative paths ("apps/server/src/app.ts") of every source file. */
  files: string[];
  /** Each file's resolved imports (repository-relative), in source order, with how they were written. */
  edges: Map<string, { to: string; ref: ImportRef }[]>;
}

const SOURCE = /\.tsx?$/;
const ASSET = /\.(css|json|svg|png|jpe?g|webp|woff2?|html|txt|md)(\?.*)?$/;
const SKIP_DIRS = new Set(["node_modules", "dist", "coverage"]);

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(full);
  }
}

/** The workspaces' names mapped to the file their package.json exports as "." (absolute). */
function workspaceEntries(root: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const group of ["apps", "packages"]) {
    for (const name of readdirSync(join(root, group))) {
      const manifest = join(root, group, name, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; exports?: string | Record<string, string> };
      const main = typeof pkg.exports === "string" ? pkg.exports : pkg.exports?.["."];
      if (pkg.name && main) entries.set(pkg.name, resolve(root, group, name, main));
    }
  }
  return entries;
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, ".ts"), base.replace(/\.jsx?$/, ".tsx"), `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  return candidates.find((c) => SOURCE.test(c) && existsSync(c) && statSync(c).isFile());
}

export function sourceGraph(root: string): SourceGraph {
  const absolute: string[] = [];
  for (const group of ["apps", "packages"]) {
    for (const name of readdirSync(join(root, group))) {
      const src = join(root, group, name, "src");
      if (existsSync(src)) walk(src, absolute);
    }
  }
  const entries = workspaceEntries(root);
  const rel = (p: string) => relative(root, p).split("\\").join("/");
  const edges = new Map<string, { to: string; ref: ImportRef }[]>();
  for (const file of absolute) {
    const list: { to: string; ref: ImportRef }[] = [];
    for (const ref of importsOf(readFileSync(file, "utf8"), file)) {
      let target: string | undefined;
      if (ref.specifier.startsWith(".")) {
        // Stylesheets, JSON and other assets are not source files: no edge, but they must exist.
        if (ASSET.test(ref.specifier) && existsSync(resolve(dirname(file), ref.specifier))) continue;
        target = resolveRelative(file, ref.specifier);
        if (!target) throw new Error(`${rel(file)}: cannot resolve "${ref.specifier}"`);
      } else if (ref.specifier.startsWith("@groupledger/")) {
        target = entries.get(ref.specifier);
        if (!target) throw new Error(`${rel(file)}: no workspace exports "${ref.specifier}"`);
      }
      if (target) list.push({ to: rel(target), ref });
    }
    edges.set(rel(file), list);
  }
  return { root, files: absolute.map(rel).sort(), edges };
}

/**
 * Every import loop, each as the files around it starting from its smallest path (a → b → … → a
 * written without repeating a), sorted. Tarjan's strongly connected components first, then within each
 * one the elementary cycles (Johnson's idea, bounded: a component with more than `limit` of them
 * is reported as the first `limit`, which is enough to fail a test and name the files).
 */
export function importCycles(graph: SourceGraph, keep: (ref: ImportRef) => boolean, limit = 200): string[][] {
  const next = new Map<string, string[]>();
  for (const [from, list] of graph.edges) next.set(from, [...new Set(list.filter((e) => keep(e.ref) && graph.edges.has(e.to)).map((e) => e.to))].sort());

  // Tarjan, iterative enough for a few hundred files (recursion depth = longest import chain).
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strong = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!indexOf.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) components.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!indexOf.has(v)) strong(v);

  const cycles: string[][] = [];
  for (const component of components) {
    const members = new Set(component);
    // Cycles through each start, visiting only members after it (so each cycle is found once).
    for (const [i, start] of component.entries()) {
      const allowed = new Set(component.slice(i));
      const path = [start];
      const search = (v: string): void => {
        for (const w of next.get(v) ?? []) {
          if (cycles.length >= limit || !members.has(w) || !allowed.has(w)) continue;
          if (w === start) cycles.push([...path]);
          else if (!path.includes(w)) {
            path.push(w);
            search(w);
            path.pop();
          }
        }
      };
      search(start);
    }
  }
  return cycles.sort((x, y) => describeCycle(x).localeCompare(describeCycle(y)));
}

/** "a → b → c → a". */
export const describeCycle = (cycle: readonly string[]): string => [...cycle, cycle[0]].join(" → ");
