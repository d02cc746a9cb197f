import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { RunDetail } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { callsTo, refusal, renderRoutes } from "../../../test/render.tsx";
import type { ApiCall } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { INTERCO_REALM } from "@groupledger/contract";
import { PARENT_CO, UK_CO } from "../../../test/fixtures.ts";
import { CA, COMPANIES, LOCKED_DEC, PARENT_ACCOUNTS, posting, runAt, UK } from "./runsFixtures.ts";
import "./MultiRunPage.tsx";

const SLOW_UI = 30_000;
const summary = (run: RunDetail) => {
  const { items: _items, ...rest } = run;
  return rest;
};

function signIn(over: Record<string, unknown> = {}) {
  return signedIn({
    "GET /companies": COMPANIES,
    "GET /obal": LOCKED_DEC,
    // UK has January posted, Canada nothing: the run starts with January.
    "GET /consolidation/postings": { postings: [posting({ label: "2026-01" })] },
    "GET /multipleconsolidation/runs": { runs: [] },
    ...over,
  });
}

const posts = (calls: ApiCall[], path: string) => callsTo(calls, "POST", path);

screenTestHooks({ today: "2026-11-21T12:00:00Z" });

describe("Multi Period / Company", { timeout: SLOW_UI }, () => {
  it("starts a run for the chosen subsidiaries and months, follows it to the end, and sums it up", async () => {
    let polls = 0;
    const run = runAt(0, "queued");
    const calls = signIn({
      "POST /multipleconsolidation/runs": run,
      // Each poll finds one more item done.
      [`GET /multipleconsolidation/runs/${run.id}`]: () => {
        polls++;
        return { status: 200, body: runAt(Math.min(polls, 4)) };
      },
    });
    renderRoutes(routes, "/multipleconsolidation/run");
    const form = await screen.findByRole("region", { name: "New run" });
    // Every subsidiary is chosen, from the first month one of them has not posted to the last month that ended.
    expect(within(form).getByRole("checkbox", { name: "Northwind UK Ltd (GBP)" })).toBeChecked();
    expect(within(form).getByRole("checkbox", { name: "Northwind Canada Inc. (CAD)" })).toBeChecked();
    expect(within(form).getByRole("button", { name: "From" })).toHaveTextContent("Jan 2026");
    expect(within(form).getByRole("button", { name: "To" })).toHaveTextContent("Oct 2026");
    expect(within(form).getByRole("button", { name: "Start run (20 entries)" })).toBeEnabled();

    await userEvent.click(within(form).getByRole("checkbox", { name: "Northwind UK Ltd (GBP)" }));
    expect(within(form).getByRole("button", { name: "Start run (10 entries)" })).toBeEnabled();
    await userEvent.click(within(form).getByRole("checkbox", { name: "Northwind Canada Inc. (CAD)" }));
    expect(within(form).getByTestId("run-form-problem")).toHaveTextContent("Choose at least one subsidiary.");
    expect(within(form).getByRole("button", { name: "Start run" })).toBeDisabled();
    await userEvent.click(within(form).getByRole("checkbox", { name: "Northwind UK Ltd (GBP)" }));
    await userEvent.click(within(form).getByRole("checkbox", { name: "Northwind Canada Inc. (CAD)" }));

    await userEvent.click(within(form).getByRole("button", { name: "Start run (20 entries)" }));
    expect(posts(calls, "/multipleconsolidation/runs")[0]).toMatchObject({ body: { realmIds: [CA, UK], from: "2026-01", to: "2026-10" } });

    const progress = await screen.findByRole("region", { name: "Run progress" });
    await waitFor(() => expect(within(progress).getByTestId("run-progress-text")).toHaveTextContent("4 of 4 done (100%)"), { timeout: 10_000 });
    expect(within(progress).getByTestId("run-status")).toHaveTextContent("Finished");
    expect(within(progress).getByTestId("run-summary")).toHaveTextContent("3 posted, 1 skipped as already posted, 0 failed.");
    // Items month by month, each with its outcome and entry.
    const table = within(progress).getByRole("table", { name: "Run items" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Subsidiary", "Status", "Entry or reason", "February 2026", "March 2026"]);
    const ukFeb = within(table).getByTestId(`item-2026-02-${UK}`);
    expect(ukFeb).toHaveTextContent("Duplicate");
    expect(ukFeb).toHaveTextContent("Already posted as entry CR202602-384023; skipped as a duplicate.");
    const caMar = within(table).getByTestId(`item-2026-03-${CA}`);
    expect(caMar).toHaveTextContent("Posted");
    expect(within(caMar).getByRole("link", { name: /Open in QuickBooks/ })).toHaveAttribute("href", "https://app.qbo.intuit.com/app/journal?txnId=402");
    // Polling stops once the run has finished.
    const settled = polls;
    await new Promise((r) => setTimeout(r, 1500));
    expect(polls).toBe(settled);
  });

  it("opens on the subsidiary and months a link asks for (Verify's months not posted)", async () => {
    const calls = signIn({ "POST /multipleconsolidation/runs": runAt(0, "queued") });
    renderRoutes(routes, `/multipleconsolidation/run?realmIds=${UK}&from=2026-03&to=2026-04`);
    const form = await screen.findByRole("region", { name: "New run" });
    expect(within(form).getByRole("checkbox", { name: "Northwind UK Ltd (GBP)" })).toBeChecked();
    expect(within(form).getByRole("checkbox", { name: "Northwind Canada Inc. (CAD)" })).not.toBeChecked();
    expect(within(form).getByRole("button", { name: "From" })).toHaveTextContent("Mar 2026");
    expect(within(form).getByRole("button", { name: "To" })).toHaveTextContent("Apr 2026");
    await userEvent.click(within(form).getByRole("button", { name: "Start run (2 entries)" }));
    expect(posts(calls, "/multipleconsolidation/runs")[0]).toMatchObject({ body: { realmIds: [UK], from: "2026-03", to: "2026-04" } });
  });

  it("reopening the screen shows the run in progress, with Pause; a paused run offers Resume", async () => {
    let current = runAt(1, "running");
    const calls = signIn({
      "GET /multipleconsolidation/runs": () => ({ status: 200, body: { runs: [summary(current)] } }),
      [`GET /multipleconsolidation/runs/${current.id}`]: () => ({ status: 200, body: current }),
      [`POST /multipleconsolidation/runs/${current.id}/pause`]: () => {
        current = { ...runAt(1, "paused"), message: "Paused after 1 of 4" };
        return { status: 200, body: current };
      },
      [`POST /multipleconsolidation/runs/${current.id}/resume`]: () => {
        current = runAt(1, "queued");
        return { status: 200, body: current };
      },
    });
    renderRoutes(routes, "/multipleconsolidation/run");
    const progress = await screen.findByRole("region", { name: "Run progress" });
    expect(within(progress).getByTestId("run-progress-text")).toHaveTextContent("1 of 4 done (25%)");
    expect(within(progress).getByTestId("run-status")).toHaveTextContent("Running");
    // Another run cannot start while this one goes.
    const form = screen.getByRole("region", { name: "New run" });
    expect(within(form).getByRole("button", { name: /Start run/ })).toBeDisabled();
    expect(within(form).getByTestId("run-form-problem")).toHaveTextContent("A run is in progress for this account");

    await userEvent.click(within(progress).getByRole("button", { name: "Pause" }));
    await waitFor(() => expect(within(progress).getByTestId("run-status")).toHaveTextContent("Paused"));
    expect(within(progress).getByTestId("run-message")).toHaveTextContent("Paused after 1 of 4");
    await userEvent.click(within(progress).getByRole("button", { name: "Resume" }));
    await waitFor(() => expect(within(progress).getByTestId("run-status")).toHaveTextContent("Queued"));
    expect(posts(calls, `/multipleconsolidation/runs/${current.id}/pause`)).toHaveLength(1);
    expect(posts(calls, `/multipleconsolidation/runs/${current.id}/resume`)).toHaveLength(1);

    const recent = screen.getByRole("region", { name: "Recent runs" });
    expect(within(recent).getByRole("row", { name: /Feb 2026 – Mar 2026/ })).toHaveTextContent("1 of 4: 0 posted, 1 skipped, 0 failed");

    // It runs to the end while the screen follows it, and stays shown once it is no longer going.
    current = runAt(4);
    await waitFor(() => expect(within(progress).getByTestId("run-status")).toHaveTextContent("Finished"), { timeout: 10_000 });
    await waitFor(() => expect(within(recent).getByRole("row", { name: /Feb 2026 – Mar 2026/ })).toHaveTextContent("4 of 4"), { timeout: 10_000 });
    await new Promise((r) => setTimeout(r, 3500));
    expect(screen.getByRole("region", { name: "Run progress" })).toHaveTextContent("4 of 4 done (100%)");
  });

  it("a run with failures names each one with its reason", async () => {
    const base = runAt(4);
    const failed: RunDetail = {
      ...base,
      status: "finished_with_failures",
      counts: { total: 4, pending: 0, posted: 1, skipped: 2, failed: 1 },
      items: [
        base.items[0]!,
        { ...base.items[1]!, status: "failed", message: "Northwind Canada Inc. 2026-02 cannot be posted: No CAD closing rate for 2026-02.", journalEntryId: null, journalEntryUrl: null },
        base.items[2]!,
        { ...base.items[3]!, status: "skipped", message: "Not posted: 2026-02 failed for this company, and posting later months would leave a gap.", journalEntryId: null, journalEntryUrl: null },
      ],
    };
    const older: RunDetail = { ...runAt(4), id: "0f6d2c1e-8a3b-4c5d-9e7f-1a2b3c4d5e6f", from: "2026-01", to: "2026-01", createdAt: "2026-11-20T09:00:00.000Z" };
    signIn({
      "GET /multipleconsolidation/runs": { runs: [summary(failed), summary(older)] },
      [`GET /multipleconsolidation/runs/${failed.id}`]: failed,
      [`GET /multipleconsolidation/runs/${older.id}`]: older,
    });
    renderRoutes(routes, "/multipleconsolidation/run");
    // With no run going, the latest one is shown as it ended.
    const progress = await screen.findByRole("region", { name: "Run progress" });
    expect(within(progress).getByTestId("run-status")).toHaveTextContent("Finished with failures");
    const result = within(progress).getByTestId("run-summary");
    expect(result).toHaveTextContent("1 posted, 1 skipped as already posted, 1 not posted after an earlier failure, 1 failed.");
    expect(result).toHaveTextContent("Northwind Canada Inc. 2026-02: Northwind Canada Inc. 2026-02 cannot be posted: No CAD closing rate for 2026-02.");
    expect(within(progress).getByTestId(`item-2026-03-${CA}`)).toHaveTextContent("Skipped");

    // An older run opens from the list.
    const recent = screen.getByRole("region", { name: "Recent runs" });
    expect(within(recent).getByRole("row", { current: true })).toHaveTextContent("Feb 2026 – Mar 2026");
    await userEvent.click(within(within(recent).getByRole("row", { name: /Jan 2026 – Jan 2026/ })).getByRole("button", { name: "Open" }));
    const shown = () => screen.getByRole("region", { name: "Run progress" });
    await waitFor(() => expect(within(shown()).getByRole("heading", { level: 2 })).toHaveTextContent("January 2026 – January 2026, 2 subsidiaries"));
    expect(within(shown()).getByTestId("run-status")).toHaveTextContent("Finished");
  });

  it("shows the server's refusal to start", async () => {
    signIn({
      "POST /multipleconsolidation/runs": refusal(409, "run_in_progress", "Another run is in progress for this account; wait for it to finish, or pause it, before starting a new one."),
    });
    renderRoutes(routes, "/multipleconsolidation/run");
    const form = await screen.findByRole("region", { name: "New run" });
    await userEvent.click(within(form).getByRole("button", { name: /Start run/ }));
    expect(await within(form).findByRole("alert")).toHaveTextContent("Another run is in progress for this account");
  });

  it("Replace all changed: every changed entry in the order it is replaced, reviewed and approved once, then followed as a run", async () => {
    const found = "2026-11-26T06:02:00.000Z";
    const changes = [{ account: "33", name: "Sales", posted: -120_000, now: -145_000 }];
    const changedMar = posting({ label: "2026-03", stale: { detectedAt: found, changes } });
    const changedApr = posting({ label: "2026-04", stale: { detectedAt: found, changes } });
    const elimMar = posting({ label: "2026-03", id: "0e202603-0000-4000-8000-000000000000", realmId: INTERCO_REALM, companyName: "Intercompany eliminations", docNumber: "IC202603", stale: { detectedAt: found, changes } });
    const run = { ...runAt(4), kind: "replace" as const };
    const calls = signIn({
      // The server lists newest first; the screen shows them in the order they are replaced.
      "GET /consolidation/postings": { postings: [changedApr, elimMar, changedMar, posting({ label: "2026-01" })] },
      [`GET /companies/${PARENT_CO.realmId}/accounts`]: PARENT_ACCOUNTS,
      "POST /consolidation/replace-changed": run,
      [`GET /multipleconsolidation/runs/${run.id}`]: run,
    });
    renderRoutes(routes, "/multipleconsolidation/run");
    const section = await screen.findByTestId("changed-entries");
    expect(within(section).getByRole("heading", { level: 2 })).toHaveTextContent("3 posted entries differ from the books now");
    const rows = within(within(section).getByRole("table", { name: "Changed entries" })).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      `2026-03${UK_CO.companyName}CR202603-3840232026-11-26 06:021`,
      "2026-03Intercompany eliminationsIC2026032026-11-26 06:021",
      `2026-04${UK_CO.companyName}CR202604-3840232026-11-26 06:021`,
    ]);

    await userEvent.click(within(section).getByRole("button", { name: "Replace all changed (3)" }));
    const dialog = await screen.findByRole("dialog", { name: "Replace 3 changed entries?" });
    expect(within(dialog).getAllByRole("table").map((t) => t.getAttribute("aria-label"))).toEqual(["Changes in 2026-03", "Changes in 2026-03", "Changes in 2026-04"]);
    const replace = within(dialog).getByRole("button", { name: "Replace 3 entries" });
    expect(replace).toBeDisabled();
    await userEvent.click(within(dialog).getByRole("checkbox", { name: "I reviewed these changes and approve replacing these 3 entries in QuickBooks" }));
    await userEvent.click(replace);
    await waitFor(() =>
      expect(posts(calls, "/consolidation/replace-changed")[0]?.body).toEqual({
        approve: true,
        postings: [changedMar, elimMar, changedApr].map((p) => ({ id: p.id, detectedAt: found })),
      }),
    );
    const progress = await screen.findByRole("region", { name: "Run progress" });
    expect(within(progress).getByRole("heading", { level: 2 })).toHaveTextContent("Replacing 4 changed entries");
    expect(within(progress).getByTestId(`item-2026-03-${CA}`)).toHaveTextContent("Replaced");
    expect(within(progress).getByTestId("run-summary")).toHaveTextContent("3 replaced, 1 skipped as already posted, 0 failed.");
  });

  it("says why the replacement did not start, and keeps the dialog open", async () => {
    const changedMar = posting({ label: "2026-03", stale: { detectedAt: "2026-11-26T06:02:00.000Z", changes: [] } });
    signIn({
      "GET /consolidation/postings": { postings: [changedMar] },
      [`GET /companies/${PARENT_CO.realmId}/accounts`]: PARENT_ACCOUNTS,
      "POST /consolidation/replace-changed": refusal(409, "changes_moved", "Northwind UK Ltd 2026-03 (entry CR202603-384023) changed again since you reviewed it; review the changed entries again before replacing them."),
    });
    renderRoutes(routes, "/multipleconsolidation/run");
    await userEvent.click(await screen.findByRole("button", { name: "Replace all changed (1)" }));
    const dialog = await screen.findByRole("dialog", { name: "Replace 1 changed entry?" });
    await userEvent.click(within(dialog).getByRole("checkbox", { name: /I reviewed these changes/ }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Replace 1 entry" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("changed again since you reviewed it");
  });
});
