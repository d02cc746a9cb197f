import * as contract from "@groupledger/contract";
import { isEndpoint, type Endpoint } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { useTestApp } from "./app.ts";

// The contract declares every API endpoint once (packages/contract endpoint.ts); the server
// registers its routes from those declarations. This holds both sides to it.

const declared: [string, Endpoint][] = Object.entries(contract as Record<string, unknown>).flatMap(([name, value]) =>
  isEndpoint(value) ? [[name, value] as [string, Endpoint]] : [],
);
const key = (method: string, url: string) => `${method} ${url}`;

describe("routes declared once, in the contract", () => {
  const t = useTestApp("pglite");

  it("declares each endpoint once: no two declarations share a method and path", () => {
    const seen = new Map<string, string>();
    for (const [name, e] of declared) {
      const k = key(e.method, e.path);
      expect(seen.get(k), `${name} repeats ${k}`).toBeUndefined();
      seen.set(k, name);
    }
    expect(declared.length).toBeGreaterThan(0);
  });

  it("registers every declared endpoint at /api + its path, with its method", () => {
    const registered = new Set(t.app.routePolicies.map((p) => key(p.method, p.url)));
    const missing = declared.filter(([, e]) => !registered.has(key(e.method, `/api${e.path}`))).map(([name, e]) => `${name}: ${e.method} ${e.path}`);
    expect(missing).toEqual([]);
  });

  it("serves no /api route the contract does not declare (the OpenAPI document and its UI apart)", () => {
    const declaredKeys = new Set(declared.map(([, e]) => key(e.method, `/api${e.path}`)));
    const undeclared = t.app.routePolicies
      .filter((p) => !p.url.startsWith("/api/docs") && !declaredKeys.has(key(p.method, p.url)))
      .map((p) => key(p.method, p.url));
    expect(undeclared).toEqual([]);
  });

  it("declares the params of a path exactly: each :param has a schema field and nothing else", () => {
    for (const [name, e] of declared) {
      const inPath = contract.paramNames(e.path).sort();
      const inSchema = Object.keys(e.params?.shape ?? {}).sort();
      expect(inSchema, name).toEqual(inPath);
    }
  });
});
