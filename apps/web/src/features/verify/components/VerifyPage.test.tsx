import type { VerifyResult } from "@groupledger/contract";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { OBAL } from "../../../test/fixtures.ts";
import { queryOf, recordingQueries, refusal, renderRoutes } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { elimPosting, GROUP_API, UK } from "../../eliminations/components/eliminationsFixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./VerifyPage.tsx";

const OK: VerifyResult = {
  month: "2026-03",
  openingMonth: "2025-12",
  parentCurrency: "USD",
  ok: true,
  subsidiaries: [
    {
      realmId: UK,
      companyName: "Northwind UK Ltd",
      status: "ok",
      message: "What is posted for Northwind UK Ltd through 2026-03 equals its translated trial balance.",
      missingMonths: [],
      missingEntries: [],
      accounts: 53,
      differences: [],
    },
  ],
  group: { status: "ok", message: "Northwind Holdings Inc.'s trial balance in QuickBooks at 2026-03 equals the consolidation before non-controlling interests.", accounts: 75, differences: [] },
  causes: [],
};

const DIFFERENT: VerifyResult = {
  ...OK,
  month: "2026-05",
  ok: false,
  subsidiaries: [
    {
      ...OK.subsidiaries[0]!,
      status: "differences",
      message: "Months not posted: 2026-04, 2026-05. Entries no longer in QuickBooks: CR202602-384023. 1 account differs.",
      missingMonths: ["2026-04", "2026-05"],
      missingEntries: ["CR202602-384023"],
      differences: [{ account: "42", name: "Term Loan - Chase", expected: -1_229_730_00, actual: -1_204_100_00, difference: 25_630_00 }],
    },
  ],
  group: {
    status: "differences",
    message: "2 accounts differ; no elimination entry is posted yet.",
    accounts: 75,
    differences: [
      { account: "22", name: "Intercompany Loan - Northwind UK", expected: 0, actual: 1_229_734_00, difference: 1_229_734_00 },
      { account: "94", name: "Foreign Exchange Gain/Loss", expected: -142_755_94, actual: 75_906_02, difference: 218_661_96 },
    ],
  },
  causes: [
    {
      code: "months_not_posted",
      fix: "multiPeriod",
      realmId: UK,
      months: ["2026-04", "2026-05"],
      docNumbers: [],
      url: null,
      message: "The entries of Northwind UK Ltd for April 2026 to May 2026 are not posted.",
    },
    {
      code: "eliminations_not_posted",
      fix: "eliminations",
      realmId: null,
      months: ["2026-02", "2026-03", "2026-04", "2026-05"],
      docNumbers: [],
      url: null,
      message: "The intercompany eliminations for February 2026 to May 2026 are not posted.",
    },
    {
      code: "entry_deleted",
      fix: "singlePeriod",
      realmId: UK,
      months: ["2026-02"],
      docNumbers: ["CR202602-384023"],
      url: null,
      message: "Entry CR202602-384023 (Northwind UK Ltd, February 2026) was deleted in QuickBooks after GroupLedger posted it.",
    },
    {
      code: "entry_edited",
      fix: "quickbooks",
      realmId: null,
      months: ["2026-01"],
      docNumbers: ["EL202601"],
      url: "https://app.qbo.intuit.com/app/journal?txnId=2090",
      message: "Entry EL202601 (intercompany eliminations, January 2026) was edited in QuickBooks after GroupLedger posted it: 2 accounts differ from what was posted.",
    },
  ],
};

const postedMonth = (month: string) => elimPosting({ realmId: UK, companyName: "Northwind UK Ltd", period: { kind: "month", from: month, to: month, label: month }, docNumber: `CR${month}` });

function signIn(over: Record<string, unknown> = {}) {
  return signedIn({
    ...GROUP_API,
    "GET /consolidation/postings": { postings: [postedMonth("2026-01"), postedMonth("2026-03"), postedMonth("2026-02")] },
    "GET /consolidation/verify": (init: { url: string }) => {
      const q = queryOf(init);
      return { status: 200, body: q.get("month") === "5" ? DIFFERENT : OK };
    },
    ...over,
  });
}

screenTestHooks({ today: "2026-11-21T12:00:00Z" });

describe("Verify Consolidation", () => {
  it("opens on the last month something was posted for and says everything reconciles", async () => {
    const { asked, handler } = recordingQueries(OK);
    signIn({ "GET /consolidation/verify": handler });
    renderRoutes(routes, "/consolidation/verify");
    const head = await screen.findByTestId("verify-headline");
    expect(head).toHaveTextContent("Everything reconciles");
    expect(head).toHaveTextContent("March 2026: 1 subsidiary and the group compared account by account (128 comparisons): no differences.");
    expect(asked).toEqual(["?year=2026&month=3"]);
    expect(screen.getByRole("textbox", { name: "Month-end" })).toHaveValue("March 2026");

    const uk = screen.getByRole("region", { name: "Northwind UK Ltd" });
    expect(within(uk).getByTestId("check-status")).toHaveTextContent("Reconciles");
    expect(uk).toHaveTextContent("What is posted for Northwind UK Ltd through 2026-03 equals its translated trial balance.");
    expect(uk).toHaveTextContent("53 accounts compared.");
    expect(within(uk).queryByRole("table")).toBeNull();
    const group = screen.getByRole("region", { name: "Group" });
    expect(within(group).getByTestId("check-status")).toHaveTextContent("Reconciles");
    expect(group).toHaveTextContent("75 accounts compared.");
  });

  it("another month: the differences by account, months not posted and entries gone from QuickBooks", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/verify");
    await screen.findByTestId("verify-headline");
    const input = screen.getByRole("textbox", { name: "Month-end" });
    await userEvent.click(input);
    await userEvent.click(await screen.findByRole("option", { name: "May 2026", hidden: true }));
    const head = await screen.findByTestId("verify-headline");
    await waitFor(() => expect(head).toHaveTextContent("3 differences"));
    expect(head).toHaveTextContent("Also: 1 posted entry is no longer in QuickBooks.");

    const uk = screen.getByRole("region", { name: "Northwind UK Ltd" });
    expect(within(uk).getByTestId("check-status")).toHaveTextContent("Differences");
    expect(within(uk).getByTestId("missing-months")).toHaveTextContent("Months not posted:April 2026May 2026");
    expect(within(uk).getByTestId("missing-entries")).toHaveTextContent("Entry CR202602-384023");
    const ukTable = within(uk).getByRole("table", { name: "Northwind UK Ltd: differences" });
    expect(within(ukTable).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Account", "Expected", "In QuickBooks", "Difference"]);
    await waitFor(() => expect(within(ukTable).getByRole("row", { name: /Term Loan/ })).toHaveTextContent("2700Term Loan - Chase($1,229,730.00)($1,204,100.00)$25,630.00"));

    const group = screen.getByRole("region", { name: "Group" });
    expect(group).toHaveTextContent("2 accounts differ; no elimination entry is posted yet.");
    expect(within(within(group).getByRole("table")).getAllByRole("row")).toHaveLength(3);
  });

  it("says why under the count, each cause with the link to where it is fixed", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/verify");
    await screen.findByTestId("verify-headline");
    await userEvent.click(screen.getByRole("textbox", { name: "Month-end" }));
    await userEvent.click(await screen.findByRole("option", { name: "May 2026", hidden: true }));
    const head = await screen.findByTestId("verify-headline");
    await waitFor(() => expect(head).toHaveTextContent("3 differences"));
    const causes = within(head).getAllByTestId("verify-cause");
    expect(causes.map((c) => c.textContent)).toEqual([
      "The entries of Northwind UK Ltd for April 2026 to May 2026 are not posted. Post them on Multi Period / Company",
      "The intercompany eliminations for February 2026 to May 2026 are not posted. Post them on Interco Eliminations",
      "Entry CR202602-384023 (Northwind UK Ltd, February 2026) was deleted in QuickBooks after GroupLedger posted it. See its periods on Single Period / Company",
      "Entry EL202601 (intercompany eliminations, January 2026) was edited in QuickBooks after GroupLedger posted it: 2 accounts differ from what was posted. Open it in QuickBooks",
    ]);
    expect(within(causes[0]!).getByRole("link", { name: "Post them on Multi Period / Company" })).toHaveAttribute("href", `/multipleconsolidation/run?realmIds=${UK}&from=2026-04&to=2026-05`);
    expect(within(causes[1]!).getByRole("link", { name: "Post them on Interco Eliminations" })).toHaveAttribute("href", "/consolidation/elimination");
    expect(within(causes[2]!).getByRole("link")).toHaveAttribute("href", "/consolidation/run");
    const qbo = within(causes[3]!).getByRole("link", { name: "Open it in QuickBooks" });
    expect(qbo).toHaveAttribute("href", "https://app.qbo.intuit.com/app/journal?txnId=2090");
    expect(qbo).toHaveAttribute("target", "_blank");

    // The link takes the user to the screen that posts those months.
    await userEvent.click(within(causes[1]!).getByRole("link", { name: "Post them on Interco Eliminations" }));
    expect(await screen.findByRole("heading", { name: "Interco Eliminations" })).toBeInTheDocument();
  });

  it("says nothing more when everything reconciles", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/verify");
    const head = await screen.findByTestId("verify-headline");
    expect(head).toHaveTextContent("Everything reconciles");
    expect(within(head).queryByTestId("verify-causes")).toBeNull();
  });

  it("reads QuickBooks again on Check again", async () => {
    const { asked, handler } = recordingQueries(OK);
    signIn({ "GET /consolidation/verify": handler });
    renderRoutes(routes, "/consolidation/verify");
    await screen.findByTestId("verify-headline");
    await userEvent.click(screen.getByRole("button", { name: "Check again" }));
    await waitFor(() => expect(asked).toEqual(["?year=2026&month=3", "?year=2026&month=3"]));
  });

  it("without postings opens on the month before the current one, and says the server's refusal", async () => {
    signIn({
      "GET /consolidation/postings": { postings: [] },
      "GET /consolidation/verify": refusal(502, "qbo_unavailable", "QuickBooks did not answer with the parent's trial balance (timeout); try again."),
    });
    renderRoutes(routes, "/consolidation/verify");
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Month-end" })).toHaveValue("October 2026"));
    expect(await screen.findByText("QuickBooks did not answer with the parent's trial balance (timeout); try again.")).toBeInTheDocument();
  });

  it("asks for the opening period to be locked first", async () => {
    signIn({ "GET /obal": OBAL });
    renderRoutes(routes, "/consolidation/verify");
    expect(await screen.findByText("Lock the opening period first")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Lock it on Opening Balance Sheet" })).toHaveAttribute("href", "/setup/obal");
  });
});
