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
