import { journalEntrySchema } from "@groupledger/qbo";
import { Sandbox } from "@groupledger/qbo-sandbox";
import { describe, expect, it } from "vitest";
import { useTestApp } from "./app.ts";
import { DEMO, drainJobs, parentAndUk } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

/**
 * A subsidiary's account mapped onto one of the parent's foreign-currency accounts (issue #20):
 * the parent's GBP loan account takes only GBP entries, so a run's line for it goes to the
 * account's dollar counterpart (posting/foreign-accounts.ts). Re-consolidation must read that
 * posted line as the line for the loan account: a sync that changes nothing flags nothing.
 */
describe.each(drivers)("entries for a parent's foreign-currency account on %s", (driver) => {
  const sandbox = new Sandbox();
  const t = useTestApp(driver, { sandbox });

  it("posts a run's line for the GBP loan account to its counterpart, and a sync that changes nothing leaves the run unflagged", { timeout: 120_000 }, async () => {
    const token = await signedInUser(t.app, "counterpart@northwind.example");
    const { parentAccount, ukAccount } = await parentAndUk(t.app, sandbox, token);
    // The UK's prepayments, mapped by hand onto the parent's GBP loan account (an asset too).
    const loan = parentAccount("Intercompany Loan - Northwind UK");
    const { map } = (await get(t.app, `/api/companies/${DEMO.uk}/map`, token)).json();
    const remapped = await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: { ...map, [ukAccount("Prepayments")]: loan } }, token);
    expect(remapped.statusCode, remapped.body).toBe(200);
    expect((await post(t.app, "/api/obal", { year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 }, token)).statusCode).toBe(200);
    for (const action of ["review", "confirm"]) expect((await post(t.app, `/api/obal/${action}`, { realmId: DEMO.uk }, token)).statusCode).toBe(200);
    expect((await post(t.app, `/api/balances/post/${DEMO.uk}`, undefined, token)).statusCode).toBe(200);
    const run = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: { kind: "month", year: 2026, month: 1 } }, token);
    expect(run.statusCode, run.body).toBe(200);

    const client = t.app.services.provider.client(DEMO.parent);
    const counterpart = (await client.accounts()).find((a) => a.name === "Intercompany Loan - Northwind UK - group entries (USD)");
    expect(counterpart, "the counterpart was made").toBeDefined();
    const entries = await client.query("SELECT * FROM JournalEntry WHERE TxnDate >= '2025-12-31'", journalEntrySchema);
    const lines = entries.flatMap((e) => e.lines);
    expect(lines.some((l) => l.accountId === counterpart!.id)).toBe(true);
    expect(lines.some((l) => l.accountId === loan)).toBe(false);

    // Nothing changed in the UK's books: after a sync no posted period is flagged.
    await post(t.app, `/api/companies/${DEMO.uk}/sync`, {}, token);
    await drainJobs(t.app);
    const postings = (await get(t.app, `/api/consolidation/postings?realmId=${DEMO.uk}`, token)).json().postings as { period: { label: string }; stale: unknown }[];
    expect(postings.map((p) => [p.period.label, p.stale])).toEqual([["2026-01", null]]);
  });
});
