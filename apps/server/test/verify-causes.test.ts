import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, parentAndUk, lockOpening, postOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

type Cause = { code: string; message: string; fix: string; realmId: string | null; months: string[]; docNumbers: string[]; url: string | null };
const month = (m: string) => ({ kind: "month", year: Number(m.slice(0, 4)), month: Number(m.slice(5, 7)) });

/**
 * Verify says why it finds differences (issue 18): a group whose UK months and eliminations are
 * posted only in part, then an entry deleted and another edited in the emulator's QuickBooks.
 */
describe.each(drivers)("Verify's causes on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";
  const verify = async (m: string) => {
    const res = await get(t.app, `/api/consolidation/verify?year=${m.slice(0, 4)}&month=${Number(m.slice(5, 7))}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { ok: boolean; causes: Cause[]; subsidiaries: { realmId: string; missingMonths: string[]; missingEntries: string[] }[]; group: { status: string } };
  };

  it("names the months whose entries and eliminations are not posted, with where to post them", async () => {
    token = await signedInUser(t.app, "verify-causes@northwind.example");
    const { parentAccount, ukAccount } = await parentAndUk(t.app, sandbox, token);
    const pair = await post(t.app, "/api/eliminations/pairs", { name: "UK loan", kind: "receivablePayable", left: { realmId: DEMO.parent, accountId: parentAccount("Intercompany Loan - Northwind UK") }, right: { realmId: DEMO.uk, accountId: ukAccount("Loan from Northwind Holdings") } }, token);
    expect(pair.statusCode, pair.body).toBe(200);
    await lockOpening(t.app, token);
    await postOpening(t.app, token, DEMO.uk);
    for (const m of ["2026-01", "2026-02"]) {
      const posted = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month(m) }, token);
      expect(posted.statusCode, posted.body).toBe(200);
    }
    const eliminated = await post(t.app, "/api/eliminations/post", { period: month("2026-01") }, token);
    expect(eliminated.statusCode, eliminated.body).toBe(200);

    const v = await verify("2026-04");
    expect(v.ok).toBe(false);
    expect(v.group.status).toBe("differences");
    expect(v.subsidiaries[0]!.missingMonths).toEqual(["2026-03", "2026-04"]);
    expect(v.causes).toEqual([
      {
        code: "months_not_posted",
        fix: "multiPeriod",
        realmId: DEMO.uk,
        months: ["2026-03", "2026-04"],
        docNumbers: [],
        url: null,
        message: "The entries of Northwind UK Ltd for March 2026 to April 2026 are not posted.",
      },
      {
        code: "eliminations_not_posted",
        fix: "eliminations",
        realmId: null,
        months: ["2026-02", "2026-03", "2026-04"],
        docNumbers: [],
        url: null,
        message: "The intercompany eliminations for February 2026 to April 2026 are not posted.",
      },
    ]);
    // At January everything is posted: nothing to explain.
    const january = await verify("2026-01");
    expect(january.causes).toEqual([]);
  });

  it("names by DocNumber an entry deleted in QuickBooks and one edited there, with the edited one's link", async () => {
    const client = t.app.services.provider.client(DEMO.parent);
    const postings = (await get(t.app, "/api/consolidation/postings", token)).json().postings as { realmId: string; docNumber: string; journalEntryId: string; period: { to: string } }[];
    const january = postings.find((p) => p.realmId === DEMO.uk && p.period.to === "2026-01")!;
    const entry = await client.readJournalEntry(january.journalEntryId);
    await client.deleteJournalEntry(entry.id, entry.syncToken);
    // The elimination entry edited in QuickBooks: its first line moved by a cent, on both sides.
    const elimination = postings.find((p) => p.realmId === "interco")!;
    const ledger = sandbox.ledger(DEMO.parent)!;
    const stored = ledger.entry(elimination.journalEntryId)!;
    const [first, second, ...rest] = stored.lines;
    ledger.replaceEntry({ ...stored, syncToken: stored.syncToken + 1, lines: [{ ...first!, amount: first!.amount + 1, homeAmount: first!.homeAmount + 1 }, { ...second!, amount: second!.amount + 1, homeAmount: second!.homeAmount + 1 }, ...rest] });

    const v = await verify("2026-02");
    expect(v.subsidiaries[0]!.missingEntries).toEqual([january.docNumber]);
    expect(january.docNumber).toBe("CR202601-384023");
    const changed = v.causes.filter((c) => c.code === "entry_deleted" || c.code === "entry_edited");
    expect(changed.map((c) => [c.code, c.fix, c.docNumbers])).toEqual([
      ["entry_deleted", "singlePeriod", ["CR202601-384023"]],
      ["entry_edited", "quickbooks", [elimination.docNumber]],
    ]);
    expect(changed[0]!.message).toBe("Entry CR202601-384023 (Northwind UK Ltd, January 2026) was deleted in QuickBooks after GroupLedger posted it.");
    expect(changed[1]!.message).toBe(`Entry ${elimination.docNumber} (intercompany eliminations, January 2026) was edited in QuickBooks after GroupLedger posted it: 2 accounts differ from what was posted.`);
    expect(changed[1]!.url).toContain(elimination.journalEntryId);
    // February's eliminations are still not posted, and said so too.
    expect(v.causes.map((c) => c.code)).toContain("eliminations_not_posted");
  });
});
