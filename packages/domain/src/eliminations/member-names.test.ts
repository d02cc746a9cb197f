import { describe, expect, it } from "vitest";
import { namesWithGroupMembers } from "./member-names.ts";

const uk = { realmId: "uk", companyName: "Northwind UK Limited" };
const de = { realmId: "de", companyName: "Northwind Deutschland GmbH" };
const name = (kind: string, displayName: string) => ({ kind, displayName });

describe("a company's customers and vendors as a pair side offers them", () => {
  it("says which group company a name stands for, legal forms, case and punctuation ignored", () => {
    const out = namesWithGroupMembers([name("Customer", "northwind uk ltd."), name("Vendor", "Northwind Deutschland"), name("Customer", "Acme")], [uk, de]);
    expect(out.map((n) => [n.displayName, n.represents])).toEqual([
      ["Northwind Deutschland", de],
      ["northwind uk ltd.", uk],
      ["Acme", null],
    ]);
  });

  it("puts group members first, then by name, then customers before vendors", () => {
    const out = namesWithGroupMembers([name("Vendor", "Zed"), name("Vendor", "Acme"), name("Customer", "Acme"), name("Vendor", "Northwind UK Ltd")], [uk]);
    expect(out.map((n) => `${n.kind} ${n.displayName}`)).toEqual(["Vendor Northwind UK Ltd", "Customer Acme", "Vendor Acme", "Vendor Zed"]);
  });

  it("a name of legal forms only stands for no company, even one named the same way", () => {
    expect(namesWithGroupMembers([name("Customer", "Ltd")], [{ realmId: "x", companyName: "Limited" }])[0]!.represents).toBeNull();
  });

  it("keeps each name's own fields", () => {
    expect(namesWithGroupMembers([{ kind: "Customer", displayName: "Acme", id: "12", active: false }], [])).toEqual([{ kind: "Customer", displayName: "Acme", id: "12", active: false, represents: null }]);
  });
});
