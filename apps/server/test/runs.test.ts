import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { balancesByAccount, journalEntrySchema } from "@groupledger/qbo";
import type { Sandbox } from "@groupledger/qbo-sandbox";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rowsOf } from "../src/db/client.ts";
import { consolidationPostings } from "../src/db/schema.ts";
import { translateSubsidiary } from "../src/modules/consolidation/translate.ts";
import { counterpartiesFor } from "../src/modules/qbo/counterparties.ts";
import { consolidationDocNumber, consolidationRequestId } from "../src/modules/posting/names.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, connectCompany, drainJobs, openingGroup, postOpening, dieAfterNextEntry } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

type Line = { account: string; debit: number; credit: number };
const month = (m: string) => ({ kind: "month", year: Number(m.slice(0, 4)), month: Number(m.slice(5, 7)) });

/** Parent + UK + Retail connected, opening month 2025-12 locked, both ready to translate. */
const groupWithOpeningBalances = (app: FastifyInstance, sandbox: Sandbox, email: string) =>
  openingGroup(app, sandbox, email, [{ realmId: DEMO.uk, historicalRate: "1.2650" }, { realmId: DEMO.retail, historicalRate: "1" }], { from: "2024-12", to: "2026-10" });

async function parentEntries(app: FastifyInstance, docNumber: string) {
  return app.services.provider.client(DEMO.parent).query(`SELECT * FROM JournalEntry WHERE DocNumber = '${docNumber}'`, journalEntrySchema);
}

describe.each(drivers)("consolidation runs on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);

  it("previews a subsidiary-month as a balanced entry with an explained CTA, and refuses periods it cannot post", async () => {
    const token = await groupWithOpeningBalances(t.app, sandbox, "runs@northwind.example");

    const blocked = (await post(t.app, "/api/consolidation/preview", { realmId: DEMO.uk, period: month("2026-01") }, token)).json();
    expect(blocked.ok).toBe(false);
    expect(blocked.problems.map((p: { code: string }) => p.code)).toContain("opening_not_posted");
    const refused = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/^Northwind UK Ltd 2026-01 cannot be posted: Northwind UK Ltd's opening balance at 2025-12 is not posted yet/);

    await postOpening(t.app, token, DEMO.uk);
    const preview = (await post(t.app, "/api/consolidation/preview", { realmId: DEMO.uk, period: month("2026-01") }, token)).json();
    expect(preview.problems).toEqual([]);
    expect(preview).toMatchObject({ ok: true, currency: "GBP", parentCurrency: "USD", txnDate: "2026-01-31", docNumber: "CR202601-384023", posted: null });
    expect(preview.period).toEqual({ kind: "month", from: "2026-01", to: "2026-01", label: "2026-01" });
    expect(preview.entry.totalDebit).toBe(preview.entry.totalCredit);
    expect(preview.entry.totalDebit).toBeGreaterThan(0);
    // The CTA line of the entry is the period's CTA change, and its explanation adds up to it exactly.
    const ctaLine = preview.entry.lines.find((l: Line) => l.account === preview.cta.account);
    expect(ctaLine ? ctaLine.credit - ctaLine.debit : 0).toBe(preview.cta.change);
    const t0 = preview.cta.total;
    expect(t0.openingNetAssets + t0.netIncome + t0.dividends + t0.equityMovements + t0.rounding).toBe(preview.cta.change);
    expect(preview.cta.months).toHaveLength(1);

    const quarter = (await post(t.app, "/api/consolidation/preview", { realmId: DEMO.uk, period: { kind: "quarter", year: 2026, month: 3 } }, token)).json();
    expect(quarter.period).toEqual({ kind: "quarter", from: "2026-01", to: "2026-03", label: "FY2026 Q1" });
    expect(quarter.cta.months).toHaveLength(3);

    const expectBad = async (body: unknown, status: number, message: string | RegExp) => {
      const res = await post(t.app, "/api/consolidation/preview", body, token);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.message).toMatch(message);
    };
    await expectBad({ realmId: DEMO.uk, period: month("2025-12") }, 400, "2025-12 is not after the opening month 2025-12: the opening balances already hold it. Choose a period from 2026-01 on.");
    await expectBad({ realmId: DEMO.uk, period: { kind: "quarter", year: 2026, month: 2 } }, 400, "Fiscal quarters of the parent end in 2026-03, 2026-06, 2026-09, 2026-12; 2026-02 is not a quarter-end.");
    await expectBad({ realmId: DEMO.uk, period: { kind: "year", year: 2026, month: 13 } }, 400, /month/);
    await expectBad({ realmId: DEMO.uk, period: { kind: "week", year: 2026, month: 1 } }, 400, /month, quarter or year/);
    await expectBad({ realmId: DEMO.parent, period: month("2026-01") }, 400, "Northwind Holdings Inc. is the parent; choose a subsidiary to consolidate.");
    await expectBad({ realmId: "123", period: month("2026-01") }, 404, "Company 123 is not in your account.");
  });

  it("posts a subsidiary-month exactly once (double click, two tabs, a lost answer) and refuses overlapping periods", async () => {
    const token = (await post(t.app, "/api/session/token", { email: "runs@northwind.example", password: "Ledger#2026x" })).json().token as string;
    const posts = await Promise.all([0, 1, 2].map(() => post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token)));
    for (const p of posts) expect(p.statusCode, p.body).toBe(200);
    expect(posts.map((p) => p.json().outcome).sort()).toEqual(["duplicate", "duplicate", "posted"]);
    const entries = await parentEntries(t.app, "CR202601-384023");
    expect(entries).toHaveLength(1);
    expect(posts[0]!.json().posting).toMatchObject({ status: "posted", journalEntryId: entries[0]!.id, docNumber: "CR202601-384023", period: { label: "2026-01" } });
    const klass = (await t.app.services.provider.client(DEMO.parent).classes()).find((k) => k.name === "Northwind UK Ltd")!;
    expect(entries[0]!.lines.every((l) => l.classId === klass.id)).toBe(true);

    const preview = (await post(t.app, "/api/consolidation/preview", { realmId: DEMO.uk, period: month("2026-01") }, token)).json();
    expect(preview.posted).toMatchObject({ journalEntryId: entries[0]!.id });
    const dup = (await get(t.app, `/api/getJournalEntries/${DEMO.uk}?month=1&year=2026&flag=consolidation&period=month`, token)).json();
    expect(dup.entriesFound).toBe(true);

    const overlap = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: { kind: "quarter", year: 2026, month: 3 } }, token);
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().error.message).toBe("Northwind UK Ltd already has 2026-01 posted, which overlaps FY2026 Q1; its months would be posted twice. Post the remaining months on their own instead.");

    // 2026-02: our process wrote its 'posting' row and QuickBooks made the entry, then the answer was lost.
    const accountId = (await get(t.app, "/api/session", token)).json().accountId as string;
    const feb = (await post(t.app, "/api/consolidation/preview", { realmId: DEMO.uk, period: month("2026-02") }, token)).json();
    const requestId = consolidationRequestId(accountId, DEMO.uk, { from: "2026-02", to: "2026-02" }, 0);
    const parentClient = t.app.services.provider.client(DEMO.parent);
    // The lines as the product sends them: receivables and payables named (QBO requires it).
    const names = await counterpartiesFor(t.db.database.db, parentClient, DEMO.parent, feb.entry.lines.map((l: Line) => l.account), "Northwind UK Ltd");
    const lost = await parentClient.createJournalEntry(
      {
        txnDate: "2026-02-28",
        currency: "USD",
        docNumber: consolidationDocNumber({ code: "202602" }, DEMO.uk),
        lines: feb.entry.lines.map((l: Line) => ({ postingType: l.debit > 0 ? "Debit" : "Credit", amount: l.debit || l.credit, accountId: l.account, classId: klass.id, entity: names.get(l.account) })),
      },
      requestId,
    );
    await t.db.database.db.insert(consolidationPostings).values({
      accountId,
      realmId: DEMO.uk,
      periodKind: "month",
      periodFrom: "2026-02",
      periodTo: "2026-02",
      periodLabel: "2026-02",
      status: "posting",
      docNumber: "CR202602-384023",
      requestId,
      lines: feb.entry.lines,
      inputs: {},
    });
    const retried = (await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-02") }, token)).json();
    expect(retried).toMatchObject({ outcome: "posted", posting: { journalEntryId: lost.id } });
    expect(await parentEntries(t.app, "CR202602-384023")).toHaveLength(1);
  });

  it("runs several months for a subsidiary in the background, in order, and the postings rebuild its translated balance sheet", async () => {
    const token = (await post(t.app, "/api/session/token", { email: "runs@northwind.example", password: "Ledger#2026x" })).json().token as string;
    await postOpening(t.app, token, DEMO.retail);
    const started = await post(t.app, "/api/multipleconsolidation/runs", { realmIds: [DEMO.uk, DEMO.retail], from: "2026-01", to: "2026-04" }, token);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: "queued", counts: { total: 8, pending: 8 }, progress: 0 });
    const second = await post(t.app, "/api/multipleconsolidation/runs", { realmIds: [DEMO.uk], from: "2026-05", to: "2026-05" }, token);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toMatch(/^Another run is in progress/);

    await drainJobs(t.app);
    const run = (await get(t.app, `/api/multipleconsolidation/runs/${started.json().id}`, token)).json();
    expect(run).toMatchObject({ status: "succeeded", progress: 1, counts: { total: 8, posted: 6, skipped: 2, failed: 0 } });
    expect(run.items.map((i: { month: string; realmId: string }) => `${i.month}:${i.realmId.slice(-3)}`)).toEqual([
      "2026-01:023", "2026-01:056", "2026-02:023", "2026-02:056", "2026-03:023", "2026-03:056", "2026-04:023", "2026-04:056",
    ]);
    // UK January and February were already posted above: skipped as duplicates, named.
    expect(run.items.filter((i: { status: string }) => i.status === "skipped").map((i: { month: string }) => i.month)).toEqual(["2026-01", "2026-02"]);
    expect(run.items[0].message).toBe("Already posted as entry CR202601-384023; skipped as a duplicate.");
    for (const m of ["202601", "202602", "202603", "202604"]) expect(await parentEntries(t.app, `CR${m}-384023`)).toHaveLength(1);

    // Opening balance + four months = the translated balance sheet at April's end, account by account.
    const entries = [...(await parentEntries(t.app, "OB202512-384023")), ...(await Promise.all(["202601", "202602", "202603", "202604"].map((m) => parentEntries(t.app, `CR${m}-384023`)))).flat()];
    const posted = new Map<string, number>();
    for (const e of entries) for (const l of e.lines) posted.set(l.accountId, (posted.get(l.accountId) ?? 0) + (l.postingType === "Debit" ? l.amount : -l.amount));
    const q = (await post(t.app, "/api/consolidation/preview", { realmId: DEMO.uk, period: { kind: "quarter", year: 2026, month: 3 } }, token)).json();
    expect(q.posted).toBeNull();
    const parentTb = balancesByAccount(await t.app.services.provider.client(DEMO.parent).report("TrialBalance", { start_date: "2026-01-01", end_date: "2026-04-30" }));
    expect([...parentTb.values()].reduce((s, v) => s + v[0]!, 0)).toBe(0);
    const classes = await t.app.services.provider.client(DEMO.parent).classes();
    expect(classes.filter((k) => k.name === "Northwind Retail LLC")).toHaveLength(1);
    // The UK translated at April's end from the same anchor: every asset and liability account
    // of the parent holds exactly what the five entries posted, to the cent. (P&L differs by
    // design: the entries carry 2025's profit, which QuickBooks closes into retained earnings.)
    const accountId = (await get(t.app, "/api/session", token)).json().accountId as string;
    const april = await translateSubsidiary(t.db.database.db, accountId, DEMO.uk, "2026-04", { openingMonth: "2024-12" });
    expect(april.ok).toBe(true);
    if (!april.ok) return;
    const balanceSheet = new Set(april.lines.filter((l) => l.classification === "Asset" || l.classification === "Liability").map((l) => l.parentAccount));
    const expected = new Map(april.byParentAccount.filter((l) => balanceSheet.has(l.account)).map((l) => [l.account, l.amount]));
    const postedBs = [...posted].filter(([account, amount]) => balanceSheet.has(account) && amount !== 0);
    expect(expected.size).toBeGreaterThan(3);
    expect(Object.fromEntries(postedBs)).toEqual(Object.fromEntries(expected));

    const list = (await get(t.app, `/api/consolidation/postings?realmId=${DEMO.uk}`, token)).json().postings;
    expect(list.map((p: { period: { label: string } }) => p.period.label)).toEqual(["2026-04", "2026-03", "2026-02", "2026-01"]);
    expect(list.every((p: { stale: unknown }) => p.stale === null)).toBe(true);
  });

  it("pauses and resumes a run; bad run requests get clear answers", async () => {
    const token = (await post(t.app, "/api/session/token", { email: "runs@northwind.example", password: "Ledger#2026x" })).json().token as string;
    const started = (await post(t.app, "/api/multipleconsolidation/runs", { realmIds: [DEMO.uk], from: "2026-05", to: "2026-06" }, token)).json();
    const paused = (await post(t.app, `/api/multipleconsolidation/runs/${started.id}/pause`, undefined, token)).json();
    expect(paused.status).toBe("paused");
    await drainJobs(t.app);
    expect((await get(t.app, `/api/multipleconsolidation/runs/${started.id}`, token)).json()).toMatchObject({ status: "paused", counts: { pending: 2 } });
    const resumed = (await post(t.app, `/api/multipleconsolidation/runs/${started.id}/resume`, undefined, token)).json();
    expect(resumed.status).toBe("queued");
    await drainJobs(t.app);
    expect((await get(t.app, `/api/multipleconsolidation/runs/${started.id}`, token)).json()).toMatchObject({ status: "succeeded", counts: { posted: 2 } });
    const again = await post(t.app, `/api/multipleconsolidation/runs/${started.id}/pause`, undefined, token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe("The run has finished; there is nothing to pause.");

    const bad = async (body: unknown, status: number, message: string | RegExp) => {
      const res = await post(t.app, "/api/multipleconsolidation/runs", body, token);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.message).toMatch(message);
    };
    await bad({ realmIds: [], from: "2026-01", to: "2026-02" }, 400, /Choose at least one subsidiary/);
    await bad({ realmIds: [DEMO.uk], from: "2026-13", to: "2026-02" }, 400, /Use a month like 2026-01/);
    await bad({ realmIds: [DEMO.uk], from: "2026-03", to: "2026-02" }, 400, "The run ends (2026-02) before it starts (2026-03).");
    await bad({ realmIds: [DEMO.uk], from: "2025-11", to: "2026-02" }, 400, /not after the opening month 2025-12/);
    await bad({ realmIds: [DEMO.parent], from: "2026-07", to: "2026-07" }, 400, /is the parent/);
    await bad({ realmIds: ["999"], from: "2026-07", to: "2026-07" }, 404, "Company 999 is not in your account.");
    const notFound = await get(t.app, "/api/multipleconsolidation/runs/00000000-0000-4000-8000-000000000000", token);
    expect(notFound.statusCode).toBe(404);
    expect((await get(t.app, "/api/multipleconsolidation/runs/nope", token)).statusCode).toBe(400);
  });

  it("Verify reconciles each subsidiary's postings and the parent's QuickBooks trial balance with the engine: zero differences", async () => {
    const token = (await post(t.app, "/api/session/token", { email: "runs@northwind.example", password: "Ledger#2026x" })).json().token as string;
    const res = await get(t.app, "/api/consolidation/verify?year=2026&month=4", token);
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json();
    expect(v.subsidiaries.map((s: { companyName: string; status: string; differences: unknown[] }) => [s.companyName, s.status, s.differences])).toEqual([
      ...v.subsidiaries.map((s: { companyName: string }) => [s.companyName, "ok", []]),
    ]);
    expect(v.group.differences).toEqual([]);
    expect(v.group.accounts).toBeGreaterThan(20);
    for (const s of v.subsidiaries) expect(s.accounts, s.companyName).toBeGreaterThan(10);
    expect(v).toMatchObject({ ok: true, month: "2026-04", openingMonth: "2025-12", group: { status: "ok" } });

    // A month not posted yet is named, and so is an entry deleted in QuickBooks.
    const later = (await get(t.app, "/api/consolidation/verify?year=2026&month=8", token)).json();
    const uk = later.subsidiaries.find((s: { realmId: string }) => s.realmId === DEMO.uk);
    expect(uk.status).toBe("differences");
    expect(uk.missingMonths).toEqual(["2026-07", "2026-08"]);
    expect(later.ok).toBe(false);
    const bad = await get(t.app, "/api/consolidation/verify?year=2025&month=6", token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("2025-06 is before the opening month 2025-12: nothing was posted for it.");
  });

  it("another account sees none of it", async () => {
    const other = await signedInUser(t.app, "other@runs.example");
    const runs = (await get(t.app, "/api/multipleconsolidation/runs", other)).json();
    expect(runs.runs).toEqual([]);
    expect((await get(t.app, "/api/consolidation/postings", other)).json().postings).toEqual([]);
    const owner = (await post(t.app, "/api/session/token", { email: "runs@northwind.example", password: "Ledger#2026x" })).json().token as string;
    const [run] = (await get(t.app, "/api/multipleconsolidation/runs", owner)).json().runs;
    expect((await get(t.app, `/api/multipleconsolidation/runs/${run.id}`, other)).statusCode).toBe(404);
    expect((await post(t.app, `/api/multipleconsolidation/runs/${run.id}/resume`, undefined, other)).statusCode).toBe(404);
    expect((await post(t.app, "/api/consolidation/preview", { realmId: DEMO.uk, period: month("2026-01") }, other)).statusCode).toBe(404);
  });
});

describe.each(drivers)("consolidation runs under faults on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver, { jobLeaseMs: 300 });

  it("a run stopped mid-way (a restart) and QuickBooks throttling and outages end with every month posted once, in order, no gap", async () => {
    const token = await groupWithOpeningBalances(t.app, sandbox, "restart@runs.example");
    await postOpening(t.app, token, DEMO.uk);
    const started = (await post(t.app, "/api/multipleconsolidation/runs", { realmIds: [DEMO.uk], from: "2026-01", to: "2026-06" }, token)).json();
    sandbox.setFaults({ latencyMs: 150 });
    const { worker } = t.app.services;
    await worker.poll();
    for (let i = 0; i < 400; i++) {
      const run = (await get(t.app, `/api/multipleconsolidation/runs/${started.id}`, token)).json();
      if (run.counts.posted >= 2) break;
      await sleep(25);
    }
    await worker.stop(); // the process dies: the job keeps its lease until it runs out
    const stopped = (await get(t.app, `/api/multipleconsolidation/runs/${started.id}`, token)).json();
    expect(stopped.status).toBe("running");
    expect(stopped.counts.pending).toBeGreaterThan(0);

    // The next process, with QuickBooks throttling and failing a third of its calls.
    sandbox.setFaults({ rate429: 0.2, rate5xx: 0.15, seed: 7 });
    await sleep(350);
    for (let i = 0; i < 60; i++) {
      await drainJobs(t.app);
      const run = (await get(t.app, `/api/multipleconsolidation/runs/${started.id}`, token)).json();
      if (run.status !== "running" && run.status !== "queued") break;
      await sleep(300);
    }
    sandbox.setFaults({});
    const run = (await get(t.app, `/api/multipleconsolidation/runs/${started.id}`, token)).json();
    expect(run, JSON.stringify(run.items)).toMatchObject({ status: "succeeded", counts: { posted: 6, failed: 0 } });
    for (const m of ["202601", "202602", "202603", "202604", "202605", "202606"]) expect(await parentEntries(t.app, `CR${m}-384023`), m).toHaveLength(1);
    const live = rowsOf<{ n: number }>(
      await t.db.database.db.execute(sql`select count(*)::int as n from consolidation_postings where status = 'posted' and realm_id = ${DEMO.uk}`),
    );
    expect(live[0]!.n).toBe(6);
  });

  it("a change in the subsidiary's books after posting is flagged on sync with what moved, and re-posting replaces the entry only on approval", async () => {
    const token = (await post(t.app, "/api/session/token", { email: "restart@runs.example", password: "Ledger#2026x" })).json().token as string;
    const accountId = (await get(t.app, "/api/session", token)).json().accountId as string;
    const [before] = await t.db.database.db
      .select()
      .from(consolidationPostings)
      .where(and(eq(consolidationPostings.accountId, accountId), eq(consolidationPostings.periodTo, "2026-03"), eq(consolidationPostings.status, "posted")));
    // Someone books a late March invoice in the UK company.
    const uk = t.app.services.provider.client(DEMO.uk);
    const accounts = await uk.accounts();
    const bank = accounts.find((a) => a.accountType === "Bank")!;
    const income = accounts.find((a) => a.classification === "Revenue")!;
    await uk.createJournalEntry(
      { txnDate: "2026-03-20", currency: "GBP", lines: [{ postingType: "Debit", amount: 125_000, accountId: bank.id }, { postingType: "Credit", amount: 125_000, accountId: income.id }] },
      "late-march-invoice-0001",
    );
    expect((await post(t.app, `/api/companies/${DEMO.uk}/sync`, undefined, token)).statusCode).toBeLessThan(300);
    await drainJobs(t.app);
    const postings = (await get(t.app, `/api/consolidation/postings?realmId=${DEMO.uk}`, token)).json().postings;
    const march = postings.find((p: { period: { label: string } }) => p.period.label === "2026-03");
    expect(march.stale).not.toBeNull();
    expect(march.stale.changes.length).toBeGreaterThan(0);
    // Later months move too: March's extra net assets are translated again at each later closing
    // rate, so their CTA lines change. Earlier months do not.
    expect(postings.filter((p: { stale: unknown }) => p.stale !== null).map((p: { period: { label: string } }) => p.period.label)).toEqual(["2026-06", "2026-05", "2026-04", "2026-03"]);
    const april = postings.find((p: { period: { label: string } }) => p.period.label === "2026-04");
    const ctaAccount = (await post(t.app, "/api/consolidation/preview", { realmId: DEMO.uk, period: month("2026-04") }, token)).json().cta.account;
    expect(april.stale.changes.map((c: { account: string }) => c.account)).toContain(ctaAccount);

    const noApproval = await post(t.app, `/api/consolidation/postings/${march.id}/repost`, {}, token);
    expect(noApproval.statusCode).toBe(400);
    expect(noApproval.json().error.message).toMatch(/Approve the replacement/);
    const replaced = (await post(t.app, `/api/consolidation/postings/${march.id}/repost`, { approve: true }, token)).json();
    expect(replaced.outcome).toBe("posted");
    expect(replaced.posting.journalEntryId).not.toBe(before!.journalEntryId);
    const entries = await parentEntries(t.app, "CR202603-384023");
    expect(entries.map((e) => e.id)).toEqual([replaced.posting.journalEntryId]);
    const unchanged = await post(t.app, `/api/consolidation/postings/${replaced.posting.id}/repost`, { approve: true }, token);
    expect(unchanged.statusCode).toBe(409);
    expect(unchanged.json().error.message).toBe("Northwind UK Ltd 2026-03 has not changed since it was posted; there is nothing to re-post.");
  });
});

describe.each(drivers)("consolidation runs: a crash after QuickBooks accepted the entry, on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  afterEach(() => vi.restoreAllMocks());

  it("never posts the month twice when the next attempt is asked to re-authorize the parent first", async () => {
    const token = await openingGroup(t.app, sandbox, "crash@runs.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2024-12", to: "2026-01" });
    await postOpening(t.app, token, DEMO.uk);

    // QuickBooks creates January's entry, then the process dies before it can record that.
    dieAfterNextEntry();
    expect((await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token)).statusCode).toBe(500);
    const [created] = await parentEntries(t.app, "CR202601-384023");
    expect(created).toBeDefined();

    // The parent's authorization lapses: the next attempt is asked to re-authorize before anything is sent.
    const tokens = await t.app.services.tokenStore.load(DEMO.parent);
    await t.app.services.provider.oauth("http://localhost/qbo/auth/complete").revoke(tokens!.refreshToken);
    const reauthorize = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token);
    expect(reauthorize.statusCode, reauthorize.body).toBe(409);
    expect(reauthorize.json().error.code).toBe("qbo_reauthorization_required");

    // Reconnected, the user posts again: January is the entry QuickBooks already made, not a second one.
    await connectCompany(t.app, sandbox, token, DEMO.parent);
    const done = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ outcome: "posted", posting: { journalEntryId: created!.id } });
    expect(await parentEntries(t.app, "CR202601-384023")).toHaveLength(1);
  });
});
