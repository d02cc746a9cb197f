import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Intragroup } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { refusal, renderRoutes } from "../../../test/render.tsx";
import { listboxOf } from "../../../test/select.ts";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { ELIMINATION_PAGE_API, PARENT, UK } from "../../eliminations/components/eliminationsFixtures.ts";
import "../../eliminations/components/EliminationsPage.tsx";

const DATA: Intragroup = {
  assetAccounts: [
    { accountId: "12", name: "Inventory Asset", acctNum: "1200" },
    { accountId: "22", name: "Intercompany Loan - Northwind UK", acctNum: "1600" },
  ],
  expenseAccounts: [{ accountId: "70", name: "Cost of Goods Sold", acctNum: "5000" }],
  revenueAccounts: [{ accountId: "88", name: "Dividend Income - Subsidiaries", acctNum: "8020" }],
  parentCustomers: [{ id: "c-uk", displayName: "Northwind UK Ltd" }],
  proposedInventoryAccountId: "12",
  proposedCogsAccountId: "70",
  inventory: [
    { id: "7f000000-0000-4000-8000-000000000001", sellerRealmId: PARENT, sellerName: "Northwind Holdings Inc.", buyerRealmId: UK, buyerName: "Northwind UK Ltd", currency: "GBP", month: "2025-12", inventory: 1_000_000, margin: "0.2", unrealisedProfit: 200_000, inventoryAccountId: "12", cogsAccountId: "70" },
  ],
  dividends: [
    {
      realmId: UK,
      companyName: "Northwind UK Ltd",
      saved: null,
      proposal: { incomeAccountId: "88", nameId: "c-uk" },
      reasons: ['Income account: 8020 "Dividend Income - Subsidiaries", the parent\'s revenue account of detail type Dividend income.'],
    },
  ],
};

const signIn = (over: Record<string, unknown> = {}) => signedIn({ ...ELIMINATION_PAGE_API, "GET /intragroup": DATA, ...over });

screenTestHooks({ today: "2026-11-21T12:00:00Z" });

async function pick(scope: HTMLElement, field: string, option: string) {
  const input = within(scope).getByRole("textbox", { name: field });
  await userEvent.click(input);
  const listbox = await listboxOf(input);
  await userEvent.click(await within(listbox).findByRole("option", { name: option, hidden: true }));
  await waitFor(() => expect(input).toHaveValue(option));
}

describe("Interco Eliminations: intra-group trade", () => {
  it("lists the stock held with its unrealised profit, and records a new line in the buyer's minor units with the margin as a fraction", async () => {
    const all = signIn({ "PUT /intragroup/inventory": { ...DATA.inventory[0], month: "2026-03" } });
    renderRoutes(routes, "/consolidation/elimination");
    const section = await screen.findByRole("region", { name: "Intra-group stock held" });
    const row = within(within(section).getByRole("table", { name: "Stock held" })).getAllByRole("row")[1]!;
    expect(row).toHaveTextContent("2025-12Northwind Holdings Inc. → Northwind UK Ltd£10,000.0020%£2,000.00");

    await pick(section, "Sold by", "Northwind Holdings Inc. (USD)");
    await pick(section, "Held by", "Northwind UK Ltd (GBP)");
    await userEvent.type(within(section).getByRole("textbox", { name: "Held at the end of" }), "2026-03");
    await userEvent.type(within(section).getByRole("textbox", { name: "Stock at transfer price (GBP)" }), "12,500.50");
    await userEvent.type(within(section).getByRole("textbox", { name: /Seller's margin/ }), "12.5");
    expect(within(section).getByRole("textbox", { name: "Parent's inventory account" })).toHaveValue("1200 Inventory Asset");
    await userEvent.click(within(section).getByRole("button", { name: "Record stock held" }));
    await waitFor(() => expect(all.filter((c) => c.method === "PUT" && c.path === "/intragroup/inventory")).toHaveLength(1));
    expect(all.find((c) => c.method === "PUT" && c.path === "/intragroup/inventory")!.body).toEqual({
      sellerRealmId: PARENT,
      buyerRealmId: UK,
      month: "2026-03",
      inventory: 1_250_050,
      margin: "0.125",
      inventoryAccountId: "12",
      cogsAccountId: "70",
    });
  });

  it("names what it cannot send, and shows the server's refusal on its field", async () => {
    signIn({
      "PUT /intragroup/inventory": refusal(400, "invalid_intragroup_inventory", "Account 12 is not in the chart.", {
        fields: [{ path: "inventoryAccountId", message: "Account 12 is not in the chart." }],
      }),
    });
    renderRoutes(routes, "/consolidation/elimination");
    const section = await screen.findByRole("region", { name: "Intra-group stock held" });
    await userEvent.click(within(section).getByRole("button", { name: "Record stock held" }));
    expect(await within(section).findByText("Choose the company that sold the goods.")).toBeInTheDocument();
    expect(within(section).getByText(/Enter the seller's margin/)).toBeInTheDocument();

    await pick(section, "Sold by", "Northwind Holdings Inc. (USD)");
    await pick(section, "Held by", "Northwind UK Ltd (GBP)");
    await userEvent.type(within(section).getByRole("textbox", { name: "Held at the end of" }), "2026-03");
    await userEvent.type(within(section).getByRole("textbox", { name: "Stock at transfer price (GBP)" }), "100");
    await userEvent.type(within(section).getByRole("textbox", { name: /Seller's margin/ }), "25");
    await userEvent.click(within(section).getByRole("button", { name: "Record stock held" }));
    expect(await within(section).findByRole("alert")).toHaveTextContent("Account 12 is not in the chart.");
    expect(within(section).getByRole("textbox", { name: "Held at the end of" })).toHaveValue("2026-03"); // nothing typed is lost
  });

  it("proposes where the parent books each subsidiary's dividends and confirms it", async () => {
    const all = signIn({ [`PUT /intragroup/dividends/${UK}`]: { ...DATA.dividends[0], saved: DATA.dividends[0]!.proposal } });
    renderRoutes(routes, "/consolidation/elimination");
    const article = await screen.findByRole("article", { name: "Dividends of Northwind UK Ltd" });
    expect(within(article).getByText("Proposed from the books")).toBeInTheDocument();
    expect(within(article).getByRole("textbox", { name: "Parent's income account" })).toHaveValue("8020 Dividend Income - Subsidiaries");
    expect(within(article).getByRole("textbox", { name: /Parent's customer for it/ })).toHaveValue("Northwind UK Ltd");
    expect(article).toHaveTextContent("the parent's revenue account of detail type Dividend income");
    await userEvent.click(within(article).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(all.filter((c) => c.method === "PUT" && c.path === `/intragroup/dividends/${UK}`)).toHaveLength(1));
    expect(all.find((c) => c.method === "PUT")!.body).toEqual({ incomeAccountId: "88", nameId: "c-uk" });
  });
});
