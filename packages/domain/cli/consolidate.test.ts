import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "./consolidate.ts";

const example = fileURLToPath(new URL("../../../docs/examples/hoyle-swissco-current-rate.json", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "gl-cli-"));

describe("consolidate CLI", () => {
  it("prints the result as JSON", async () => {
    const r = await runCli([example]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).entities[1].cta.closing).toBe(11_900_000);
  });

  it("prints the worksheet as CSV", async () => {
    const r = await runCli([example, "--format", "csv"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("cta,Cumulative translation adjustment,Equity,0.00,-119000.00,0.00,0.00,-119000.00");
    expect(r.stdout.trimEnd().split("\r\n").at(-1)).toBe("Total,,,0.00,0.00,0.00,0.00,0.00");
  });

  it("exits 2 with path and message for invalid input", async () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ reportingCurrency: "USD", period: { month: "2024-13" }, entities: [], designatedAccounts: { cta: "x", fxDifference: "y" } }));
    const r = await runCli([file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("$.period");
    expect(r.stderr).toContain("$.entities: ");
  });

  it("exits 2 for a missing file or non-JSON content", async () => {
    expect(await runCli([join(dir, "nope.json")])).toMatchObject({ code: 2, stderr: expect.stringContaining("no such file") });
    const file = join(dir, "text.json");
    writeFileSync(file, "not json");
    expect(await runCli([file])).toMatchObject({ code: 2, stderr: expect.stringContaining("is not valid JSON") });
    expect((await runCli([])).code).toBe(2);
  });
});
