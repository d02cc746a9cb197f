import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { BoardPackJob, BoardPackLayoutView, BoardPackSchedule } from "@groupledger/contract";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, syncedStatuses, UK_CO } from "../../../test/fixtures.ts";
import { renderRoutes } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./BoardPackPage.tsx";

screenTestHooks({ today: "2026-11-21T12:00:00" });

const LAYOUT: BoardPackLayoutView = {
  groupName: "Northwind Holdings Inc.",
  period: { from: "2026-10", to: "2026-10", label: "October 2026" },
  currency: "USD",
  generatedAt: "2026-11-21T11:00:00.000Z",
  sections: [
    {
      id: "balance-sheet",
      title: "Consolidated balance sheet",
      intro: "Balances at the end of the period.",
      tables: [
        {
          caption: "Consolidated balance sheet",
          columns: ["", "October 2026", "September 2026"],
          rows: [
            { kind: "heading", label: "Assets", cells: [] },
            { kind: "line", label: "Operating Checking", cells: ["$1,000.00", "$900.00"] },
            { kind: "subtotal", label: "Total assets", cells: ["$1,000.00", "$900.00"] },
          ],
        },
      ],
      chart: null,
      notes: ["Balanced: total assets equal total liabilities, equity and non-controlling interests."],
    },
    {
      id: "chart",
      title: "Key figures against September 2026",
      intro: "The period's key figures.",
      tables: [],
      chart: { title: "Key figures", series: ["October 2026", "September 2026"], groups: [{ label: "Total assets", values: [100000, 90000], texts: ["$1,000.00", "$900.00"] }] },
      notes: [],
    },
  ],
};
const SCHEDULE: BoardPackSchedule = { enabled: false, dayOfMonth: 1, compare: "prior_period", recipients: [], lastMonth: null, verifiedAddresses: ["jane@northwind.example"], recipientStatus: [], declined: [] };
const STATES: BoardPackSchedule = {
  ...SCHEDULE,
  enabled: true,
  dayOfMonth: 3,
  recipients: ["jane@northwind.example", "chair@board.example", "director@board.example", "former@northwind.example"],
  recipientStatus: [
    { email: "jane@northwind.example", state: "team", since: null, expiresAt: null },
    { email: "chair@board.example", state: "confirmed", since: "2026-11-02T10:00:00.000Z", expiresAt: null },
    { email: "director@board.example", state: "pending", since: "2026-11-20T09:00:00.000Z", expiresAt: "2026-11-27T09:00:00.000Z" },
    { email: "former@northwind.example", state: "unverified", since: null, expiresAt: null },
  ],
  declined: [{ email: "no@board.example", at: "2026-11-10T08:00:00.000Z" }],
};

function signIn(first: BoardPackJob, then: BoardPackJob, extra: Record<string, unknown> = {}) {
  const companies = [PARENT_CO, UK_CO];
  return signedIn({
    "GET /companies": companies,
    "GET /companies/status": syncedStatuses(companies, { lastSyncedAt: "2026-11-20T09:00:00.000Z" }),
    "POST /consolidation/board-pack": first,
    [`GET /consolidation/board-pack/jobs/${first.jobId}`]: then,
    "GET /consolidation/board-pack/schedule": SCHEDULE,
    "PUT /consolidation/board-pack/schedule": {
      status: 422,
      body: { error: { code: "recipient_declined", message: "stranger@elsewhere.example asked not to receive this group's board pack, so it cannot be added again from here. Nothing is sent there.", details: {} } },
    },
    ...extra,
  });
}

const JOB = "5b0c1f0e-1111-4000-8000-000000000001";
const running: BoardPackJob = { jobId: JOB, state: "running", progress: 0.45, message: "Cash flow ready; preparing the changes in equity", error: null, pack: null };
const done: BoardPackJob = { ...running, state: "succeeded", progress: 1, message: null, pack: { id: "5b0c1f0e-2222-4000-8000-000000000002", fileName: "board-pack-2026-10.pdf", layout: LAYOUT } };

describe("Board pack", { timeout: 30_000 }, () => {
  it("starts the pack of the latest month against the prior period, shows its progress, then its pages", async () => {
    const calls = signIn(running, done);
    renderRoutes(routes, "/consolidation/reports/board-pack");
    expect(await screen.findByText("Cash flow ready; preparing the changes in equity")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Board pack progress" })).toHaveAttribute("aria-valuenow", "45");
    expect(screen.getByTestId("board-pack-download")).toBeDisabled();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ from: "2026-10", to: "2026-10", compare: "prior_period" });

    const table = await screen.findByRole("table", { name: "Consolidated balance sheet" }, { timeout: 5_000 });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["", "October 2026", "September 2026"]);
    expect(within(table).getByRole("row", { name: /^Total assets/ })).toHaveTextContent("Total assets$1,000.00$900.00");
    expect(screen.getByTestId("board-pack-group")).toHaveTextContent("Northwind Holdings Inc.");
    expect(screen.getByRole("img", { name: /Total assets \$1,000\.00 \/ \$900\.00/ })).toBeInTheDocument();
    expect(screen.queryByTestId("board-pack-progress")).toBeNull();
    expect(screen.getByTestId("board-pack-download")).toBeEnabled();
    expect(screen.getByRole("tab", { name: "Board pack" })).toHaveAttribute("aria-selected", "true");
  });

  it("says why a recipient is refused", async () => {
    signIn(done, done);
    renderRoutes(routes, "/consolidation/reports/board-pack");
    const input = await screen.findByRole("textbox", { name: "Recipients" });
    fireEvent.change(input, { target: { value: "stranger@elsewhere.example," } });
    fireEvent.click(screen.getByTestId("board-pack-schedule-save"));
    await waitFor(() => expect(screen.getByText(/^stranger@elsewhere\.example asked not to receive this group's board pack/)).toBeInTheDocument());
  });

  it("shows each recipient's state, resends a confirmation and removes a recipient; Send now names who is skipped", async () => {
    const calls = signIn(done, done, {
      "GET /consolidation/board-pack/schedule": STATES,
      "POST /consolidation/board-pack/recipients/resend": STATES,
      "PUT /consolidation/board-pack/schedule": { ...STATES, recipients: STATES.recipients.slice(0, 3), recipientStatus: STATES.recipientStatus.slice(0, 3) },
      "POST /consolidation/board-pack/schedule/send": { jobId: JOB, recipients: ["jane@northwind.example", "chair@board.example"], skipped: [{ email: "director@board.example", state: "pending" }] },
    });
    renderRoutes(routes, "/consolidation/reports/board-pack");
    const table = await screen.findByRole("table", { name: "Recipients and their state" });
    const row = (email: string) => within(table).getByTestId(`board-pack-recipient-${email}`);
    expect(row("jane@northwind.example")).toHaveTextContent("Verified (your team)");
    expect(row("chair@board.example")).toHaveTextContent("Confirmed Nov 2, 2026");
    expect(row("director@board.example")).toHaveTextContent("Awaiting confirmation since Nov 20, 2026");
    expect(row("former@northwind.example")).toHaveTextContent("Not verified: nothing is sent");
    expect(within(row("jane@northwind.example")).queryByRole("button", { name: /confirmation/ })).toBeNull();
    expect(screen.getByTestId("board-pack-declined")).toHaveTextContent("no@board.example (Nov 10, 2026)");

    fireEvent.click(within(row("director@board.example")).getByRole("button", { name: "Resend confirmation" }));
    expect(await screen.findByText("A new confirmation link was mailed to director@board.example; the earlier one no longer works.")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/consolidation/board-pack/recipients/resend")?.body).toEqual({ email: "director@board.example" });

    fireEvent.click(within(row("former@northwind.example")).getByRole("button", { name: "Remove former@northwind.example" }));
    await waitFor(() => expect(screen.queryByTestId("board-pack-recipient-former@northwind.example")).toBeNull());
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ enabled: true, dayOfMonth: 3, compare: "prior_period", recipients: STATES.recipients.slice(0, 3) });

    fireEvent.click(screen.getByTestId("board-pack-send"));
    expect(await screen.findByTestId("board-pack-sent")).toHaveTextContent(
      "The pack of October 2026 is on its way to jane@northwind.example, chair@board.example. Not sent to director@board.example (awaiting confirmation).",
    );
  });
});
