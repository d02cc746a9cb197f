import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * Issue 18: `npm install` warned EBADENGINE (cookie@2 and content-disposition@3 need Node 22) while
 * the README and `engines` promise Node 20.19+, which CI runs. Every package the lockfile installs
 * must run on the oldest Node the project supports.
 */
const root = new URL("../../../", import.meta.url);
const read = (path: string) => JSON.parse(readFileSync(new URL(path, root), "utf8")) as Record<string, unknown>;

describe("Node versions", () => {
  const minimum = semver.minVersion((read("package.json") as { engines: { node: string } }).engines.node)!.version;

  it("the README states the same minimum as package.json's engines", () => {
    const readme = readFileSync(new URL("README.md", root), "utf8");
    const [major, minor] = minimum.split(".");
    expect(readme).toContain(`Node.js ${major}.${minor}+`);
  });

  it(`every locked package runs on Node ${minimum}`, () => {
    const lock = read("package-lock.json") as { packages: Record<string, { version?: string; engines?: { node?: string } | string[]; dev?: boolean }> };
    const refused = Object.entries(lock.packages)
      .filter(([path]) => path.includes("node_modules/"))
      .flatMap(([path, p]) => {
        const range = p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined;
        return range && !semver.satisfies(minimum, range) ? [`${path.slice(path.lastIndexOf("node_modules/") + 13)}@${p.version} needs Node ${range}`] : [];
      });
    expect(refused).toEqual([]);
  });
});
