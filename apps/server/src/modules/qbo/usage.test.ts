import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { asc } from "drizzle-orm";
import { createTestDatabase, drivers, type TestDatabase } from "../../../test/databases.ts";
import { qboCallCounts } from "../../db/schema.ts";
import { CallCounter } from "./usage.ts";

const at = (iso: string) => new Date(iso);

describe.each(drivers)("the count of QuickBooks calls on %s", (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
  });
  afterAll(async () => t.drop());

  const rows = async () => (await t.database.db.select().from(qboCallCounts).orderBy(asc(qboCallCounts.realmId), asc(qboCallCounts.day)));
  const clear = () => t.database.db.delete(qboCallCounts);
  const failures: unknown[] = [];
  const counter = (now?: () => Date) => new CallCounter(t.database.db, (e) => void failures.push(e), now);

  it("gathers calls per realm per UTC day, reads and writes apart, and adds them to the day's row on each flush", async () => {
    await clear();
    const c = counter();
    c.add("r1", "read", at("2026-11-27T00:00:00Z"));
    c.add("r1", "read", at("2026-11-27T23:59:59.999Z"));
    c.add("r1", "write", at("2026-11-27T12:00:00Z"));
    // 23:30 in New York on the 27th is the 28th in UTC.
    c.add("r1", "read", at("2026-11-28T04:30:00Z"));
    c.add("r2", "read", at("2026-11-27T08:00:00Z"));
    expect(c.unwritten).toBe(5);
    await c.flush();
    expect(c.unwritten).toBe(0);
    expect(await rows()).toEqual([
      { realmId: "r1", day: "2026-11-27", reads: 2, writes: 1 },
      { realmId: "r1", day: "2026-11-28", reads: 1, writes: 0 },
      { realmId: "r2", day: "2026-11-27", reads: 1, writes: 0 },
    ]);

    c.add("r1", "read", at("2026-11-27T13:00:00Z"));
    c.add("r1", "write", at("2026-11-27T13:00:00Z"));
    await c.flush();
    // Nothing new: nothing written.
    await c.flush();
    expect((await rows())[0]).toEqual({ realmId: "r1", day: "2026-11-27", reads: 3, writes: 2 });
  });

  it("two processes add to the same row, flushing at once", async () => {
    await clear();
    const [a, b] = [counter(), counter()];
    for (let i = 0; i < 40; i++) a.add("shared", "read", at("2026-11-27T10:00:00Z"));
    for (let i = 0; i < 25; i++) b.add("shared", i % 5 === 0 ? "write" : "read", at("2026-11-27T10:00:00Z"));
    await Promise.all([a.flush(), b.flush(), a.flush(), b.flush()]);
    expect(await rows()).toEqual([{ realmId: "shared", day: "2026-11-27", reads: 60, writes: 5 }]);
  });

  it("writes many companies' days in a few statements", async () => {
    await clear();
    const c = counter();
    const insert = vi.spyOn(t.database.db, "insert");
    for (let realm = 0; realm < 1_200; realm++) c.add(`realm-${realm}`, "read", at("2026-11-27T10:00:00Z"));
    c.add("realm-0", "read", at("2026-11-26T10:00:00Z"));
    await c.flush();
    expect(insert).toHaveBeenCalledTimes(2);
    insert.mockRestore();
    expect(await rows()).toHaveLength(1_201);
  });

  it("keeps what a failed write held, with what was counted meanwhile, for the next flush", async () => {
    await clear();
    const c = counter();
    c.add("r1", "read", at("2026-11-27T10:00:00Z"));
    c.add("r1", "write", at("2026-11-27T10:00:00Z"));
    const insert = vi.spyOn(t.database.db, "insert").mockImplementationOnce(() => {
      throw new Error("connection lost");
    });
    await expect(c.flush()).rejects.toThrow("connection lost");
    c.add("r1", "read", at("2026-11-27T10:00:01Z"));
    expect(c.unwritten).toBe(3);
    await c.flush();
    insert.mockRestore();
    expect(await rows()).toEqual([{ realmId: "r1", day: "2026-11-27", reads: 2, writes: 1 }]);
  });

  it("counts what its observer is told, on the day its clock says; flushes by itself once started, and what is left on close", async () => {
    await clear();
    const c = counter(() => at("2026-11-27T10:00:00Z"));
    const call = { realmId: "r9", method: "GET", path: "query", status: 200, attempt: 1 } as const;
    c.observe({ ...call, kind: "read" });
    c.observe({ ...call, kind: "read", status: 0 });
    c.observe({ ...call, method: "POST", path: "journalentry", kind: "write" });
    c.start(10);
    await vi.waitFor(() => expect(c.unwritten).toBe(0), { timeout: 5_000, interval: 10 });
    c.observe({ ...call, kind: "read" });
    await c.close();
    expect(await rows()).toEqual([{ realmId: "r9", day: "2026-11-27", reads: 3, writes: 1 }]);
    expect(failures).toEqual([]);
  });
});
