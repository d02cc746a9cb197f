import type { SegmentActivity } from "../src/index.ts";

/**
 * The segment examples' December 2024 classes on nci-80-intercompany (US parent, 80 % UK
 * subsidiary in GBP, December's average 1.28): derived, not published (docs/engine.md "Segments").
 * Used by the P&L by segment and by the cash flow and changes in equity by segment.
 */
export const dec = (entity: string, account: string, segment: string, amount: number): SegmentActivity => ({ entity, account, segment, month: "2024-12", amount });

export const DECEMBER: SegmentActivity[] = [
  // The parent's sales: $70,000 wholesale (spelled in lower case, with a trailing space), $30,000 untagged.
  dec("p", "sales", "wholesale ", -70_000_00),
  dec("p", "ic-purchases", "Wholesale", 63_500_00),
  // The UK's sales: £150,000 Wholesale, £60,000 Retail, £40,000 untagged; its intra-group sales Wholesale.
  dec("uk", "4000", "Wholesale", -150_000_00),
  dec("uk", "4000", "Retail", -60_000_00),
  dec("uk", "4100", "Wholesale", -50_000_00),
  // Operating expenses: £80,000.33 Retail (1.28 × 80,000.33 = 102,400.4224: rounds), the rest untagged.
  dec("uk", "5000", "Retail", 80_000_33),
];
