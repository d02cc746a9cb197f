import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { describeCycle, importCycles, importsOf, sourceGraph } from "./import-graph.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const graph = sourceGraph(root);
const MODULES = "apps/server/src/modules/";
const moduleOf = (file: string) => (file.startsWith(MODULES) ? file.slice(MODULES.length).split("/")[0] : undefined);


describe("reading imports", () => {
  it("sees static, type-only, re-exported and dynamic imports, however they are laid out", () => {
    const text = [
      `import { a,`,
      `  b } from "./a.ts";`,
      `import type { T } from "../t.ts";`,
      `import { type U } from "./u.ts";`,
      `import "./side-effect.ts";`,
      `export { c } from "./c.ts";`,
      `export type { D } from "./d.ts";`,
      `export * from "@groupledger/domain";`,
      `const lazy = () => import("./lazy.tsx");`,
      `const text = "import x from './not-an-import.ts'";`,
    ].join("\n");
    expect(importsOf(text)).toEqual([
      { specifier: "./a.ts", typeOnly: false, dynamic: false },
      { specifier: "../t.ts", typeOnly: true, dynamic: false },
      // Kept as `import {} from "./u.ts"` under verbatimModuleSyntax: it still loads the file.
      { specifier: "./u.ts", typeOnly: false, dynamic: false },
      { specifier: "./side-effect.ts", typeOnly: false, dynamic: false },
      { specifier: "./c.ts", typeOnly: false, dynamic: false },
      { specifier: "./d.ts", typeOnly: true, dynamic: false },
      { specifier: "@groupledger/domain", typeOnly: false, dynamic: false },
      { specifier: "./lazy.tsx", typeOnly: false, dynamic: true },
    ]);
  });

  it("resolves relative and workspace imports of every app and package", () => {
    expect(graph.files.length).toBeGreaterThan(400);
    for (const where of ["apps/server/src/", "apps/web/src/", "packages/domain/src/", "packages/contract/src/", "packages/qbo/src/", "packages/qbo-sandbox/src/"]) {
      expect(graph.files.some((f) => f.startsWith(where)), where).toBe(true);
    }
    const targets = (file: string) => graph.edges.get(file)?.map((e) => e.to) ?? [];
    expect(targets("apps/server/src/app.ts")).toContain("apps/server/src/modules/companies/routes.ts");
    expect(targets("packages/contract/src/index.ts").length).toBeGreaterThan(5);
    expect(targets("apps/server/src/modules/group/group.ts")).toContain("apps/server/src/http/errors.ts");
    // Workspace packages resolve to the file their package.json exports.
    expect(graph.edges.get("apps/server/src/modules/companies/service.ts")?.map((e) => e.to)).toEqual(
      expect.arrayContaining(["packages/contract/src/index.ts", "packages/domain/src/index.ts"]),
    );
  });

  it("finds a loop, from its first file", () => {
    const edge = (to: string) => ({ to, ref: { specifier: to, typeOnly: false, dynamic: false } });
    const toy = {
      root: "",
      files: ["a", "b", "c", "d"],
      edges: new Map([
        ["a", [edge("b")]],
        ["b", [edge("c"), edge("d")]],
        ["c", [edge("a")]],
        ["d", [edge("d")]],
      ]),
    };
    expect(importCycles(toy, () => true).map(describeCycle)).toEqual(["a → b → c → a", "d → d"]);
    expect(importCycles({ ...toy, edges: new Map([["a", [edge("b")]], ["b", [edge("c")]], ["c", []], ["d", []]]) }, () => true)).toEqual([]);
  });
});

describe("architecture", () => {
  // A module's routes.ts and its job handler (sync/handler.ts, runs/job.ts) are entry points the
  // composition root (app.ts) registers; what features share lives in services (group/service.ts,
  // companies/chart.ts, …).
  it("no server module imports another module's routes.ts or job handler", () => {
    const entryPoint = (file: string, module: string) => ["routes.ts", "handler.ts", "job.ts"].some((name) => file === `${MODULES}${module}/${name}`);
    const reaches: string[] = [];
    for (const [from, list] of graph.edges) {
      const mine = moduleOf(from);
      if (!mine) continue;
      for (const { to } of list) {
        const theirs = moduleOf(to);
        if (theirs && theirs !== mine && entryPoint(to, theirs)) reaches.push(`${from} → ${to}`);
      }
    }
    expect(reaches).toEqual([]);
  });

  it("no source file imports itself through others (type-only and dynamic imports count too)", () => {
    expect(importCycles(graph, () => true).map(describeCycle)).toEqual([]);
  });

  // Every web call goes through the contract's declarations (lib/http.ts `call`): a path typed
  // anywhere else could drift from the server's. The only fetch of our API is call's own.
  it("the web reaches the API only through lib/http.ts", () => {
    const web = graph.files.filter((f) => f.startsWith("apps/web/src/") && !/\.test\.tsx?$/.test(f) && !f.includes("/bench/") && f !== "apps/web/src/lib/http.ts");
    const offenders = web.filter((f) => /\bfetch\(\s*[`"']\/api|\bapi\(\s*[`"']\//.test(readFileSync(join(root, f), "utf8")));
    expect(web.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});
