/**
 * The demo group's customers and vendors ("names"). Each group company is a customer or vendor of
 * the companies it deals with, under its DisplayName exactly as in companies.ts, so the product
 * can find the name that stands for a group member:
 *   - the parent: a customer per subsidiary, "Trade customers" and the vendor "Trade suppliers";
 *   - each subsidiary: the vendor "Northwind Holdings Inc.", "Trade customers", "Trade suppliers";
 *     Germany also has the customer "Northwind UK Ltd", the UK the vendor "Northwind Deutschland GmbH".
 * Ids are QBO's one sequence of name ids, 1, 2, ... in the order listed here: stable across runs.
 * The generator tags lines by key: `Customer:<code>` / `Vendor:<code>` for a group company,
 * `Customer:trade` / `Vendor:trade` for everyone else.
 */
import type { LineEntity, Party, PartyKind } from "../ledger.ts";
import type { DemoCode } from "./companies.ts";
import { profileByCode } from "./companies.ts";

export interface DemoName {
  /** What the generator calls it: "Customer:UK", "Vendor:PARENT", "Customer:trade", ... */
  readonly key: string;
  readonly kind: PartyKind;
  readonly displayName: string;
  /** Set for group companies. */
  readonly companyName?: string | undefined;
}

export const TRADE_CUSTOMERS = "Customer:trade";
export const TRADE_SUPPLIERS = "Vendor:trade";

const SUBSIDIARIES = ["UK", "CA", "DE", "US2"] as const;

function groupName(kind: PartyKind, code: DemoCode): DemoName {
  const name = profileByCode(code).name;
  return { key: `${kind}:${code}`, kind, displayName: name, companyName: name };
}

const TRADE: readonly DemoName[] = [
  { key: TRADE_CUSTOMERS, kind: "Customer", displayName: "Trade customers" },
  { key: TRADE_SUPPLIERS, kind: "Vendor", displayName: "Trade suppliers" },
];

/** The names of one demo company, in id order. */
export function demoNames(code: DemoCode): DemoName[] {
  if (code === "PARENT") return [...SUBSIDIARIES.map((c) => groupName("Customer", c)), ...TRADE];
  return [
    groupName("Vendor", "PARENT"),
    ...TRADE,
    ...(code === "DE" ? [groupName("Customer", "UK")] : []),
    ...(code === "UK" ? [groupName("Vendor", "DE")] : []),
  ];
}

/** The records and the generator's key → line entity map. */
export function demoParties(code: DemoCode, created: number): { parties: Party[]; byKey: Map<string, LineEntity> } {
  const parties: Party[] = [];
  const byKey = new Map<string, LineEntity>();
  demoNames(code).forEach((n, i) => {
    const id = String(i + 1);
    parties.push({
      id,
      kind: n.kind,
      displayName: n.displayName,
      ...(n.companyName === undefined ? {} : { companyName: n.companyName }),
      active: true,
      createTime: created,
      updateTime: created,
      syncToken: 0,
    });
    byKey.set(n.key, { type: n.kind, id });
  });
  return { parties, byKey };
}

export interface DemoCompanyNames {
  readonly realmId: string;
  readonly companyName: string;
  /** In id order. */
  readonly names: readonly { readonly id: string; readonly type: PartyKind; readonly displayName: string }[];
}

/** The demo group's customers and vendors as the product's tests see them: parent first. */
export function demoCustomersAndVendors(): DemoCompanyNames[] {
  return (["PARENT", ...SUBSIDIARIES] as const).map((code) => {
    const p = profileByCode(code);
    return { realmId: p.realmId, companyName: p.name, names: demoNames(code).map((n, i) => ({ id: String(i + 1), type: n.kind, displayName: n.displayName })) };
  });
}
