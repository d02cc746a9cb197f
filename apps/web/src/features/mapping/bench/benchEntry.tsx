import "@mantine/core/styles.css";
import { createRoot } from "react-dom/client";
import { createMemoryRouter, RouterProvider } from "react-router";
import { createQueryClient, Providers } from "../../../app/providers.tsx";
import { MappingPage } from "../components/MappingPage.tsx";
import { bigCharts, companyMap } from "../components/testData.ts";

/**
 * The page bench/mapping-grid.bench.ts loads in headless Chromium: the real COA Mapping screen,
 * production build, with the API answered in the page from generated data (5,000 subsidiary
 * accounts by default, `?n=` to change). It reports on window.__mappingBench how long the screen
 * took from mount to the first painted grid rows, and how many rows are in the DOM.
 */
declare global {
  interface Window {
    __mappingBench?: { renderMs: number; domRows: number; accounts: number; shownText: string; lastRequestMs: number } | { error: string };
  }
}

const n = Number(new URLSearchParams(location.search).get("n") ?? 5000);
const PARENT = "9341453172384015";
const SUB = "9341453172384023";
const { sub, parent, map, suggestions } = bigCharts(n);
const company = (realmId: string, name: string, isParent: boolean) => ({
  realmId,
  companyName: name,
  country: isParent ? "US" : "GB",
  homeCurrency: isParent ? "USD" : "GBP",
  parent: isParent,
  earliestTransactionDate: null,
  fiscalYearStartMonth: 1,
  ownershipPercent: "100",
  archivedAt: null,
  connectedAt: "2026-01-02T00:00:00.000Z",
});
const synced = { connection: "connected", sync: { state: "succeeded", progress: null, message: null, lastSyncedAt: "2026-03-01T10:00:00.000Z" } };
const subMap = companyMap(SUB, map, { parentRealmId: PARENT, mapped: Object.keys(map).length, toMap: sub.filter((a) => a.everHadBalance).length });
const answers: Record<string, unknown> = {
  "/api/account": { id: "a1", name: "Bench", onboarding: false, onboardingStep: 3, nabAccounts: [], createdAt: "2026-01-01T00:00:00.000Z" },
  "/api/companies": [company(PARENT, "Northwind Holdings Inc.", true), company(SUB, "Northwind UK Ltd", false)],
  "/api/companies/status": { [PARENT]: synced, [SUB]: synced },
  [`/api/companies/${PARENT}/accounts`]: parent,
  [`/api/companies/${SUB}/accounts`]: sub,
  [`/api/companies/${SUB}/map`]: subMap,
  "/api/companies/maps": { [SUB]: subMap },
  [`/api/companies/${SUB}/map/suggestions`]: { suggestions },
};
// The answers are serialized up front, as a server would have: the bench measures the screen, not JSON.stringify.
const bodies = new Map(Object.entries(answers).map(([k, v]) => [k, JSON.stringify(v)]));
// When the screen made its last request: the rest of the time is parsing, rendering and painting.
let lastRequestMs = 0;
window.fetch = (input: RequestInfo | URL) => {
  lastRequestMs = performance.now() - started;
  const path = (typeof input === "string" ? input : input instanceof URL ? input.pathname : input.url).split("?")[0] ?? "";
  const body = bodies.get(path);
  return Promise.resolve(new Response(body ?? '{"error":{"code":"not_found","message":"Not found."}}', { status: body ? 200 : 404 }));
};

const started = performance.now();
const root = document.getElementById("root");
if (!root) throw new Error("missing #root element");
const router = createMemoryRouter([{ path: "/setup/coa", element: <MappingPage /> }], { initialEntries: ["/setup/coa"] });
createRoot(root).render(
  <Providers client={createQueryClient()}>
    <RouterProvider router={router} />
  </Providers>,
);

// Rendered means rows are in the DOM and the browser has painted them (the frame after they appear).
const observer = new MutationObserver(() => {
  if (!document.querySelector("[data-row-id]")) return;
  observer.disconnect();
  requestAnimationFrame(() =>
    setTimeout(() => {
      window.__mappingBench = {
        renderMs: performance.now() - started,
        domRows: document.querySelectorAll("[data-row-id]").length,
        accounts: n,
        lastRequestMs,
        shownText: document.querySelector('[data-testid="mapping-grid"]')?.textContent?.match(/[\d,]+ accounts shown/)?.[0] ?? "",
      };
    }, 0),
  );
});
observer.observe(root, { childList: true, subtree: true });
setTimeout(() => {
  window.__mappingBench ??= { error: "no grid row appeared within 20 s" };
}, 20_000);
