import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PairProposalsView } from "@groupledger/contract";
import { beforeEach, describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, UK_CO } from "../../../test/fixtures.ts";
import { callsTo, refusal, renderRoutes } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { ELIMINATION_PAGE_API, FEES_PAIR, LOAN_PAIR, PARENT, UK } from "./eliminationsFixtures.ts";
import "./EliminationsPage.tsx";

type Proposal = PairProposalsView["proposals"][number];
const side = (realmId: string, companyName: string, accountId: string, account: string, name: Proposal["left"]["name"] = null) => ({ realmId, companyName, accountId, account, name });
const LOAN: Proposal = {
  key: `${PARENT}:22::|${UK}:30::`,
  name: "Northwind UK Ltd loan",
  kind: "receivablePayable",
  left: side(PARENT, PARENT_CO.companyName, "22", '1600 "Intercompany Loan - Northwind UK"'),
  right: side(UK, UK_CO.companyName, "30", '2410 "Loan from Northwind Holdings"'),
  reason: `${PARENT_CO.companyName}'s 1600 "Intercompany Loan - Northwind UK" names Northwind UK Ltd; Northwind UK Ltd's 2410 "Loan from Northwind Holdings" names Northwind Holdings Inc.: loan receivable ↔ loan payable.`,
};
const FEES: Proposal = {
  key: `${PARENT}:56:Customer:2|${UK}:63::`,
  name: "Northwind UK Ltd fees",
  kind: "revenueExpense",
  left: side(PARENT, PARENT_CO.companyName, "56", '4500 "Management Fee Income - Intercompany"', { kind: "Customer", id: "2", displayName: "Northwind UK Ltd" }),
  right: side(UK, UK_CO.companyName, "63", '7603 "Management Charges - Group"'),
  reason: "Both say they are with the group: fee income ↔ fee expense.",
};
const OTHER_FEES: Proposal = { ...FEES, key: `${PARENT}:56:Customer:2|${UK}:64::`, right: side(UK, UK_CO.companyName, "64", '7604 "Recharges - Group"') };
const PROPOSALS: PairProposalsView = {
  proposals: [LOAN, FEES],
  choices: [],
  unmatched: [{ side: side(UK, UK_CO.companyName, "51", '5010 "Purchases - Group Companies"'), reason: "No sales account of another group company names Northwind UK Ltd or says it is with the group: pair it by hand with the account that mirrors it." }],
};
const requestOf = (p: Proposal) => ({
  name: p.name,
  kind: p.kind,
  left: { realmId: p.left.realmId, accountId: p.left.accountId, name: p.left.name ? { kind: p.left.name.kind, id: p.left.name.id } : null },
  right: { realmId: p.right.realmId, accountId: p.right.accountId, name: null },
});

const signIn = (over: Record<string, unknown> = {}) => signedIn({ ...ELIMINATION_PAGE_API, "GET /eliminations/pairs/proposals": PROPOSALS, ...over });
const section = () => screen.findByRole("region", { name: "Proposed pairs" });

screenTestHooks({ today: "2026-11-21T12:00:00Z" });
beforeEach(() => localStorage.clear());

describe("Interco Eliminations: proposed pairs", () => {
  it("lists each proposal with both sides, the name a side is limited to, and the reason; and what is not proposed, with why", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/elimination");
    const table = within(await section()).getByRole("table", { name: "Proposed pairs" });
    const loan = within(table).getByRole("row", { name: /Northwind UK Ltd loan/ });
    expect(loan).toHaveTextContent("Receivable · Northwind Holdings Inc.1600 \"Intercompany Loan - Northwind UK\"");
    expect(loan).toHaveTextContent("loan receivable ↔ loan payable.");
    expect(within(table).getByRole("row", { name: /Northwind UK Ltd fees/ })).toHaveTextContent("only with Northwind UK Ltd (customer)");
    expect(screen.getByTestId("proposals-unmatched")).toHaveTextContent('Northwind UK Ltd · 5010 "Purchases - Group Companies": No sales account of another group company');
  });

  it("accepts all in one request, the server's pair requests, and says what was defined", async () => {
    const all = signIn({ "POST /eliminations/pairs/accept": { created: [LOAN_PAIR, FEES_PAIR], alreadyDefined: [] } });
    renderRoutes(routes, "/consolidation/elimination");
    await userEvent.click(within(await section()).getByRole("button", { name: "Accept all (2)" }));
    await waitFor(() => expect(callsTo(all, "POST", "/eliminations/pairs/accept")).toHaveLength(1));
    expect(callsTo(all, "POST", "/eliminations/pairs/accept")[0]!.body).toEqual({ proposals: [requestOf(LOAN), requestOf(FEES)] });
    expect(await screen.findByTestId("proposals-accepted")).toHaveTextContent("2 pairs defined. The report no longer names their accounts as unpaired.");
    // The pairs, the proposals and the period are read again.
    await waitFor(() => expect(callsTo(all, "GET", "/eliminations/pairs/proposals").length).toBeGreaterThan(1));
    expect(callsTo(all, "GET", "/eliminations/pairs").length).toBeGreaterThan(1);
  });

  it("accepts one, and dismisses another so that Accept all leaves it out, on this browser for good", async () => {
    const all = signIn({ "POST /eliminations/pairs/accept": { created: [], alreadyDefined: [LOAN_PAIR] } });
    const { unmount } = renderRoutes(routes, "/consolidation/elimination");
    const region = await section();
    await userEvent.click(within(region).getByRole("button", { name: "Dismiss Northwind UK Ltd fees" }));
    expect(within(region).queryByRole("row", { name: /Northwind UK Ltd fees/ })).toBeNull();
    await userEvent.click(within(region).getByRole("button", { name: "Accept Northwind UK Ltd loan" }));
    await waitFor(() => expect(callsTo(all, "POST", "/eliminations/pairs/accept")).toHaveLength(1));
    expect(callsTo(all, "POST", "/eliminations/pairs/accept")[0]!.body).toEqual({ proposals: [requestOf(LOAN)] });
    expect(await screen.findByTestId("proposals-accepted")).toHaveTextContent("That pair was already defined.");
    expect(within(region).getByRole("button", { name: "Accept all (1)" })).toBeInTheDocument();
    unmount();
    renderRoutes(routes, "/consolidation/elimination");
    const again = await section();
    expect(within(again).queryByRole("row", { name: /Northwind UK Ltd fees/ })).toBeNull();
    expect(within(again).getByRole("button", { name: "Accept all (1)" })).toBeInTheDocument();
  });

  it("offers each candidate of an account needing a choice, none accepted by Accept all", async () => {
    const all = signIn({
      "GET /eliminations/pairs/proposals": { proposals: [LOAN], choices: [{ side: FEES.left, reason: "2 accounts of Northwind UK Ltd fit it equally well: choose the one it mirrors.", candidates: [FEES, OTHER_FEES] }], unmatched: [] },
      "POST /eliminations/pairs/accept": { created: [FEES_PAIR], alreadyDefined: [] },
    });
    renderRoutes(routes, "/consolidation/elimination");
    const choice = await screen.findByTestId("proposal-choice");
    expect(choice).toHaveTextContent("Needs your choice2 accounts of Northwind UK Ltd fit it equally well");
    expect(within(choice).getAllByRole("button", { name: "Accept Northwind UK Ltd fees" })).toHaveLength(2);
    await userEvent.click(within(choice).getAllByRole("button", { name: "Accept Northwind UK Ltd fees" })[1]!);
    await waitFor(() => expect(callsTo(all, "POST", "/eliminations/pairs/accept")).toHaveLength(1));
    expect(callsTo(all, "POST", "/eliminations/pairs/accept")[0]!.body).toEqual({ proposals: [requestOf(OTHER_FEES)] });
    expect(within(await section()).getByRole("button", { name: "Accept all (1)" })).toBeInTheDocument();
  });

  it("shows the server's refusal, and no section when there is nothing to propose", async () => {
    signIn({ "POST /eliminations/pairs/accept": refusal(409, "pair_exists", "“Northwind UK Ltd loan”: These two accounts are already paired. Nothing was accepted.") });
    const { unmount } = renderRoutes(routes, "/consolidation/elimination");
    await userEvent.click(within(await section()).getByRole("button", { name: "Accept all (2)" }));
    expect(await within(await section()).findByRole("alert")).toHaveTextContent("These two accounts are already paired. Nothing was accepted.");
    unmount();
    signIn({ "GET /eliminations/pairs/proposals": { proposals: [], choices: [], unmatched: [] } });
    renderRoutes(routes, "/consolidation/elimination");
    await screen.findByRole("region", { name: "Intercompany pairs" });
    expect(screen.queryByRole("region", { name: "Proposed pairs" })).toBeNull();
  });
});
