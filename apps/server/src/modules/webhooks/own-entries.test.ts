import { describe, expect, it } from "vitest";
import { ownDoingOnly, type OwnEntryReads, type Standing } from "./own-entries.ts";

const entry = (id: string, operation: "Create" | "Delete" | "Update", name = "JournalEntry") => ({ name, id, operation, lastUpdated: "2026-03-02T10:00:00.000Z" });

/**
 * Reads over a posting's row as it moves: `timeline` is what each read sees in turn, one step per
 * read of either kind, the last step held. A step: the entries known, and whether a posting is pending.
 */
function reads(timeline: { known: Record<string, Standing>; pending: boolean }[]): OwnEntryReads & { calls: string[] } {
  let step = 0;
  const now = () => timeline[Math.min(step++, timeline.length - 1)]!;
  const calls: string[] = [];
  return {
    calls,
    async known() {
      calls.push("known");
      return new Map(Object.entries(now().known));
    },
    async underWay() {
      calls.push("underWay");
      return now().pending;
    },
  };
}

describe("ownDoingOnly: whether a parent's notification tells only of GroupLedger's own entries", () => {
  it("a Create told while the posting's id is not recorded yet waits for it, then is GroupLedger's", async () => {
    const r = reads([
      { known: {}, pending: true },
      { known: {}, pending: true },
      { known: { "7": "live" }, pending: false },
    ]);
    expect(await ownDoingOnly([entry("7", "Create")], r)).toBe(true);
    expect(r.calls).toEqual(["known", "underWay", "known"]);
  });

  it("the posting recording its id between the two reads (unknown, then nothing pending) is still found", async () => {
    // The race seen on PostgreSQL under load: the id read before the posting's write, the pending
    // rows after it. Answering no there queued a sync of the parent for GroupLedger's own entry.
    const r = reads([
      { known: {}, pending: true },
      { known: { "7": "live" }, pending: false },
      { known: { "7": "live" }, pending: false },
    ]);
    expect(await ownDoingOnly([entry("7", "Create")], r)).toBe(true);
    expect(r.calls).toEqual(["known", "underWay", "known"]);
  });

  it("a Create nobody is posting is a user's: one more look, then no, without waiting", async () => {
    const r = reads([{ known: {}, pending: false }]);
    const started = Date.now();
    expect(await ownDoingOnly([entry("7", "Create")], r)).toBe(false);
    expect(r.calls).toEqual(["known", "underWay", "known"]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("a Create still unknown when the wait is over is a user's: one sync too many, never one missed", async () => {
    const r = reads([{ known: {}, pending: true }]);
    expect(await ownDoingOnly([entry("7", "Create")], r, 120)).toBe(false);
    expect(r.calls.filter((c) => c === "known").length).toBeGreaterThan(1);
  });

  it("Deletes count only for entries GroupLedger retired or is retiring; anything else is the user's", async () => {
    const known = { "1": "retired", "2": "retiring", "3": "live" } as const;
    const answer = (entities: ReturnType<typeof entry>[]) => ownDoingOnly(entities, reads([{ known, pending: false }]));
    expect(await answer([entry("1", "Delete"), entry("2", "Delete")])).toBe(true);
    expect(await answer([entry("3", "Delete")])).toBe(false);
    expect(await answer([entry("3", "Create"), entry("1", "Delete")])).toBe(true);
    expect(await answer([entry("3", "Update")])).toBe(false);
    expect(await answer([entry("3", "Create", "Account")])).toBe(false);
  });
});
