import type { Company, CompanyAccount, ObalState, PostingSummary, RunDetail, RunPreview } from "@groupledger/contract";
import { OBAL, PARENT_CO, UK_CO } from "../../../test/fixtures.ts";

export const CA_CO: Company = { ...UK_CO, realmId: "9341453172384031", companyName: "Northwind Canada Inc.", homeCurrency: "CAD", country: "CA" };
/** Opening balances locked at December 2025 (the parent's fiscal year is the calendar year). */
export const LOCKED_DEC: ObalState = { ...OBAL, year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12, posted: { [UK_CO.realmId]: true, [CA_CO.realmId]: true } };
export const COMPANIES = [PARENT_CO, UK_CO, CA_CO];
export const UK = UK_CO.realmId;
export const CA = CA_CO.realmId;

export function posting(over: Partial<PostingSummary> & { label: string }): PostingSummary {
  const { label, ...rest } = over;
  return {
    id: `0000000${label.replace(/\D/g, "")}`.slice(-8) + "-0000-4000-8000-000000000000",
    realmId: UK,
    companyName: UK_CO.companyName,
    period: { kind: "month", from: label, to: label, label },
    status: "posted",
    journalEntryId: "301",
    journalEntryUrl: "https://app.qbo.intuit.com/app/journal?txnId=301",
    docNumber: `CR${label.replace("-", "")}-384023`,
    postedAt: "2026-02-05T09:30:00.000Z",
    postedBy: "controller@northwind.example",
    runId: null,
    stale: null,
    ...rest,
  };
}

/**
 * UK's February 2026 in USD: the month's translated movements and the CTA change of 770.01 USD
 * credit, whose explanation (two months for a quarter would read the same way) adds up exactly.
 */
export const UK_FEB: RunPreview = {
  realmId: UK,
  companyName: UK_CO.companyName,
  currency: "GBP",
  parentCurrency: "USD",
  period: { kind: "month", from: "2026-02", to: "2026-02", label: "2026-02" },
  docNumber: "CR202602-384023",
  txnDate: "2026-02-28",
  ok: true,
  problems: [],
  entry: {
    lines: [
      { account: "35", name: "Checking", debit: 2_770_01, credit: 0 },
      { account: "79", name: "Sales", debit: 0, credit: 2_000_00 },
      { account: "89", name: "Accumulated OCI", debit: 0, credit: 770_01 },
    ],
    totalDebit: 2_770_01,
    totalCredit: 2_770_01,
    memo: "Northwind UK Ltd 2026-02 translated",
  },
  cta: {
    account: "89",
    name: "Accumulated OCI",
    change: 770_01,
    months: [
      {
        month: "2026-02",
        openingNetAssetsLocal: 700_000_00,
        previousClosingRate: "1.2650",
        closingRate: "1.2660",
        averageRate: "1.2600",
        openingNetAssets: 700_00,
        netIncome: 70_00,
        dividends: 0,
        equityMovements: 0,
        rounding: 1,
        change: 770_01,
      },
    ],
    total: { openingNetAssets: 700_00, netIncome: 70_00, dividends: 0, equityMovements: 0, rounding: 1, change: 770_01 },
  },
  netIncome: { local: 1_587_30, translated: 2_000_00 },
  posted: null,
};

export const POSTED_FEB = posting({ label: "2026-02", journalEntryId: "302", journalEntryUrl: "https://app.qbo.intuit.com/app/journal?txnId=302" });

type Item = RunDetail["items"][number];
const item = (seq: number, realmId: string, month: string, status: Item["status"], message: string | null = null, je: string | null = null): Item => ({
  seq,
  realmId,
  companyName: realmId === UK ? UK_CO.companyName : CA_CO.companyName,
  month,
  label: month,
  status,
  message,
  journalEntryId: je,
  journalEntryUrl: je ? `https://app.qbo.intuit.com/app/journal?txnId=${je}` : null,
});

/** A run of UK and Canada over February and March 2026 as it goes: `done` items finished. */
export function runAt(done: number, status: RunDetail["status"] = done < 4 ? "running" : "succeeded"): RunDetail {
  const outcomes: Item[] = [
    item(0, UK, "2026-02", "skipped", "Already posted as entry CR202602-384023; skipped as a duplicate.", "302"),
    item(1, CA, "2026-02", "posted", null, "401"),
    item(2, UK, "2026-03", "posted", null, "303"),
    item(3, CA, "2026-03", "posted", null, "402"),
  ];
  const items = outcomes.map((o, i) => (i < done ? o : { ...o, status: "pending" as const, message: null, journalEntryId: null, journalEntryUrl: null }));
  const counts = { total: 4, pending: 4 - done, posted: 0, skipped: 0, failed: 0 };
  for (const i of items) if (i.status !== "pending") counts[i.status]++;
  return {
    id: "7b0c4a52-1d7e-4f0e-9a51-2c8d3f6e9a10",
    kind: "post",
    trigger: "user",
    status,
    from: "2026-02",
    to: "2026-03",
    realmIds: [UK, CA],
    createdAt: "2026-11-21T10:00:00.000Z",
    createdBy: "controller@northwind.example",
    finishedAt: status === "succeeded" ? "2026-11-21T10:01:00.000Z" : null,
    counts,
    progress: done / 4,
    message: status === "succeeded" ? "3 posted, 1 skipped, 0 failed" : null,
    items,
  };
}

const account = (Id: string, acctNum: string | null, name: string, classification: string): CompanyAccount => ({
  Id,
  name,
  fullyQualifiedName: name,
  acctNum,
  accountType: classification,
  accountSubType: null,
  classification,
  currency: "USD",
  active: true,
  everHadBalance: true,
  latestAmount: 0,
  latestMonth: "2026-02",
});

/** The parent's chart: lines are labelled by these numbers, never by QuickBooks ids (Sales has none). */
export const PARENT_ACCOUNTS: CompanyAccount[] = [
  account("35", "1010", "Checking", "Asset"),
  account("79", null, "Sales", "Revenue"),
  account("89", "3600", "Accumulated OCI", "Equity"),
];
