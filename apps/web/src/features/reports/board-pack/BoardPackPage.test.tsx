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
const SCHEDULE: BoardPackSchedule = { enabled: false, dayOfMonth: 1, compare: "prior_period", recipients: [], lastMonth: null, verifiedAddresses: ["jane@northwind.example"] };

function signIn(first: BoardPackJob, then: BoardPackJob) {
  const companies = [PARENT_CO, UK_CO];
  return signedIn({
    "GET /companies": companies,
    "GET /companies/status": syncedStatuses(companies, { lastSyncedAt: "2026-11-20T09:00:00.000Z" }),
    "POST /consolidation/board-pack": first,
    [`GET /consolidation/board-pack/jobs/${first.jobId}`]: then,
    "GET /consolidation/board-pack/schedule": SCHEDULE,
    "PUT /consolidation/board-pack/schedule": {
      status: 422,
      body: { error: { code: "recipient_unverified", message: "stranger@elsewhere.example is not a verified address of your team, so no board pack is sent there.", details: {} } },
    },
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
    await waitFor(() => expect(screen.getByText(/^stranger@elsewhere\.example is not a verified address of your team/)).toBeInTheDocument());
  });
});
