import { describe, expect, it } from "vitest";
import type { MonthlyAmount } from "./balances.ts";
import { withoutPosted } from "./own-books.ts";

const closing = (qboAccountId: string, month: string, amountMinor: number): MonthlyAmount => ({ qboAccountId, month, kind: "closing", amountMinor });
const activity = (qboAccountId: string, month: string, amountMinor: number): MonthlyAmount => ({ qboAccountId, month, kind: "activity", amountMinor });

describe("withoutPosted: the parent's own books", () => {
  it("subtracts what the GroupLedger classes hold from the same account, month and kind", () => {
    const all = [closing("35", "2026-01", 500_000), closing("35", "2026-02", 650_000), activity("80", "2026-01", -120_000)];
    const posted = [closing("35", "2026-01", 200_000), activity("80", "2026-01", -20_000)];
    expect(withoutPosted(all, posted)).toEqual([closing("35", "2026-01", 300_000), closing("35", "2026-02", 650_000), activity("80", "2026-01", -100_000)]);
  });

  it("an account only GroupLedger posted to is kept, at minus what was posted, so the two still add up to QuickBooks' figure", () => {
    // e.g. the CTA account, which only the subsidiaries' entries touch: the parent's own books hold nothing there.
    const out = withoutPosted([closing("35", "2026-01", 1000)], [closing("99", "2026-01", -4_321)]);
    expect(out).toEqual([closing("35", "2026-01", 1000), closing("99", "2026-01", 4_321)]);
  });

  it("keeps closing balances and activity apart, even for one account and month", () => {
    const out = withoutPosted([closing("35", "2026-01", 1000), activity("35", "2026-01", 400)], [activity("35", "2026-01", 150)]);
    expect(out).toEqual([closing("35", "2026-01", 1000), activity("35", "2026-01", 250)]);
  });

  it("adds up several posted amounts on one key; an amount entirely GroupLedger's leaves zero, not a missing row", () => {
    const out = withoutPosted([closing("35", "2026-01", 1000)], [closing("35", "2026-01", 600), closing("35", "2026-01", 400)]);
    expect(out).toEqual([closing("35", "2026-01", 0)]);
  });

  it("nothing posted: the books as read; neither input is changed", () => {
    const all = [closing("35", "2026-01", 1000)];
    const posted = [closing("35", "2026-01", 300)];
    expect(withoutPosted(all, [])).toEqual(all);
    withoutPosted(all, posted);
    expect(all).toEqual([closing("35", "2026-01", 1000)]);
    expect(posted).toEqual([closing("35", "2026-01", 300)]);
  });
});
