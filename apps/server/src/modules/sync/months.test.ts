import { monthList } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import { chunkMonths } from "./months.ts";

describe("chunkMonths", () => {
  it("cuts a range into consecutive spans of the chunk size, the last one short", () => {
    expect(chunkMonths("2023-11", "2026-10", 12)).toEqual([
      { from: "2023-11", to: "2024-10" },
      { from: "2024-11", to: "2025-10" },
      { from: "2025-11", to: "2026-10" },
    ]);
    expect(chunkMonths("2024-01", "2026-02", 12)).toEqual([
      { from: "2024-01", to: "2024-12" },
      { from: "2025-01", to: "2025-12" },
      { from: "2026-01", to: "2026-02" },
    ]);
  });

  it("covers every month exactly once: no gap and no overlap between chunks", () => {
    const chunks = chunkMonths("2019-07", "2026-10", 36);
    expect(chunks.flatMap((c) => monthList(c.from, c.to))).toEqual(monthList("2019-07", "2026-10"));
    expect(chunks.map((c) => [c.from, c.to])).toEqual([
      ["2019-07", "2022-06"],
      ["2022-07", "2025-06"],
      ["2025-07", "2026-10"],
    ]);
  });

  it("one month is one chunk; a range ending before it starts is none", () => {
    expect(chunkMonths("2026-03", "2026-03", 36)).toEqual([{ from: "2026-03", to: "2026-03" }]);
    expect(chunkMonths("2026-03", "2026-02", 36)).toEqual([]);
  });

  it("a chunk of one month per span lists the months themselves", () => {
    expect(chunkMonths("2025-11", "2026-02", 1).map((c) => c.from === c.to && c.from)).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
  });
});
