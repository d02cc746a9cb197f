import { describe, expect, it } from "vitest";
import { fetchDailyRates } from "./fx-source.ts";

const fakeSource = (body: unknown, status = 200) => ({
  baseUrl: "http://rates.test",
  fetch: (async () => new Response(JSON.stringify(body), { status })) as typeof fetch,
});

describe("fetchDailyRates", () => {
  it("reads the Frankfurter format and keeps tiny rates out of exponent notation", async () => {
    const daily = await fetchDailyRates(fakeSource({ rates: { "2026-10-01": { USD: 1.2731 }, "2026-10-02": { USD: 6.7e-7 } } }), "GBP", "USD", "2026-10-01", "2026-10-31");
    expect(daily).toEqual([
      { date: "2026-10-01", rate: "1.2731" },
      { date: "2026-10-02", rate: "0.0000006700" },
    ]);
  });

  it("explains a broken answer", async () => {
    await expect(fetchDailyRates(fakeSource({}, 503), "GBP", "USD", "a", "b")).rejects.toThrow("the rates service answered 503 for GBP→USD");
    await expect(fetchDailyRates(fakeSource({ nope: 1 }), "GBP", "USD", "a", "b")).rejects.toThrow("an answer without rates");
    await expect(fetchDailyRates(fakeSource({ rates: { "2026-10-01": { EUR: 1 } } }), "GBP", "USD", "a", "b")).rejects.toThrow("no usable USD rate for 2026-10-01");
    const down = { baseUrl: "http://127.0.0.1:1", fetch: globalThis.fetch };
    await expect(fetchDailyRates(down, "GBP", "USD", "2026-10-01", "2026-10-31")).rejects.toThrow(/could not be reached/);
  });
});

describe("fetchDailyRates' request", () => {
  it("asks the source for the range and the pair, as JSON, with the codes escaped", async () => {
    const asked: { url: string; accept: string | null }[] = [];
    const source = {
      baseUrl: "http://rates.test/v1",
      fetch: (async (url: string | URL | Request, init?: RequestInit) => {
        asked.push({ url: String(url), accept: new Headers(init?.headers).get("accept") });
        return new Response(JSON.stringify({ rates: {} }));
      }) as typeof fetch,
    };
    expect(await fetchDailyRates(source, "GBP", "U&D", "2026-10-01", "2026-10-31")).toEqual([]);
    expect(asked).toEqual([{ url: "http://rates.test/v1/2026-10-01..2026-10-31?from=GBP&to=U%26D", accept: "application/json" }]);
  });

  it("refuses a rate that is zero, negative or not a number, and an answer that is not JSON", async () => {
    for (const value of [0, -1.2, "1.27", null]) {
      await expect(fetchDailyRates(fakeSource({ rates: { "2026-10-01": { USD: value } } }), "GBP", "USD", "a", "b"), String(value)).rejects.toThrow("no usable USD rate for 2026-10-01");
    }
    const html = { baseUrl: "http://rates.test", fetch: (async () => new Response("<html>maintenance</html>")) as typeof fetch };
    await expect(fetchDailyRates(html, "GBP", "USD", "a", "b")).rejects.toThrow("the rates service sent an answer without rates");
  });
});
