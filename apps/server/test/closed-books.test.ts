import { journalEntrySchema } from "@groupledger/qbo";
import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, configureForTranslation, drainJobs, signedInGroup, lockOpening, postOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";

/**
 * QuickBooks' "Close the books" (issue 20): the demo parent closed its books through 2023-12-31.
 * GroupLedger reads the closing date at connect and every sync, shows it in the opening balances'
 * and runs' eligibility, refuses a posting into closed books before sending it, and turns
 * QuickBooks' own refusal (the date moved since the last sync) into the same advice.
 */
describe.each(drivers)("closed books on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  const month = (m: string) => ({ kind: "month", year: Number(m.slice(0, 4)), month: Number(m.slice(5, 7)) });
  const parentEntries = () => sandbox.ledger(DEMO.parent)!.entries.filter((e) => e.deletedTime === undefined).length;

  it("reads the closing date, shows a closed opening month as not eligible, and refuses a run into closed books before and after QuickBooks would", async () => {
    const token = await signedInGroup(t.app, sandbox, "closed-books@northwind.example", [DEMO.parent, DEMO.uk]);
    const companies = (await get(t.app, "/api/companies", token)).json() as { realmId: string; bookCloseDate?: string | null }[];
    expect(companies.find((c) => c.realmId === DEMO.parent)!.bookCloseDate).toBe("2023-12-31");
    await configureForTranslation(t.app, token, [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2023-11", to: "2026-10" });

    // An opening month inside the parent's closed books: not eligible, the reason naming the date and the way out.
    expect((await post(t.app, "/api/obal", { year: 2023, month: 12, naturalYear: 2023, naturalMonth: 12 }, token)).statusCode).toBe(200);
    const closed = (await get(t.app, `/api/obal/${DEMO.uk}/trialbalance`, token)).json();
    expect(closed).toMatchObject({ eligible: false });
    expect(closed.reason).toBe(
      "Northwind Holdings Inc.'s books are closed through 2023-12-31 in QuickBooks, so the opening entry of Northwind UK Ltd, dated 2023-12-31, cannot be posted there. " +
        "Either choose a later opening month (the opening month is chosen on Opening Balance Sheet before it is locked), or move the closing date before 2023-12-31 in QuickBooks (Settings → Account and settings → Advanced → Accounting → Close the books), sync Northwind Holdings Inc. and post again.",
    );
    expect((await post(t.app, "/api/obal/review", { realmId: DEMO.uk }, token)).json().error.message).toBe(closed.reason);

    // A later opening month: the opening balance posts.
    expect((await post(t.app, "/api/obal/reset", {}, token)).statusCode).toBe(200);
    await lockOpening(t.app, token);
    await postOpening(t.app, token, DEMO.uk);

    // The parent closes January 2026 in QuickBooks; GroupLedger has not synced since: QuickBooks refuses, nothing is kept.
    sandbox.ledger(DEMO.parent)!.closeBooks("2026-01-31");
    const before = parentEntries();
    const refused = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.code).toBe("books_closed");
    expect(refused.json().error.message).toMatch(/^QuickBooks refused entry \S+ \(2026-01\), dated 2026-01-31: Northwind Holdings Inc.'s books are closed on that date .*Nothing was posted\.$/);
    expect(parentEntries()).toBe(before);
    const postings = (await get(t.app, `/api/consolidation/postings?realmId=${DEMO.uk}`, token)).json().postings as unknown[];
    expect(postings).toEqual([]);

    // After a sync GroupLedger knows the date: the preview says so and the post is refused before anything is sent.
    await post(t.app, `/api/companies/${DEMO.parent}/sync`, {}, token);
    await drainJobs(t.app);
    const preview = (await post(t.app, "/api/consolidation/preview", { realmId: DEMO.uk, period: month("2026-01") }, token)).json();
    expect(preview.ok).toBe(false);
    expect(preview.problems).toContainEqual({ code: "books_closed", message: expect.stringMatching(/^Northwind Holdings Inc.'s books are closed through 2026-01-31 in QuickBooks, so Northwind UK Ltd's 2026-01 entry, dated 2026-01-31, cannot be posted there\. Either post a later period/) });
    const calls = sandbox.ledger(DEMO.parent)!.entries.length;
    const again = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token);
    expect(again.statusCode).toBe(409);
    expect(sandbox.ledger(DEMO.parent)!.entries.length).toBe(calls);
    // February is open.
    const february = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-02") }, token);
    expect(february.statusCode, february.body).toBe(200);

    // The books reopened in QuickBooks and synced: January posts.
    sandbox.ledger(DEMO.parent)!.closeBooks("2023-12-31");
    await post(t.app, `/api/companies/${DEMO.parent}/sync`, {}, token);
    await drainJobs(t.app);
    const january = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token);
    expect(january.statusCode, january.body).toBe(200);
    const posted = await t.app.services.provider.client(DEMO.parent).query(`SELECT * FROM JournalEntry WHERE TxnDate = '2026-01-31'`, journalEntrySchema);
    expect(posted.length).toBeGreaterThan(0);
  });
});
