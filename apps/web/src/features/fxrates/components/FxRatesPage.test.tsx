import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FxRate, FxRatesResponse } from "@groupledger/contract";
import { RATE_MESSAGE } from "@groupledger/domain";
import { afterEach, describe, expect, it, vi } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, shellApi, UK_CO } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import { saveToken } from "../../session/tokenStore.ts";
import { defaultRange, monthLabel } from "../model.ts";
import { applyRates, DE_CO, fxGrid, GROUP, RETAIL_CO } from "./fxFixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./FxRatesPage.tsx";

/** Each test types into several cells and opens dialogs; on a loaded CI machine that outlasts the 5 s default. */
const SLOW_UI = 30_000;

interface Raw {
  url: string;
  method: string;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * A signed-in user of the EUR/GBP group over USD. The grid follows `state.grid` (a successful PUT
 * updates it); the CSV calls, which mockApi cannot read (it parses bodies as JSON), answer from
 * `csv` here. Every call is recorded with its full URL.
 */
function setup(over: Record<string, unknown> = {}, csv: { import?: (body: string) => { status: number; body: unknown } } = {}) {
  saveToken(fakeToken(inOneHour()));
  const state = { grid: fxGrid() };
  mockApi({
    ...shellApi(),
    "GET /companies": GROUP,
    "GET /fxrates": () => ({ status: 200, body: state.grid }),
    "PUT /fxrates": (init: RequestInit) => {
      const { rates } = JSON.parse(String(init.body)) as { rates: FxRate[] };
      state.grid = applyRates(state.grid, rates);
      return { status: 200, body: { updated: rates.length, unchanged: 0 } };
    },
    ...over,
  });
  const inner = globalThis.fetch;
  const raw: Raw[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const headers = (init.headers ?? {}) as Record<string, string>;
    const isCsv = headers["content-type"] === "text/csv";
    raw.push({ url, method: init.method ?? "GET", body: isCsv ? init.body : typeof init.body === "string" ? JSON.parse(init.body) : undefined, headers });
    if (url === "/api/fxrates/import") {
      const answer = csv.import?.(String(init.body)) ?? refusal(404, "not_found", "Not found.");
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }
    if (url === "/api/fxrates/template.csv") {
      return new Response("currency,month,avgfx,endfx\nEUR,2026-09,,\n", { status: 200, headers: { "content-type": "text/csv" } });
    }
    return inner(input, init);
  }) as typeof fetch;
  return { state, raw, calls: (method: string, path: string) => raw.filter((c) => c.method === method && c.url.split("?")[0] === `/api${path}`) };
}

const grid = () => screen.findByRole("table", { name: "FX rates: USD per one unit of each foreign currency" });
const cell = (name: string) => screen.getByRole("textbox", { name });
const tdOf = (input: HTMLElement) => input.closest("td") as HTMLElement;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("FOREX Management: the grid", { timeout: SLOW_UI }, () => {
  it("asks for the last 24 months and shows months down, average and end-of-period per currency across, newest first", async () => {
    const { calls } = setup();
    renderRoutes(routes, "/consolidation/fx_rates");
    const table = await grid();
    const { from, to } = defaultRange();
    expect(calls("GET", "/fxrates")[0]?.url).toBe(`/api/fxrates?from=${from}&to=${to}`);

    const headers = within(table).getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["Month", "EUR1 EUR = x USD", "GBP1 GBP = x USD", "Average", "End of period", "Average", "End of period"]);
    expect(within(table).getAllByRole("rowheader").map((h) => h.textContent?.replace(/\d missing$/, ""))).toEqual(["Oct 2026", "Sep 2026", "Aug 2026"]);
    expect(cell("GBP end of period rate, Oct 2026")).toHaveValue("1.281");
    expect(cell("EUR average rate, Aug 2026")).toHaveValue("1.0812");
  });

  it("shows other months from the month pickers, which wait while there are unsaved changes", async () => {
    const { calls } = setup();
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    const { from, to } = defaultRange();
    const next = `${Number(from.slice(0, 4)) + 1}-01`;
    await userEvent.click(screen.getByRole("button", { name: "From" }));
    await userEvent.click(await screen.findByRole("button", { name: "Next year", hidden: true }));
    await userEvent.click(await screen.findByRole("button", { name: monthLabel(next), hidden: true }));
    await waitFor(() => expect(calls("GET", "/fxrates").map((c) => c.url)).toContain(`/api/fxrates?from=${next}&to=${to}`));

    await userEvent.type(cell("EUR average rate, Oct 2026"), "1.08");
    expect(screen.getByRole("button", { name: "From" })).toBeDisabled();
    expect(screen.getByText("Save or discard your changes to show other months.")).toBeInTheDocument();
  });

  it("says which way a rate goes, with the latest saved end rate as the example", async () => {
    setup();
    renderRoutes(routes, "/consolidation/fx_rates");
    const semantics = await screen.findByTestId("rate-semantics");
    expect(semantics).toHaveTextContent("Parent currency USD (Northwind Holdings Inc.). Every rate is how many USD one unit of the foreign currency is worth.");
    expect(semantics).toHaveTextContent("1 GBP = 1.281 USD");
    expect(semantics).toHaveTextContent("1 EUR = 1.0925 USD");
  });

  it("shows empty cells as missing and counts the months that miss a rate; the filter keeps only those", async () => {
    setup();
    renderRoutes(routes, "/consolidation/fx_rates");
    const table = await grid();
    expect(screen.getByTestId("missing-summary")).toHaveTextContent("2 months miss a rate (3 empty cells).");
    const empty = within(table).getAllByPlaceholderText("missing").filter((i) => (i as HTMLInputElement).value === "");
    expect(empty.map((i) => i.getAttribute("aria-label"))).toEqual(["EUR average rate, Oct 2026", "EUR end of period rate, Oct 2026", "GBP end of period rate, Sep 2026"]);
    for (const i of empty) expect(tdOf(i)).toHaveAttribute("data-empty");
    expect(within(table).getByRole("rowheader", { name: /Oct 2026/ })).toHaveTextContent("2 missing");

    await userEvent.click(screen.getByRole("switch", { name: "Only months missing a rate" }));
    expect(within(table).getAllByRole("rowheader").map((h) => h.textContent?.slice(0, 8))).toEqual(["Oct 2026", "Sep 2026"]);
  });

  it("marks a changed cell, validates it with the server's rule, and saves every change in one PUT", async () => {
    const { calls } = setup();
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    const save = screen.getByRole("button", { name: "Save" });
    expect(save).toBeDisabled();

    await userEvent.type(cell("EUR average rate, Oct 2026"), "1.0801");
    expect(tdOf(cell("EUR average rate, Oct 2026"))).toHaveAttribute("data-dirty");
    await userEvent.type(cell("EUR end of period rate, Oct 2026"), "-1.2");
    expect(tdOf(cell("EUR end of period rate, Oct 2026"))).toHaveAttribute("data-invalid");
    expect(cell("EUR end of period rate, Oct 2026")).toHaveAccessibleDescription(RATE_MESSAGE);
    expect(screen.getByTestId("unsaved-summary")).toHaveTextContent("2 unsaved changes, 1 not valid");
    expect(save).toBeDisabled();

    await userEvent.clear(cell("EUR end of period rate, Oct 2026"));
    await userEvent.type(cell("EUR end of period rate, Oct 2026"), "abc");
    expect(cell("EUR end of period rate, Oct 2026")).toHaveAccessibleDescription(RATE_MESSAGE);
    await userEvent.clear(cell("EUR end of period rate, Oct 2026"));
    await userEvent.type(cell("EUR end of period rate, Oct 2026"), "1.0874");
    await userEvent.clear(cell("GBP end of period rate, Oct 2026"));
    expect(screen.getByTestId("unsaved-summary")).toHaveTextContent("3 unsaved changes");
    expect(save).toBeEnabled();

    await userEvent.click(save);
    await waitFor(() => expect(calls("PUT", "/fxrates")).toHaveLength(1));
    expect(calls("PUT", "/fxrates")[0]?.body).toEqual({
      rates: [
        { currency: "EUR", month: "2026-10", avgfx: "1.0801", endfx: "1.0874" },
        { currency: "GBP", month: "2026-10", avgfx: "1.2745", endfx: "" },
      ],
    });
    expect(await screen.findByRole("status")).toHaveTextContent("Saved 3 rates.");
    expect(cell("EUR average rate, Oct 2026")).toHaveValue("1.0801");
    expect(tdOf(cell("EUR average rate, Oct 2026"))).not.toHaveAttribute("data-dirty");
    expect(screen.getByTestId("missing-summary")).toHaveTextContent("2 months miss a rate (2 empty cells).");
  });

  it("puts the server's refusal back on the cells it is about, and saves nothing", async () => {
    setup({
      "PUT /fxrates": refusal(400, "invalid_rates", "2 problems in the rates; nothing was saved.", {
        fields: [{ path: "rates.0.endfx", message: "Refused by the server." }, { path: "rates.1.currency", message: "GBP is not the currency of any active subsidiary (EUR)." }],
      }),
    });
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    await userEvent.type(cell("EUR end of period rate, Oct 2026"), "1.09");
    await userEvent.type(cell("GBP end of period rate, Sep 2026"), "1.27");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Nothing was saved");
    expect(alert).toHaveTextContent("2 problems in the rates; nothing was saved.");
    expect(alert).toHaveTextContent("GBP 2026-09: GBP is not the currency of any active subsidiary (EUR).");
    expect(cell("EUR end of period rate, Oct 2026")).toHaveAccessibleDescription("Refused by the server.");
    expect(tdOf(cell("GBP average rate, Sep 2026"))).toHaveAttribute("data-invalid");
    // The typed rates stay, still unsaved; editing a refused cell clears its message.
    expect(cell("EUR end of period rate, Oct 2026")).toHaveValue("1.09");
    await userEvent.type(cell("EUR end of period rate, Oct 2026"), "5");
    expect(tdOf(cell("EUR end of period rate, Oct 2026"))).not.toHaveAttribute("data-invalid");
  });

  it("moves between cells with the keyboard, restores a cell with Escape, and discards every change", async () => {
    setup();
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    const start = cell("EUR average rate, Oct 2026");
    await userEvent.click(start);
    await userEvent.keyboard("{ArrowDown}");
    expect(cell("EUR average rate, Sep 2026")).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    expect(cell("EUR average rate, Aug 2026")).toHaveFocus();
    await userEvent.keyboard("{Shift>}{Enter}{/Shift}");
    expect(cell("EUR average rate, Sep 2026")).toHaveFocus();
    // The whole text is selected on arrival, so → leaves at once; after typing, ← first moves the caret.
    await userEvent.keyboard("{ArrowRight}");
    expect(cell("EUR end of period rate, Sep 2026")).toHaveFocus();
    await userEvent.keyboard("{ArrowRight}");
    expect(cell("GBP average rate, Sep 2026")).toHaveFocus();
    await userEvent.keyboard("9{ArrowLeft}");
    expect(cell("GBP average rate, Sep 2026")).toHaveFocus();
    expect(cell("GBP average rate, Sep 2026")).toHaveValue("9");
    await userEvent.keyboard("{Escape}");
    expect(cell("GBP average rate, Sep 2026")).toHaveValue("1.273");
    expect(screen.queryByTestId("unsaved-summary")).toBeNull();
    await userEvent.keyboard("{ArrowUp}");
    expect(cell("GBP average rate, Oct 2026")).toHaveFocus();

    await userEvent.keyboard("1.5");
    await userEvent.type(cell("EUR average rate, Oct 2026"), "1.1");
    expect(screen.getByTestId("unsaved-summary")).toHaveTextContent("2 unsaved changes");
    await userEvent.click(screen.getByRole("button", { name: "Discard" }));
    expect(cell("GBP average rate, Oct 2026")).toHaveValue("1.2745");
    expect(cell("EUR average rate, Oct 2026")).toHaveValue("");
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
  });

  it("pastes a block copied from a spreadsheet across the cells from the one it lands in", async () => {
    setup();
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    const target = cell("EUR average rate, Oct 2026");
    fireEvent.paste(target, { clipboardData: { getData: () => "1.0801\t1.0874\t1.2745\n1.0901\t1.0925\t1.2730\n" } });
    expect(target).toHaveValue("1.0801");
    expect(cell("EUR end of period rate, Oct 2026")).toHaveValue("1.0874");
    expect(cell("EUR average rate, Sep 2026")).toHaveValue("1.0901");
    // Equal to what is saved ("1.2730" is "1.273"): not a change.
    expect(tdOf(cell("GBP average rate, Sep 2026"))).not.toHaveAttribute("data-dirty");
    expect(screen.getByTestId("unsaved-summary")).toHaveTextContent("2 unsaved changes");
  });

  it("warns, without blocking, about a rate that looks inverted", async () => {
    setup();
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    await userEvent.type(cell("GBP end of period rate, Sep 2026"), "0.7806");
    expect(cell("GBP end of period rate, Sep 2026")).toHaveAccessibleDescription("Looks inverted: nearby months are about 1.2755 USD per GBP. Enter USD for 1 GBP.");
    expect(screen.getByRole("button", { name: "Save" })).toBeEnabled();
  });

  it("asks before leaving with unsaved rates", async () => {
    setup();
    const { router } = renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    await userEvent.type(cell("EUR average rate, Oct 2026"), "1.08");
    await act(() => router.navigate("/setup/companies"));
    const dialog = await screen.findByRole("dialog", { name: "Leave without saving?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Stay" }));
    expect(router.state.location.pathname).toBe("/consolidation/fx_rates");
    expect(cell("EUR average rate, Oct 2026")).toHaveValue("1.08");
  });
});

describe("FOREX Management: import, template, fetch and history", { timeout: SLOW_UI }, () => {
  const csvFile = (text: string) => new File([text], "rates.csv", { type: "text/csv" });

  it("imports a CSV as text/csv and reloads the grid", async () => {
    const server: { state?: { grid: FxRatesResponse } } = {};
    const t = setup({}, {
      import: () => {
        const state = server.state!;
        state.grid = applyRates(state.grid, [{ currency: "EUR", month: "2026-10", avgfx: "1.0801", endfx: "1.0874" }]);
        return { status: 200, body: { updated: 1, unchanged: 1 } };
      },
    });
    server.state = t.state;
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    await userEvent.click(screen.getByRole("button", { name: "Import CSV" }));
    const dialog = await screen.findByRole("dialog", { name: "Import rates from CSV" });
    const text = "currency,month,avgfx,endfx\nEUR,2026-10,1.0801,1.0874\nGBP,2026-10,1.2745,1.281\n";
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, csvFile(text));
    expect(await within(dialog).findByText("2 rows of rates in rates.csv")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Import" }));
    await waitFor(() => expect(t.calls("POST", "/fxrates/import")).toHaveLength(1));
    const sent = t.calls("POST", "/fxrates/import")[0]!;
    expect(sent.body).toBe(text);
    expect(sent.headers["content-type"]).toBe("text/csv");
    expect(sent.headers["authorization"]).toMatch(/^Bearer /);
    expect(await screen.findByRole("status")).toHaveTextContent("Imported 2 rows: 1 changed, 1 already had these rates.");
    await waitFor(() => expect(cell("EUR average rate, Oct 2026")).toHaveValue("1.0801"));
    expect(screen.queryByRole("dialog", { name: "Import rates from CSV" })).toBeNull();
  });

  it("lists the server's row errors and keeps the dialog open: nothing was imported", async () => {
    setup({}, {
      import: () => refusal(400, "invalid_csv", "2 rows have problems; nothing was imported.", {
        fields: [
          { path: "row 3", message: "Row 3: Use a month like 2026-10." },
          { path: "row 3", message: "Row 3: A rate must be a positive number with at most 10 decimal places, such as 1.2745." },
          { path: "row 5", message: "Row 5 has 2 values; expected 4 (currency, month, avgfx, endfx)." },
        ],
      }),
    });
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    await userEvent.click(screen.getByRole("button", { name: "Import CSV" }));
    const dialog = await screen.findByRole("dialog", { name: "Import rates from CSV" });
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, csvFile("currency,month,avgfx,endfx\nGBP,2026-08,1,1\nGBP,Aug,-1,1\n"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Import" }));
    const errors = await within(dialog).findByTestId("import-errors");
    expect(errors).toHaveTextContent("Nothing was imported");
    expect(errors).toHaveTextContent("2 rows have problems; nothing was imported.");
    expect(within(errors).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Row 3: Use a month like 2026-10.",
      "Row 3: A rate must be a positive number with at most 10 decimal places, such as 1.2745.",
      "Row 5 has 2 values; expected 4 (currency, month, avgfx, endfx).",
    ]);
  });

  it("downloads the template with the session token", async () => {
    const t = setup();
    const created = vi.fn(() => "blob:template");
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    await userEvent.click(screen.getByRole("button", { name: "Download template" }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(t.calls("GET", "/fxrates/template.csv")[0]?.headers["authorization"]).toMatch(/^Bearer /);
    const anchor = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(anchor.download).toBe("fx-rates-template.csv");
    expect(anchor.href).toBe("blob:template");
  });

  it("fetches rates for the months shown, overwriting only when asked, and says how many were filled", async () => {
    const { calls } = setup({
      "POST /fxrates/fetch": { status: 200, body: { updated: 3, unchanged: 1, months: 2, currencies: ["EUR", "GBP"] } },
    });
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    await userEvent.click(screen.getByRole("button", { name: "Fetch rates" }));
    const dialog = await screen.findByRole("dialog", { name: "Fetch rates from the rates service" });
    expect(dialog).toHaveTextContent("For EUR, GBP against USD");
    expect(within(dialog).getByText("Only empty cells are filled; rates already entered are kept.")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("checkbox", { name: "Overwrite rates already entered" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Fetch rates" }));
    await waitFor(() => expect(calls("POST", "/fxrates/fetch")).toHaveLength(1));
    expect(calls("POST", "/fxrates/fetch")[0]?.body).toEqual({ ...defaultRange(), overwrite: true });
    expect(await screen.findByRole("status")).toHaveTextContent("Fetched EUR, GBP for 2 of 24 months: 3 rows filled or updated, 1 unchanged.");
  });

  it("shows the rates service's refusal in the dialog", async () => {
    setup({
      "POST /fxrates/fetch": refusal(400, "invalid_range", "Fetch at most 120 months at once."),
    });
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    await userEvent.click(screen.getByRole("button", { name: "Fetch rates" }));
    const dialog = await screen.findByRole("dialog", { name: "Fetch rates from the rates service" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Fetch rates" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Fetch at most 120 months at once.");
  });

  it("shows who changed which rate, when, from what to what", async () => {
    setup({
      "GET /account/audit": {
        entries: [
          {
            id: 4,
            action: "fx.rates_changed",
            userEmail: "controller@northwind.example",
            createdAt: "2026-11-20T10:00:00.000Z",
            details: { changes: [{ currency: "GBP", month: "2026-10", avgfx: { old: "", new: "1.2745" }, endfx: { old: "1.28", new: "1.281" } }] },
          },
          { id: 3, action: "session.login", userEmail: "controller@northwind.example", createdAt: "2026-11-20T09:00:00.000Z", details: {} },
        ],
      },
    });
    renderRoutes(routes, "/consolidation/fx_rates");
    await grid();
    await userEvent.click(screen.getByRole("button", { name: "History" }));
    const table = await screen.findByRole("table", { name: "Rate changes" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent("controller@northwind.example");
    expect(rows[0]).toHaveTextContent("GBP Oct 2026");
    expect(rows[0]).toHaveTextContent("— → 1.2745");
    expect(rows[0]).toHaveTextContent("1.28 → 1.281");
  });
});

describe("FOREX Management: nothing to enter", { timeout: SLOW_UI }, () => {
  it("explains that no subsidiary keeps its books in another currency", async () => {
    setup({
      "GET /companies": [PARENT_CO, RETAIL_CO],
      "GET /fxrates": { parentCurrency: "USD", currencies: [], months: ["2026-10"], rates: [] },
    });
    renderRoutes(routes, "/consolidation/fx_rates");
    const empty = await screen.findByTestId("empty-state");
    expect(empty).toHaveTextContent("No foreign currency in use");
    expect(empty).toHaveTextContent("Every connected subsidiary keeps its books in USD, so nothing needs translating.");
    expect(empty).toHaveTextContent("Northwind Retail LLC: USD");
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("asks for a parent first when there is none", async () => {
    setup({
      "GET /companies": [{ ...UK_CO }, { ...DE_CO }],
      "GET /fxrates": { parentCurrency: null, currencies: [], months: ["2026-10"], rates: [] },
    });
    renderRoutes(routes, "/consolidation/fx_rates");
    const empty = await screen.findByTestId("empty-state");
    expect(empty).toHaveTextContent("Choose a parent company first");
    expect(within(empty).getByRole("link", { name: "Set the parent on Connected Companies" })).toHaveAttribute("href", "/setup/companies");
  });
});
