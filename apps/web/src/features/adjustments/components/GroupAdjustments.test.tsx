import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AdjustmentsView } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { shellApi } from "../../../test/fixtures.ts";
import { renderRoutes } from "../../../test/render.tsx";
import { ELIMINATION_PAGE_API, elimPosting, UK } from "../../eliminations/components/eliminationsFixtures.ts";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import "../../eliminations/components/EliminationsPage.tsx";

const JAN: AdjustmentsView = {
  period: { kind: "month", from: "2026-01", to: "2026-01", label: "2026-01" },
  parentCurrency: "USD",
  ok: true,
  problems: [],
  warnings: ["No acquisition is recorded for Northwind Retail LLC: its investment stays in the consolidated balance sheet."],
  adjustments: [
    {
      id: `acquisition:${UK}`,
      kind: "investment",
      description: "Eliminate investment in Northwind UK Ltd against its equity at acquisition",
      details: { cost: 150_000_000, goodwillAtAcquisition: 25_000_000 },
      lines: [
        { account: "31", name: "Common Stock", amount: 121_622_000, explanation: "Northwind UK Ltd's Ordinary Shares at acquisition (2023-01), eliminated against the investment: pre-acquisition equity is not the group's." },
        { account: "70", name: "Retained Earnings", amount: 3_378_000, explanation: "Northwind UK Ltd's Profit and Loss Reserve at acquisition (2023-01), eliminated against the investment." },
        { account: "80", name: "Investment in Northwind UK Ltd", amount: -150_000_000, explanation: "The parent's investment in Northwind UK Ltd, its consideration $1,500,000.00, eliminated." },
        { account: "81", name: "Goodwill", amount: 25_000_000, explanation: "Goodwill on acquiring Northwind UK Ltd: consideration + NCI at acquisition − net assets acquired." },
      ],
    },
  ],
  entry: {
    docNumber: "GA2026-01",
    txnDate: "2026-01-31",
    lines: [
      { account: "31", name: "Common Stock", debit: 121_622_000, credit: 0 },
      { account: "70", name: "Retained Earnings", debit: 3_378_000, credit: 0 },
      { account: "80", name: "Investment in Northwind UK Ltd", debit: 0, credit: 150_000_000 },
      { account: "81", name: "Goodwill", debit: 25_000_000, credit: 0 },
    ],
  },
  posted: null,
};

const signIn = (over: Record<string, unknown> = {}) => signedIn({ ...ELIMINATION_PAGE_API, "GET /consolidation/adjustments": JAN, ...over });

screenTestHooks({ today: "2026-11-21T12:00:00Z" });

describe("Interco Eliminations: group adjustments", () => {
  it("explains every line of each adjustment, says what to read with them, and shows the balanced entry", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/elimination");
    const section = await screen.findByRole("region", { name: "Adjustments of the period" });
    const table = within(section).getByRole("table", { name: "Eliminate investment in Northwind UK Ltd against its equity at acquisition" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(4);
    expect(rows[2]).toHaveTextContent("Investment in Northwind UK Ltd$1,500,000.00The parent's investment in Northwind UK Ltd");
    expect(rows[3]).toHaveTextContent("Goodwill$250,000.00Goodwill on acquiring Northwind UK Ltd");
    expect(within(section).getByTestId("adjustment-warnings")).toHaveTextContent("No acquisition is recorded for Northwind Retail LLC");
    const entry = screen.getByRole("region", { name: "Group adjustment entry" });
    expect(entry).toHaveTextContent('Entry GA2026-01 dated 2026-01-31, in USD, every line under the class "Group adjustments".');
    expect(within(entry).getByTestId("balanced")).toHaveTextContent("Balanced");
    expect(within(entry).getByTestId("entry-totals")).toHaveTextContent("Total$1,500,000.00$1,500,000.00");
  });

  it("posts the entry once and links to it; a posted period is not offered again", async () => {
    const posted = elimPosting({ realmId: "adjustments", companyName: "Group adjustments", docNumber: "GA2026-01", period: JAN.period });
    const all = signIn({ "POST /consolidation/adjustments/post": { outcome: "posted", posting: posted } });
    renderRoutes(routes, "/consolidation/elimination");
    const entry = await screen.findByRole("region", { name: "Group adjustment entry" });
    await userEvent.click(within(entry).getByRole("button", { name: "Post to QuickBooks" }));
    const outcome = await within(entry).findByTestId("post-outcome");
    expect(outcome).toHaveTextContent("The group adjustments of 2026-01 are posted to the parent's QuickBooks as entry GA2026-01.");
    expect(all.filter((c) => c.method === "POST" && c.path === "/consolidation/adjustments/post")[0]?.body).toEqual({ period: { kind: "month", year: 2026, month: 1 } });
  });

  it("says why Post is off: already posted, or nothing recorded", async () => {
    signIn({ "GET /consolidation/adjustments": { ...JAN, posted: elimPosting({ docNumber: "GA2026-01" }) } });
    renderRoutes(routes, "/consolidation/elimination");
    const entry = await screen.findByRole("region", { name: "Group adjustment entry" });
    await waitFor(() => expect(within(entry).getByTestId("post-blocked")).toHaveTextContent("Already posted: GA2026-01"));
    expect(within(entry).getByRole("button", { name: "Post to QuickBooks" })).toBeDisabled();
  });

  it("with no acquisition recorded, points to Acquisitions", async () => {
    signIn({ "GET /consolidation/adjustments": { ...JAN, adjustments: [], entry: null, warnings: ["No subsidiary acquired by 2026-01 has its acquisition recorded."] } });
    renderRoutes(routes, "/consolidation/elimination");
    const entry = await screen.findByRole("region", { name: "Group adjustment entry" });
    expect(within(entry).getByTestId("post-blocked")).toHaveTextContent("Confirm the subsidiaries' acquisitions on Setup → Acquisitions first");
    // Scoped: the side navigation has an "Acquisitions" link too.
    expect(within(screen.getByRole("region", { name: "Group adjustments" })).getByRole("link", { name: "Acquisitions" })).toHaveAttribute("href", "/setup/acquisitions");
  });
});

describe("Interco Eliminations: changed group adjustments", () => {
  /** January's adjustments as posted (entry `id`), found changed since: the investment moved by $1,000.00. */
  const changedJan = (id: string) =>
    elimPosting({
      id,
      realmId: "adjustments",
      companyName: "Group adjustments",
      docNumber: "GA2026-01",
      period: JAN.period,
      stale: { detectedAt: "2026-02-03T09:00:00.000Z", changes: [{ account: "80", name: "Investment in Northwind UK Ltd", posted: -150_000_000, now: -150_100_000 }] },
    });

  it("shows what changed and replaces the entry only after approval", async () => {
    const posted = changedJan("9a000000-0000-4000-8000-000000000077");
    const all = signIn({
      "GET /consolidation/adjustments": { ...JAN, posted },
      [`POST /consolidation/adjustments/${posted.id}/repost`]: { outcome: "posted", posting: { ...posted, stale: null } },
    });
    renderRoutes(routes, "/consolidation/elimination");
    const changed = await screen.findByTestId("adjustments-changed");
    await userEvent.click(within(changed).getByRole("button", { name: "Review and replace" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("table", { name: "Changes in 2026-01" })).toHaveTextContent("Investment in Northwind UK Ltd");
    const replace = within(dialog).getByRole("button", { name: "Replace entry" });
    expect(replace).toBeDisabled();
    await userEvent.click(within(dialog).getByRole("checkbox"));
    await userEvent.click(replace);
    await waitFor(() => expect(all.filter((c) => c.method === "POST" && c.path === `/consolidation/adjustments/${posted.id}/repost`)).toHaveLength(1));
    expect(all.find((c) => c.path === `/consolidation/adjustments/${posted.id}/repost`)!.body).toEqual({ approve: true });
  });

  it("a member sees Review and replace off, with the reason", async () => {
    const posted = changedJan("9a000000-0000-4000-8000-000000000078");
    signIn({ "GET /session": { ...shellApi()["GET /session"], permissionLevel: 0 }, "GET /consolidation/adjustments": { ...JAN, posted } });
    renderRoutes(routes, "/consolidation/elimination");
    const changed = await screen.findByTestId("adjustments-changed");
    const replace = within(changed).getByRole("button", { name: "Review and replace" });
    expect(replace).toBeDisabled();
    expect(replace.closest("[data-admin-only]")).toHaveAttribute("aria-label", expect.stringMatching(/^Only an admin can /));
  });
});
