import { balancesByAccount, journalEntrySchema } from "@groupledger/qbo";
import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, drainJobs, parentAndUk } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";
import { atRate, atRates } from "./money.ts";
import { INTERCO_REALM as INTERCO } from "@groupledger/contract";

type Side = { local: number; currency: string; translated: number };
type PairView = { pair: { id: string; name: string; kind: string }; left: Side; right: Side; difference: number; translationPart: number; bookPart: number; inCurrency: { currency: string; left: number; right: number } | null; matched: boolean };

describe.each(drivers)("intercompany eliminations on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";
  const ids: Record<string, string> = {};
  /** The UK's management charges of January to March 2026, month by month, as its QuickBooks reports them. */
  const ukFeesByMonth = async () => {
    const pl = await t.app.services.provider.client(DEMO.uk).report("ProfitAndLoss", { start_date: "2026-01-01", end_date: "2026-03-31", accounting_method: "Accrual", summarize_column_by: "Month" });
    return balancesByAccount(pl).get(ids.feeExpense!)!.slice(0, 3);
  };

  it("defines pairs between group companies, refusing what cannot be a pair", async () => {
    token = await signedInUser(t.app, "interco@northwind.example");
    const { parentAccount, ukAccount } = await parentAndUk(t.app, sandbox, token);
    // The loan, not the current account: current accounts are settled to nil at each quarter-end.
    ids.receivable = parentAccount("Intercompany Loan - Northwind UK");
    ids.feeIncome = parentAccount("Management Fee Income - Intercompany");
    ids.payable = ukAccount("Loan from Northwind Holdings");
    ids.feeExpense = ukAccount("Management Charges - Group");

    const create = (body: unknown) => post(t.app, "/api/eliminations/pairs", body, token);
    const balance = await create({ name: "UK loan", kind: "receivablePayable", left: { realmId: DEMO.parent, accountId: ids.receivable }, right: { realmId: DEMO.uk, accountId: ids.payable } });
    expect(balance.statusCode, balance.body).toBe(200);
    expect(balance.json()).toMatchObject({
      name: "UK loan",
      kind: "receivablePayable",
      differenceTo: "fx",
      left: { realmId: DEMO.parent, companyName: "Northwind Holdings Inc.", currency: "USD" },
      right: { realmId: DEMO.uk, companyName: "Northwind UK Ltd", currency: "GBP" },
    });
    const fees = await create({ name: "UK management fees", kind: "revenueExpense", left: { realmId: DEMO.parent, accountId: ids.feeIncome }, right: { realmId: DEMO.uk, accountId: ids.feeExpense } });
    expect(fees.statusCode, fees.body).toBe(200);

    const refused = async (body: unknown, status: number, message: string | RegExp) => {
      const res = await create(body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.message).toMatch(message);
    };
    await refused({ name: "again", kind: "receivablePayable", left: { realmId: DEMO.parent, accountId: ids.receivable }, right: { realmId: DEMO.uk, accountId: ids.payable } }, 409, "These two accounts are already paired (\"UK loan\").");
    await refused({ name: "same", kind: "receivablePayable", left: { realmId: DEMO.uk, accountId: ids.payable }, right: { realmId: DEMO.uk, accountId: ids.payable } }, 400, /same company/);
    await refused({ name: "mixed", kind: "receivablePayable", left: { realmId: DEMO.parent, accountId: ids.feeIncome }, right: { realmId: DEMO.uk, accountId: ids.payable } }, 400, /is revenue: a receivable\/payable pair takes asset and liability accounts/);
    await refused({ name: "gone", kind: "revenueExpense", left: { realmId: DEMO.parent, accountId: "999999" }, right: { realmId: DEMO.uk, accountId: ids.feeExpense } }, 404, /Account 999999 is not in Northwind Holdings Inc./);
    await refused({ name: "other", kind: "revenueExpense", left: { realmId: DEMO.germany, accountId: "1" }, right: { realmId: DEMO.uk, accountId: ids.feeExpense } }, 404, `Company ${DEMO.germany} is not in your account.`);
    await refused({ name: "", kind: "revenueExpense", left: { realmId: DEMO.parent, accountId: ids.feeIncome }, right: { realmId: DEMO.uk, accountId: ids.feeExpense } }, 400, /Name the pair/);
    await refused({ name: "x", kind: "loan", left: { realmId: DEMO.parent, accountId: ids.feeIncome }, right: { realmId: DEMO.uk, accountId: ids.feeExpense } }, 400, /kind is receivablePayable or revenueExpense/);
    expect((await get(t.app, "/api/eliminations/pairs", token)).json().pairs).toHaveLength(2);
  });

  it("shows both sides in the parent currency with the difference split exactly into its translation part and its book part", async () => {
    const res = await get(t.app, "/api/eliminations?kind=quarter&year=2026&month=3", token);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view.problems).toEqual([]);
    expect(view).toMatchObject({ ok: true, period: { label: "FY2026 Q1", from: "2026-01", to: "2026-03" }, parentCurrency: "USD", posted: null });
    const rates = (await get(t.app, "/api/fxrates?from=2026-01&to=2026-03", token)).json().rates as { currency: string; month: string; avgfx: string; endfx: string }[];
    const closing = rates.find((r) => r.currency === "GBP" && r.month === "2026-03")!.endfx;
    for (const p of view.pairs as PairView[]) {
      expect(p.difference, p.pair.name).toBe(p.left.translated + p.right.translated);
      expect(p.translationPart + p.bookPart, p.pair.name).toBe(p.difference);
      expect(p.left.local).not.toBe(0);
    }
    const balance = (view.pairs as PairView[]).find((p) => p.pair.kind === "receivablePayable")!;
    // The loan is lent from the parent's GBP account (issue #20): both sides are compared in pounds,
    // where the books agree to the penny, so none of the difference is the books'. All of it is
    // the exchange difference on the parent's loan, which QuickBooks keeps at the rates of the day:
    // its dollars against the pounds at March's closing rate.
    const pounds = balance.inCurrency!;
    expect(pounds.currency).toBe("GBP");
    expect(pounds.left).toBe(100_000_000);
    expect(pounds.right).toBe(-pounds.left);
    expect(balance.right.local).toBe(pounds.right);
    expect(balance.bookPart).toBe(0);
    expect(balance.translationPart).toBe(balance.difference);
    expect(balance.difference).toBe(balance.left.local + atRate(balance.right.local, closing));
    expect(Math.abs(balance.difference)).toBeGreaterThan(100_000);
    expect(balance.left.local).not.toBe(atRate(pounds.left, closing));
    const fees = (view.pairs as PairView[]).find((p) => p.pair.kind === "revenueExpense")!;
    // Book part of a flow: each month of the UK's charges at that month's average (the rate the
    // consolidation uses), summed exactly and rounded once; the translation part is the rounding of
    // each month on its own. The parent's account holds every subsidiary's fees, so the books differ.
    const monthly = ["2026-01", "2026-02", "2026-03"].map((m) => rates.find((r) => r.currency === "GBP" && r.month === m)!.avgfx);
    expect(new Set(monthly).size).toBeGreaterThan(1);
    const ukMonths = await ukFeesByMonth();
    expect(ukMonths.reduce((s, x) => s + x, 0)).toBe(fees.right.local);
    expect(fees.bookPart).toBe(fees.left.local + atRates(ukMonths, monthly));
    expect(Math.abs(fees.translationPart)).toBeLessThanOrEqual(1);
    expect(Math.abs(fees.bookPart)).toBeGreaterThan(1_000_000);
    expect(view.entry.lines.reduce((s: number, l: { debit: number; credit: number }) => s + l.debit - l.credit, 0)).toBe(0);
    expect(view.entry).toMatchObject({ docNumber: "EL2026Q1", txnDate: "2026-03-31" });
  });

  it("posts a period's eliminations once under the Interco class; the next period posts only what moved", async () => {
    const posts = await Promise.all([0, 1].map(() => post(t.app, "/api/eliminations/post", { period: { kind: "quarter", year: 2026, month: 3 } }, token)));
    expect(posts.map((p) => p.json().outcome).sort()).toEqual(["duplicate", "posted"]);
    const client = t.app.services.provider.client(DEMO.parent);
    const q1 = await client.query("SELECT * FROM JournalEntry WHERE DocNumber = 'EL2026Q1'", journalEntrySchema);
    expect(q1).toHaveLength(1);
    const dup = (await get(t.app, `/api/getJournalEntries/${DEMO.parent}?month=3&year=2026&flag=eliminations&period=quarter`, token)).json();
    expect(dup).toMatchObject({ entriesFound: true, entries: [{ id: q1[0]!.id, docNumber: "EL2026Q1" }] });
    expect((await get(t.app, `/api/getJournalEntries/${DEMO.parent}?month=4&year=2026&flag=eliminations`, token)).json().entriesFound).toBe(false);
    const notParent = await get(t.app, `/api/getJournalEntries/${DEMO.uk}?month=3&year=2026&flag=eliminations&period=quarter`, token);
    expect(notParent.statusCode).toBe(400);
    expect(notParent.json().error.message).toBe("Ask for elimination and group adjustment entries with the parent company's realmId.");
    expect(posts.find((p) => p.json().outcome === "posted")!.json().posting.companyName).toBe("Intercompany eliminations");
    const interco = (await client.classes()).find((k) => k.name === "Interco")!;
    expect(q1[0]!.lines.every((l) => l.classId === interco.id)).toBe(true);
    const overlap = await post(t.app, "/api/eliminations/post", { period: { kind: "month", year: 2026, month: 2 } }, token);
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().error.message).toMatch(/^Eliminations for FY2026 Q1 are already posted, which overlaps 2026-02/);

    const april = (await get(t.app, "/api/eliminations?kind=month&year=2026&month=4", token)).json();
    expect((await post(t.app, "/api/eliminations/post", { period: { kind: "month", year: 2026, month: 4 } }, token)).json().outcome).toBe("posted");
    const apr = await client.query("SELECT * FROM JournalEntry WHERE DocNumber = 'EL202604'", journalEntrySchema);
    // The loan is a GBP account, which QuickBooks posts only in GBP: its lines go to its dollar
    // counterpart (posting/foreign-accounts.ts), made once, of the same type, beside it.
    const lines = [...q1, ...apr].flatMap((e) => e.lines);
    expect(lines.filter((l) => l.accountId === ids.receivable)).toEqual([]);
    const chart = await client.accounts();
    const loan = chart.find((a) => a.id === ids.receivable)!;
    const counterparts = chart.filter((a) => a.name === "Intercompany Loan - Northwind UK - group entries (USD)");
    expect(counterparts).toHaveLength(1);
    expect(counterparts[0]).toMatchObject({ accountType: loan.accountType, accountSubType: loan.accountSubType, currency: "USD", parentId: undefined });
    // The receivable's row: Q1 and April together eliminate exactly April's closing balance.
    const balance = (april.pairs as PairView[]).find((p) => p.pair.kind === "receivablePayable")!;
    const onReceivable = lines.filter((l) => l.accountId === counterparts[0]!.id);
    const net = onReceivable.reduce((s, l) => s + (l.postingType === "Debit" ? l.amount : -l.amount), 0);
    expect(net).toBe(-balance.left.translated);
    expect((await get(t.app, "/api/eliminations?kind=month&year=2026&month=4", token)).json().posted).toMatchObject({ journalEntryId: apr[0]!.id });
  });

  it("a late change to the UK's loan in February flags the posted Q1 and April eliminations, with the difference by account; a sync that changes nothing flags none; replacing them in order clears them", { timeout: 120_000 }, async () => {
    const flagged = async () =>
      ((await get(t.app, `/api/consolidation/postings?realmId=${INTERCO}`, token)).json().postings as { status: string; period: { label: string }; stale: unknown }[])
        .filter((p) => p.status === "posted" && p.stale !== null)
        .map((p) => p.period.label)
        .sort();
    await post(t.app, `/api/companies/${DEMO.uk}/sync`, {}, token);
    await drainJobs(t.app);
    expect(await flagged()).toEqual([]);

    // The UK borrows £1,000 more in February, booked late: its loan payable moves from February on.
    const uk = t.app.services.provider.client(DEMO.uk);
    const bank = (await uk.accounts()).find((a) => a.accountType === "Bank")!;
    await uk.createJournalEntry(
      { txnDate: "2026-02-15", currency: "GBP", lines: [{ postingType: "Debit", amount: 100_000, accountId: bank.id }, { postingType: "Credit", amount: 100_000, accountId: ids.payable! }] },
      "late-loan-top-up-0001",
    );
    await post(t.app, `/api/companies/${DEMO.uk}/sync`, {}, token);
    await drainJobs(t.app);
    expect(await flagged()).toEqual(["2026-04", "FY2026 Q1"]);
    const postings = (await get(t.app, `/api/consolidation/postings?realmId=${INTERCO}`, token)).json().postings as { id: string; status: string; period: { label: string }; stale: { changes: { account: string; posted: number; now: number }[] } }[];
    const q1 = postings.find((p) => p.period.label === "FY2026 Q1" && p.status === "posted")!;
    // The payable's mapped parent account eliminates £1,000 more at March's closing rate; the FX line takes the rest.
    expect(q1.stale.changes.length).toBeGreaterThan(0);
    const view = (await get(t.app, "/api/eliminations?kind=quarter&year=2026&month=3", token)).json();
    expect(view.pairs.find((p: { pair: { kind: string } }) => p.pair.kind === "receivablePayable").inCurrency).toMatchObject({ currency: "GBP", right: -100_100_000 });

    // Replacing Q1 (approved) posts it again as the books are now. April stays flagged: its entry
    // posts what moved since Q1, and the extra pounds still move with April's closing rate.
    const refused = await post(t.app, `/api/eliminations/${q1.id}/repost`, {}, token);
    expect(refused.statusCode).toBe(400);
    const replaced = await post(t.app, `/api/eliminations/${q1.id}/repost`, { approve: true }, token);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ outcome: "posted", posting: { docNumber: "EL2026Q1", stale: null } });
    const entries = await t.app.services.provider.client(DEMO.parent).query("SELECT * FROM JournalEntry WHERE DocNumber = 'EL2026Q1'", journalEntrySchema);
    expect(entries.map((e) => e.id)).toEqual([replaced.json().posting.journalEntryId]);
    expect(await flagged()).toEqual(["2026-04"]);
    const april = ((await get(t.app, `/api/consolidation/postings?realmId=${INTERCO}`, token)).json().postings as { id: string; status: string; period: { label: string } }[]).find(
      (p) => p.period.label === "2026-04" && p.status === "posted",
    )!;
    expect((await post(t.app, `/api/eliminations/${april.id}/repost`, { approve: true }, token)).statusCode).toBe(200);
    expect(await flagged()).toEqual([]);
    const again = await post(t.app, `/api/eliminations/${replaced.json().posting.id}/repost`, { approve: true }, token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe("Eliminations FY2026 Q1 have not changed since they were posted; there is nothing to re-post.");
  });

  it("the consolidated report eliminates the pairs", async () => {
    const r = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", token)).json();
    expect(r.ok).toBe(true);
    expect(r.report.eliminations.map((e: { id: string }) => e.id).sort()).toHaveLength(2);
    const col = r.report.worksheet.columns.findIndex((c: { id: string }) => c.id === "eliminations");
    const row = r.report.worksheet.rows.find((x: { account: string }) => x.account === ids.receivable);
    expect(row.amounts[col]).not.toBe(0);
    // The intercompany accounts still in no pair are named, so nobody reads them as eliminated; the paired ones are not.
    const unpairedOf = (company: string) => (r.warnings as string[]).filter((w) => w.startsWith(`${company}'s intercompany account`));
    const [parentSide, ...moreParent] = unpairedOf("Northwind Holdings Inc.");
    const [ukSide, ...moreUk] = unpairedOf("Northwind UK Ltd");
    expect([...moreParent, ...moreUk]).toEqual([]);
    expect(parentSide).toContain('"Intercompany Receivable - Northwind UK"');
    expect(ukSide).toContain('"Amounts Owed to Northwind Holdings"');
    expect(parentSide).toMatch(/Pair (them|it) on Interco Eliminations\.$/);
    const unpaired = `${parentSide} ${ukSide}`;
    for (const paired of ["Intercompany Loan - Northwind UK", "Management Fee Income - Intercompany", "Loan from Northwind Holdings", "Management Charges - Group"]) expect(unpaired).not.toContain(`"${paired}"`);
    // Canada is not in this group: the parent's balance with it is not this consolidation's to eliminate.
    expect(unpaired).not.toContain("Northwind Canada");
  });

  it("removes a pair; another account cannot see or remove them", async () => {
    const other = await signedInUser(t.app, "other@interco.example");
    const [pair] = (await get(t.app, "/api/eliminations/pairs", token)).json().pairs;
    expect((await get(t.app, "/api/eliminations/pairs", other)).json().pairs).toEqual([]);
    const foreign = await t.app.inject({ method: "DELETE", url: `/api/eliminations/pairs/${pair.id}`, headers: { authorization: `Bearer ${other}` } });
    expect(foreign.statusCode).toBe(404);
    const mine = await t.app.inject({ method: "DELETE", url: `/api/eliminations/pairs/${pair.id}`, headers: { authorization: `Bearer ${token}` } });
    expect(mine.json()).toEqual({ deleted: true });
    const bad = await t.app.inject({ method: "DELETE", url: "/api/eliminations/pairs/not-a-uuid", headers: { authorization: `Bearer ${token}` } });
    expect(bad.statusCode).toBe(400);
    const badQuery = await get(t.app, "/api/eliminations?kind=quarter&year=2026&month=2", token);
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().error.message).toMatch(/not a quarter-end/);
  });
});
