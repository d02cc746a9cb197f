import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { shellApi } from "../../../test/fixtures.ts";
import { callsTo, refusal, renderRoutes } from "../../../test/render.tsx";
import { optionTextsOf } from "../../../test/select.ts";
import type { ApiCall } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { REAUTHORIZE_MESSAGE } from "../../errors/errorBar.ts";
import { COMPANIES, LOCKED_DEC, PARENT_ACCOUNTS, POSTED_FEB, posting, UK, UK_FEB } from "./runsFixtures.ts";
import { PARENT_CO } from "../../../test/fixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./SingleRunPage.tsx";

const SLOW_UI = 30_000;
type Calls = ApiCall[];
const JANUARY = posting({ label: "2026-01" });

function signIn(over: Record<string, unknown> = {}) {
  return signedIn({
    "GET /companies": COMPANIES,
    "GET /obal": LOCKED_DEC,
    "GET /consolidation/postings": { postings: [JANUARY] },
    "POST /consolidation/preview": UK_FEB,
    [`GET /getJournalEntries/${UK}`]: { entriesFound: false, entries: [] },
    "GET /getDontShowDuplicateJEModalFlag": { isDontShowDuplicateJEModalChecked: false },
    [`GET /companies/${PARENT_CO.realmId}/accounts`]: PARENT_ACCOUNTS,
    ...over,
  });
}

const posts = (calls: Calls, path: string) => callsTo(calls, "POST", path);
const form = () => screen.findByRole("region", { name: "Period to consolidate" });

async function chooseUk(f: HTMLElement) {
  const select = within(f).getByRole("textbox", { name: "Subsidiary" });
  if ((select as HTMLInputElement).value === "Northwind UK Ltd (GBP)") return;
  await userEvent.click(select);
  await userEvent.click(await screen.findByRole("option", { name: "Northwind UK Ltd (GBP)", hidden: true }));
  await waitFor(() => expect(select).toHaveValue("Northwind UK Ltd (GBP)"));
}

async function previewFebruary() {
  const f = await form();
  await chooseUk(f);
  // The default period is the month after the last posted one (January 2026 is posted).
  await waitFor(() => expect(within(f).getByRole("textbox", { name: "Month" })).toHaveValue("February 2026"));
  await userEvent.click(within(f).getByRole("button", { name: "Preview" }));
  return screen.findByRole("region", { name: "Journal entry preview" });
}

screenTestHooks({ today: "2026-11-21T12:00:00Z" });

describe("Single Period / Company: its tabs", { timeout: SLOW_UI }, () => {
  it("has the group's consolidated reports as a second tab, kept in the address, and a way to Verify", async () => {
    signIn();
    const { router } = renderRoutes(routes, "/consolidation/run");
    expect(await screen.findByRole("link", { name: "Verify what is posted" })).toHaveAttribute("href", "/consolidation/verify");
    await userEvent.click(await screen.findByRole("tab", { name: "Consolidated reports" }));
    expect(await screen.findByTestId("consolidated-reports")).toBeInTheDocument();
    expect(router.state.location.search).toContain("tab=reports");
    await userEvent.click(screen.getByRole("tab", { name: "Post a period" }));
    await waitFor(() => expect(router.state.location.search).not.toContain("tab=reports"));
  });

  it("a member previews but cannot post: the button is off and says why", async () => {
    signIn({ "GET /session": { ...shellApi()["GET /session"], permissionLevel: 0 } });
    renderRoutes(routes, "/consolidation/run");
    await previewFebruary();
    const post = screen.getByRole("button", { name: "Post to QuickBooks" });
    expect(post).toBeDisabled();
    expect(post.closest("[data-admin-only]")).toHaveAttribute("aria-label", expect.stringMatching(/^Only an admin can post to QuickBooks\./));
  });
});

describe("Single Period / Company: choosing and previewing", { timeout: SLOW_UI }, () => {
  it("offers only subsidiaries, defaults to the month after the last posted one, and previews it as a balanced entry", async () => {
    const calls = signIn();
    renderRoutes(routes, "/consolidation/run");
    const f = await form();
    await userEvent.click(within(f).getByRole("textbox", { name: "Subsidiary" }));
    // Subsidiaries only, by name: the parent is where entries go, not something to consolidate.
    expect(await optionTextsOf(within(f).getByRole("textbox", { name: "Subsidiary" }))).toEqual(["Northwind Canada Inc. (CAD)", "Northwind UK Ltd (GBP)"]);
    await userEvent.keyboard("{Escape}");

    const preview = await previewFebruary();
    expect(posts(calls, "/consolidation/preview")[0]).toMatchObject({ body: { realmId: UK, period: { kind: "month", year: 2026, month: 2 } } });
    expect(within(preview).getByRole("heading", { name: "Northwind UK Ltd: February 2026" })).toBeInTheDocument();
    expect(preview).toHaveTextContent("Entry CR202602-384023 dated 2026-02-28, in USD, translated from GBP.");
    const table = within(preview).getByRole("table", { name: "Journal entry lines" });
    // Parent accounts by their number in the parent's chart, never by a QuickBooks id.
    await waitFor(() => expect(within(table).getByRole("row", { name: /Checking/ }).textContent).toBe("1010Checking$2,770.01"));
    expect(within(table).getByRole("row", { name: /Sales/ }).textContent).toBe("Sales$2,000.00");
    expect(within(table).getByRole("row", { name: /Sales/ })).toHaveTextContent("$2,000.00");
    expect(within(table).getByTestId("entry-totals")).toHaveTextContent("Total$2,770.01$2,770.01");
    expect(within(preview).getByTestId("balanced")).toHaveTextContent("Balanced");
    const cta = within(table).getByTestId("cta-line");
    expect(cta).toHaveTextContent("Accumulated OCI");
    expect(cta).toHaveTextContent("$770.01");
    expect(within(preview).getByRole("button", { name: "Post to QuickBooks" })).toBeEnabled();
  });

  it("Explain CTA shows each month's parts with the rates, adding up to the CTA line", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/run");
    const preview = await previewFebruary();
    expect(within(preview).queryByTestId("cta-explanation")).toBeNull();
    await userEvent.click(within(preview).getByRole("button", { name: "Explain CTA" }));
    const box = await within(preview).findByTestId("cta-explanation");
    expect(box).toHaveTextContent("Cumulative translation adjustment: $770.01 Cr on Accumulated OCI");
    expect(box).toHaveTextContent("Rates are USD per GBP.");
    const feb = within(box).getByTestId("cta-month-2026-02");
    // Opening net assets in GBP, the previous and this closing rate, the average rate, then the parts and the change.
    expect(within(feb).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "Feb 2026",
      "£700,000.00",
      "1.2650 → 1.2660",
      "1.2600",
      "$700.00 Cr",
      "$70.00 Cr",
      "$0.00",
      "$0.00",
      "$0.01 Cr",
      "$770.01 Cr",
    ]);
    expect(within(box).getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Month",
      "Opening net assets (GBP)",
      "Closing rate, previous → this",
      "Average rate",
      "Parts of the change (USD)",
      "Opening net assets",
      "Net income",
      "Dividends",
      "Equity movements",
      "Rounding",
      "Change",
    ]);
    const legend = within(box).getByRole("list", { name: "How each part is worked out" });
    expect(legend).toHaveTextContent("Opening net assets: opening net assets × (closing rate − previous closing rate).");
    expect(legend).toHaveTextContent("Net income: net income × (closing rate − average rate).");
    expect(within(box).getByTestId("cta-total")).toHaveTextContent("Total for 2026-02$700.00 Cr$70.00 Cr$0.00$0.00$0.01 Cr$770.01 Cr");
    expect(within(box).getByTestId("cta-adds-up")).toHaveTextContent("the months add up to $770.01 Cr: the CTA line of the entry");
  });

  it("a quarter is one of the parent's fiscal quarters after the opening month, sent as its kind and last month", async () => {
    const calls = signIn({ "POST /consolidation/preview": { ...UK_FEB, period: { kind: "quarter", from: "2026-04", to: "2026-06", label: "FY2026 Q2" }, docNumber: "CR2026Q2-384023", txnDate: "2026-06-30" } });
    renderRoutes(routes, "/consolidation/run");
    const f = await form();
    await chooseUk(f);
    await userEvent.click(within(f).getByRole("radio", { name: "Quarter" }));
    // January is posted, so the first whole quarter after it is Q2.
    await waitFor(() => expect(within(f).getByRole("textbox", { name: "Fiscal quarter" })).toHaveValue("FY2026 Q2 · Apr 2026 – Jun 2026"));
    await userEvent.click(within(f).getByRole("textbox", { name: "Fiscal quarter" }));
    expect(await optionTextsOf(within(f).getByRole("textbox", { name: "Fiscal quarter" }))).toEqual([
      "FY2026 Q4 · Oct 2026 – Dec 2026 (in progress)",
      "FY2026 Q3 · Jul 2026 – Sep 2026",
      "FY2026 Q2 · Apr 2026 – Jun 2026",
      "FY2026 Q1 · Jan 2026 – Mar 2026",
    ]);
    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(f).getByRole("button", { name: "Preview" }));
    const preview = await screen.findByRole("region", { name: "Journal entry preview" });
    expect(within(preview).getByRole("heading", { name: "Northwind UK Ltd: FY2026 Q2 (April 2026 – June 2026)" })).toBeInTheDocument();
    expect(posts(calls, "/consolidation/preview")[0]).toMatchObject({ body: { realmId: UK, period: { kind: "quarter", year: 2026, month: 6 } } });
  });

  it("lists what blocks posting with links to fix it, and Post says why it is off", async () => {
    const problems = [
      { code: "missing_rate", message: "No GBP closing rate for 2026-02." },
      { code: "unmapped_account", message: "Northwind UK Ltd account 72 Consulting income is not mapped." },
      { code: "missing_cta_account", message: "No CTA account is chosen for Northwind UK Ltd." },
      { code: "opening_not_posted", message: "Northwind UK Ltd's opening balance at 2025-12 is not posted yet." },
    ];
    signIn({ "POST /consolidation/preview": { ...UK_FEB, ok: false, problems, entry: null, cta: null, netIncome: null } });
    renderRoutes(routes, "/consolidation/run");
    const preview = await previewFebruary();
    const list = within(preview).getByTestId("problems");
    expect(list).toHaveTextContent("Posting is blocked until these are fixed");
    const link = (name: string) => within(list).getByRole("link", { name }).getAttribute("href");
    expect(link("Enter the rates in FOREX Management")).toBe("/consolidation/fx_rates");
    expect(link("Map the accounts in COA Mapping")).toBe("/setup/coa");
    expect(link("Choose the CTA account in CTA & Historical")).toBe("/setup/cta");
    expect(link("Post it on Opening Balance Sheet")).toBe("/setup/obal");
    expect(within(preview).getByRole("button", { name: "Post to QuickBooks" })).toBeDisabled();
    expect(within(preview).getByTestId("post-blocked")).toHaveTextContent("Fix the problems listed above, then preview again.");
  });

  it("an already posted period links to its entry and cannot be posted again", async () => {
    signIn({ "POST /consolidation/preview": { ...UK_FEB, posted: POSTED_FEB } });
    renderRoutes(routes, "/consolidation/run");
    const preview = await previewFebruary();
    expect(within(preview).getByRole("button", { name: "Post to QuickBooks" })).toBeDisabled();
    expect(within(preview).getByTestId("post-blocked")).toHaveTextContent("Already posted: CR202602-384023 on 2026-02-05 by controller@northwind.example.");
    expect(within(preview).getByRole("link", { name: /Open the posted entry CR202602-384023 in QuickBooks/ })).toHaveAttribute("href", POSTED_FEB.journalEntryUrl);
  });
});

describe("Single Period / Company: posting", { timeout: SLOW_UI }, () => {
  it("checks QuickBooks for the same entry, posts, and links to the new entry", async () => {
    let url = "";
    let posted = false;
    const calls = signIn({
      [`GET /getJournalEntries/${UK}`]: (init: { url: string }) => {
        url = init.url;
        return { status: 200, body: { entriesFound: false, entries: [] } };
      },
      "POST /consolidation/post": () => {
        posted = true;
        return { status: 200, body: { outcome: "posted", posting: POSTED_FEB } };
      },
      "POST /consolidation/preview": () => ({ status: 200, body: posted ? { ...UK_FEB, posted: POSTED_FEB } : UK_FEB }),
      "GET /consolidation/postings": () => ({ status: 200, body: { postings: posted ? [POSTED_FEB, JANUARY] : [JANUARY] } }),
    });
    renderRoutes(routes, "/consolidation/run");
    const preview = await previewFebruary();
    await userEvent.click(within(preview).getByRole("button", { name: "Post to QuickBooks" }));
    const outcome = await screen.findByTestId("post-outcome");
    expect(outcome).toHaveTextContent("Northwind UK Ltd 2026-02 is posted to the parent's QuickBooks as entry CR202602-384023.");
    expect(within(outcome).getByRole("link", { name: /Open entry CR202602-384023 in QuickBooks/ })).toHaveAttribute("href", POSTED_FEB.journalEntryUrl);
    expect(url).toContain("month=2&year=2026&flag=consolidation&period=month");
    expect(posts(calls, "/consolidation/post")).toEqual([expect.objectContaining({ body: { realmId: UK, period: { kind: "month", year: 2026, month: 2 } } })]);
    // The preview is asked again: now it is posted, and Post is off.
    await waitFor(() => expect(within(preview).getByTestId("post-blocked")).toHaveTextContent("Already posted: CR202602-384023"));
    // February is now the last posted month, but the form keeps showing the month previewed.
    expect(await screen.findByTestId("posting-2026-02")).toBeInTheDocument();
    expect(within(await form()).getByRole("textbox", { name: "Month" })).toHaveValue("February 2026");
  });

  it("warns of an entry already in QuickBooks under the same number; Cancel posts nothing", async () => {
    const calls = signIn({
      [`GET /getJournalEntries/${UK}`]: { entriesFound: true, entries: [{ id: "302", docNumber: "CR202602-384023", txnDate: "2026-02-28", url: "https://qbo.example/302" }] },
    });
    renderRoutes(routes, "/consolidation/run");
    const preview = await previewFebruary();
    await userEvent.click(within(preview).getByRole("button", { name: "Post to QuickBooks" }));
    const dialog = await screen.findByRole("dialog", { name: "This entry may already be in QuickBooks" });
    expect(dialog).toHaveTextContent("The parent company already has a journal entry for Northwind UK Ltd's consolidation of 2026-02.");
    expect(dialog).toHaveTextContent("Entry CR202602-384023 dated 2026-02-28");
    expect(within(dialog).getByRole("link", { name: /Open in QuickBooks/ })).toHaveAttribute("href", "https://qbo.example/302");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posts(calls, "/consolidation/post")).toHaveLength(0);
  });

  it("'Don't show this again' is stored for consolidation entries; Post anyway posts, and the server's duplicate answer is shown", async () => {
    const calls = signIn({
      [`GET /getJournalEntries/${UK}`]: { entriesFound: true, entries: [{ id: "302", docNumber: "CR202602-384023", txnDate: "2026-02-28", url: "https://qbo.example/302" }] },
      "POST /setDontShowDuplicateJEModalFlag": { isDontShowDuplicateJEModalChecked: true },
      "POST /consolidation/post": { outcome: "duplicate", posting: POSTED_FEB },
    });
    renderRoutes(routes, "/consolidation/run");
    const preview = await previewFebruary();
    await userEvent.click(within(preview).getByRole("button", { name: "Post to QuickBooks" }));
    const dialog = await screen.findByRole("dialog", { name: "This entry may already be in QuickBooks" });
    await userEvent.click(within(dialog).getByRole("checkbox", { name: "Don't show this again" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Post anyway" }));
    expect(await screen.findByTestId("post-outcome")).toHaveTextContent("Northwind UK Ltd 2026-02 was already posted as entry CR202602-384023; nothing new was posted.");
    expect(posts(calls, "/setDontShowDuplicateJEModalFlag")[0]).toMatchObject({ body: { JE: "consolidation", checked: true } });
    expect(posts(calls, "/consolidation/post")).toHaveLength(1);
  });

  it("with the preference set, an entry found in QuickBooks does not stop the post", async () => {
    const calls = signIn({
      [`GET /getJournalEntries/${UK}`]: { entriesFound: true, entries: [{ id: "302", docNumber: null, txnDate: "2026-02-28", url: "https://qbo.example/302" }] },
      "GET /getDontShowDuplicateJEModalFlag": { isDontShowDuplicateJEModalChecked: true },
      "POST /consolidation/post": { outcome: "posted", posting: POSTED_FEB },
    });
    renderRoutes(routes, "/consolidation/run");
    const preview = await previewFebruary();
    await userEvent.click(within(preview).getByRole("button", { name: "Post to QuickBooks" }));
    expect(await screen.findByTestId("post-outcome")).toHaveTextContent("is posted");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(posts(calls, "/consolidation/post")).toHaveLength(1);
  });

  it("shows the server's refusal in its words", async () => {
    const calls = signIn({
      "POST /consolidation/post": refusal(409, "period_overlaps_posting", "Northwind UK Ltd already has FY2026 Q1 posted, which overlaps 2026-02; its months would be posted twice. Post the remaining months on their own instead."),
    });
    renderRoutes(routes, "/consolidation/run");
    const preview = await previewFebruary();
    await userEvent.click(within(preview).getByRole("button", { name: "Post to QuickBooks" }));
    const alert = (await screen.findByText("It was not posted")).closest("[role=alert]");
    expect(alert).toHaveTextContent("Northwind UK Ltd already has FY2026 Q1 posted, which overlaps 2026-02; its months would be posted twice.");
    expect(posts(calls, "/consolidation/post")).toHaveLength(1);
  });

  it("a 3200 while posting raises the re-authorization message of the error bar", async () => {
    signIn({
      "POST /consolidation/post": refusal(409, "qbo_reauthorization_required", "QuickBooks Online asked for the parent company to be re-authorized (errorCode 003200). Reconnect it on Connected Companies, then post again."),
    });
    renderRoutes(routes, "/consolidation/run");
    const preview = await previewFebruary();
    await userEvent.click(within(preview).getByRole("button", { name: "Post to QuickBooks" }));
    expect(await screen.findByText(REAUTHORIZE_MESSAGE, { exact: false })).toBeInTheDocument();
    expect(within(preview).getByRole("button", { name: "Post to QuickBooks" })).toBeEnabled();
  });
});

describe("Single Period / Company: posted periods", { timeout: SLOW_UI }, () => {
  const changed = posting({
    label: "2026-01",
    stale: {
      detectedAt: "2026-03-02T08:00:00.000Z",
      changes: [
        { account: "35", name: "Checking", posted: 1_000_00, now: 2_250_00 },
        { account: "89", name: "Accumulated OCI", posted: -50_00, now: -62_50 },
      ],
    },
  });

  it("flags a period whose books changed, shows posted against now, and replaces it only after explicit approval", async () => {
    const calls = signIn({
      "GET /consolidation/postings": { postings: [changed] },
      [`POST /consolidation/postings/${changed.id}/repost`]: { outcome: "posted", posting: { ...changed, id: "new", stale: null, docNumber: "CR202601-384023", journalEntryUrl: "https://qbo.example/309" } },
    });
    renderRoutes(routes, "/consolidation/run");
    const list = await screen.findByRole("region", { name: "Posted periods" });
    const row = await within(list).findByTestId("posting-2026-01");
    expect(within(row).getByTestId("books-changed")).toHaveTextContent("Books changed");
    expect(within(row).getByRole("link", { name: /CR202601-384023/ })).toHaveAttribute("href", changed.journalEntryUrl);

    await userEvent.click(within(row).getByRole("button", { name: "See changes" }));
    const diff = within(list).getByRole("table", { name: "Changes in 2026-01" });
    expect(within(diff).getByRole("row", { name: /Checking/ }).textContent).toBe("1010Checking$1,000.00$2,250.00$1,250.00");
    expect(within(diff).getByRole("row", { name: /Accumulated OCI/ }).textContent).toBe("3600Accumulated OCI($50.00)($62.50)($12.50)");

    await userEvent.click(within(row).getByRole("button", { name: "Replace entry" }));
    const dialog = await screen.findByRole("dialog", { name: "Replace the 2026-01 entry?" });
    expect(dialog).toHaveTextContent("Replacing it deletes that entry from the parent's QuickBooks and posts 2026-01 again");
    const replace = within(dialog).getByRole("button", { name: "Replace entry" });
    expect(replace).toBeDisabled();
    await userEvent.click(within(dialog).getByRole("checkbox", { name: /I reviewed these changes and approve replacing entry CR202601-384023/ }));
    await userEvent.click(replace);
    const notice = await within(list).findByTestId("post-outcome");
    expect(notice).toHaveTextContent("The old entry is deleted from the parent's QuickBooks, and Northwind UK Ltd 2026-01 is posted again from the books as they are now, as entry CR202601-384023.");
    expect(within(notice).getByRole("link", { name: /Open entry CR202601-384023 in QuickBooks/ })).toHaveAttribute("href", "https://qbo.example/309");
    expect(posts(calls, `/consolidation/postings/${changed.id}/repost`)).toEqual([expect.objectContaining({ body: { approve: true } })]);
  });

  it("a refused replacement keeps the dialog open with the reason", async () => {
    signIn({
      "GET /consolidation/postings": { postings: [changed] },
      [`POST /consolidation/postings/${changed.id}/repost`]: refusal(409, "not_changed", "Northwind UK Ltd 2026-01 has not changed since it was posted; there is nothing to re-post."),
    });
    renderRoutes(routes, "/consolidation/run");
    const row = await screen.findByTestId("posting-2026-01");
    await userEvent.click(within(row).getByRole("button", { name: "Replace entry" }));
    const dialog = await screen.findByRole("dialog", { name: "Replace the 2026-01 entry?" });
    await userEvent.click(within(dialog).getByRole("checkbox"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Replace entry" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("has not changed since it was posted");
  });

  it("without a locked opening period it says where to lock one", async () => {
    signIn({ "GET /obal": { ...LOCKED_DEC, year: null, month: null, naturalYear: null, naturalMonth: null } });
    renderRoutes(routes, "/consolidation/run");
    expect(await screen.findByText("Lock the opening period first")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Lock it on Opening Balance Sheet" })).toHaveAttribute("href", "/setup/obal");
  });
});
