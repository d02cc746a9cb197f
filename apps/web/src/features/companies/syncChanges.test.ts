import type { SyncChanges } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { syncChangesLine } from "./syncChanges.ts";

const base: SyncChanges = { kind: "incremental", reason: null, from: "2025-06", to: "2025-11", months: 6, changed: {}, deleted: 0 };

describe("syncChangesLine", () => {
  it("names what CDC found changed, most first, and the months read again", () => {
    expect(syncChangesLine({ ...base, changed: { Invoice: 1, JournalEntry: 2 } }, "en-US")).toBe("2 journal entries, 1 invoice changed; read Jun 2025 – Nov 2025 (6 months)");
    expect(syncChangesLine({ ...base, changed: { Purchase: 1, CreditMemo: 3, BillPayment: 1 } }, "en-US")).toBe("3 credit memos, 1 bill payment, 1 purchase changed; read Jun 2025 – Nov 2025 (6 months)");
    expect(syncChangesLine({ ...base, from: "2025-11", months: 1 }, "en-US")).toBe("No changes; read Nov 2025");
  });

  it("says why a sync read the whole history", () => {
    const full = { ...base, kind: "full", from: "2023-01", months: 35 } as const;
    expect(syncChangesLine({ ...full, reason: "first_sync" }, "en-US")).toBe("Whole history read (first sync): Jan 2023 – Nov 2025 (35 months)");
    expect(syncChangesLine({ ...full, reason: "cdc_window_passed" }, "en-US")).toBe("Whole history read (the last sync was over 30 days before): Jan 2023 – Nov 2025 (35 months)");
    expect(syncChangesLine({ ...full, reason: "transactions_deleted", deleted: 1 }, "en-US")).toMatch(/^Whole history read \(a transaction was deleted\)/);
    expect(syncChangesLine({ ...full, reason: "transactions_deleted", deleted: 3 }, "en-US")).toMatch(/^Whole history read \(3 transactions were deleted\)/);
  });
});
