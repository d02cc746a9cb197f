import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BoardPack } from "@groupledger/domain";
import { renderBoardPackPdf } from "./pdf.ts";

const hasPoppler = (() => {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

function textOf(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), "board-pack-pdf-"));
  writeFileSync(join(dir, "p.pdf"), pdf);
  return execFileSync("pdftotext", ["-layout", join(dir, "p.pdf"), "-"], { encoding: "utf8" });
}

const long = `Intercompany Loan - ${"Very Long Subsidiary Name ".repeat(3)}end`;
const pack: BoardPack = {
  groupName: "Northwind (Holdings) <Inc> /Type /Page",
  period: { from: "2026-01", to: "2026-03", label: "January 2026 to March 2026" },
  currency: "USD",
  generatedAt: "2026-04-01T08:00:00.000Z",
  sections: [
    {
      id: "balance-sheet",
      title: "Consolidated balance sheet",
      intro: "Balances at the end of the period.",
      tables: [
        {
          caption: "Consolidated balance sheet",
          columns: ["", "January 2026 to March 2026", "January 2025 to March 2025"],
          rows: [
            { kind: "heading", label: "Assets", cells: [] },
            ...Array.from({ length: 120 }, (_, i) => ({ kind: "line" as const, label: i === 3 ? long : `Account ${i + 1}`, cells: [`$${i + 1},000.00`, "($12,345,678.90)"] })),
            { kind: "total", label: "Total assets", cells: ["$7,260,000.00", "($1,481,481,468.00)"] },
          ],
        },
      ],
      chart: null,
      notes: ["Balanced."],
    },
    {
      id: "chart",
      title: "Key figures",
      intro: "The period's key figures.",
      tables: [],
      chart: { title: "Key figures", series: ["Now", "Before"], groups: [{ label: "Net income", values: [-5_000_00, 10_000_00], texts: ["($5,000.00)", "$10,000.00"] }] },
      notes: [],
    },
  ],
};

describe("the board pack's PDF", () => {
  it("is a PDF whose progress is told per section", async () => {
    const told: string[] = [];
    const pdf = await renderBoardPackPdf(pack, async (done, of) => void told.push(`${done}/${of}`));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(told).toEqual(["1/2", "2/2"]);
  });

  it.skipIf(!hasPoppler)("runs a long table onto further pages with its headings again, wraps long names, keeps amounts whole and the names as text", async () => {
    const text = textOf(await renderBoardPackPdf(pack));
    const pages = text.split("\f").filter((p) => p.trim());
    expect(pages.length).toBeGreaterThanOrEqual(4); // cover, the balance sheet over 2+ pages, the chart
    const withHeadings = pages.filter((p) => p.includes("January 2025 to")); // the heading wraps in its column
    expect(withHeadings.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain("Northwind (Holdings) <Inc> /Type /Page");
    expect(text).toContain("($1,481,481,468.00)");
    expect(text).toMatch(/Account 120\s+\$120,000\.00\s+\(\$12,345,678\.90\)/);
    // The long name wraps onto a second line within its column: its start and end are both there.
    expect(text).toContain("Intercompany Loan - Very Long Subsidiary Name");
    expect(text).toContain("end");
    expect(pages.at(-1)).toContain(`page ${pages.length} of ${pages.length}`);
  });
});
