import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoFxRates } from "../demo/fx.ts";
import { startSandbox } from "../server.ts";

describe("offline ECB-style FX API", () => {
  let url = "";
  let close: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    ({ url, close } = await startSandbox({ port: 0 }));
  });
  afterAll(() => close());
  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("serves business-day rates whose month mean and last value give the demo's average and month-end rates", async () => {
    const { status, body } = await get("/fx/2026-10-01..2026-10-31?from=GBP&to=USD");
    expect(status).toBe(200);
    expect(body).toMatchObject({ amount: 1, base: "GBP", start_date: "2026-10-01", end_date: "2026-10-30" });
    const days = Object.entries(body["rates"] as Record<string, { USD: number }>);
    expect(days).toHaveLength(22); // the weekdays of October 2026 (the 31st is a Saturday)
    const demo = demoFxRates().find((r) => r.currency === "GBP" && r.month === "2026-10")!;
    const mean = days.reduce((s, [, r]) => s + r.USD, 0) / days.length;
    expect(mean).toBeCloseTo(Number(demo.average), 4);
    expect(days.at(-1)![1].USD).toBeCloseTo(Number(demo.closing), 5);
  });

  it("crosses through USD and answers like the real API for unknown input", async () => {
    const { body } = await get("/fx/2026-09-01..2026-09-30?from=USD&to=GBP,EUR");
    const first = Object.values(body["rates"] as Record<string, { GBP: number; EUR: number }>)[0]!;
    expect(first.GBP).toBeGreaterThan(0.6);
    expect(first.GBP).toBeLessThan(0.95);
    expect((await get("/fx/2026-09-01..2026-09-30?from=XXX&to=USD")).status).toBe(404);
    expect((await get("/fx/2026-09-30..2026-09-01?from=GBP&to=USD")).status).toBe(400);
    // Not calendar dates: refused (a month 13 used to step 2026-13, 2026-14, … without end).
    expect((await get("/fx/2026-13-01..2027-01-31?from=GBP&to=USD")).status).toBe(400);
    expect((await get("/fx/2026-02-30..2026-03-31?from=GBP&to=USD")).status).toBe(400);
    expect((await get("/fx/1999-01-01..1999-01-31?from=GBP&to=USD")).body["rates"]).toEqual({});
  });

  it("steps over a year end", async () => {
    const { status, body } = await get("/fx/2025-12-01..2026-01-31?from=GBP&to=USD");
    expect(status).toBe(200);
    const months = new Set(Object.keys(body["rates"] as Record<string, unknown>).map((d) => d.slice(0, 7)));
    expect([...months]).toEqual(["2025-12", "2026-01"]);
  });
});
