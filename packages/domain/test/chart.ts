import type { ChartAccount } from "../src/coa/mapping-rules.ts";

/** A QuickBooks account as the domain sees it, active and without a number unless `extra` says otherwise (tests only). */
export const chartAccount = (id: string, name: string, classification: string, accountType: string, accountSubType: string | null = null, extra: Partial<ChartAccount> = {}): ChartAccount => ({
  id,
  name,
  acctNum: null,
  classification,
  accountType,
  accountSubType,
  active: true,
  ...extra,
});
