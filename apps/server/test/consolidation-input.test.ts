import { and, eq } from "drizzle-orm";
import { chartMappingProblem, consolidate, parseConsolidationInput, type ChartAccount, type ConsolidationInputJson, type ConsolidationOutput, type Problem } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import { companies, fxRates, monthlyBalances } from "../src/db/schema.ts";
import { buildConsolidationInput, translateSubsidiary } from "../src/modules/consolidation/index.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, connectGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

type Account = { Id: string; name: string; acctNum: string | null; classification: string; accountType: string; accountSubType: string | null; active: boolean; everHadBalance: boolean };
const chart = (a: Account): ChartAccount => ({ id: a.Id, name: a.name, acctNum: a.acctNum, classification: a.classification, accountType: a.accountType, accountSubType: a.accountSubType, active: a.active });
type Entity = ConsolidationInputJson["entities"][number];

const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const monthText = (i: number) => `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;

/**
 * What docs/engine.md requires of local books, checked independently of the builder: every month
 * the balance-sheet accounts sum to zero, and retained earnings plus dividends accounts move by
 * exactly the month's result plus the dividends declared. Returns the months checked.
 */
function assertEngineBooks(entity: Entity, to: string): number {
  const kind = new Map(entity.accounts.map((a) => [a.id, a.classification === "Equity" ? a.equityKind : a.classification]));
  const start = monthIndex(entity.opening.month);
  const T = monthIndex(to) - start + 1;
  const balance = new Array<number>(T).fill(0);
  const rolled = new Array<number>(T).fill(0);
  const result = new Array<number>(T).fill(0);
  const declared = new Array<number>(T).fill(0);
  for (const s of entity.balances) {
    const k = kind.get(s.account);
    expect(s.from).toBe(entity.opening.month);
    expect(s.amounts).toHaveLength(T);
    s.amounts.forEach((x, t) => {
      if (k === "Revenue" || k === "Expense") result[t]! += x;
      else {
        balance[t]! += x;
        if (k === "retainedEarnings" || k === "dividends") rolled[t]! += x;
      }
    });
  }
  for (const d of entity.dividends ?? []) declared[monthIndex(d.month) - start]! += d.amount;
  for (let t = 0; t < T; t++) {
    expect(balance[t], `${entity.name} balances at ${monthText(start + t)}`).toBe(0);
    if (t > 0) expect(rolled[t]! - rolled[t - 1]!, `${entity.name} rolls forward in ${monthText(start + t)}`).toBe(result[t]! + declared[t]!);
  }
  return T;
}

/** Every translated TB, the worksheet and the balance sheet balance; the CTA explanation adds up. */
function assertConsolidationBalances(out: ConsolidationOutput) {
  for (const e of out.entities) {
    expect(e.lines.reduce((s, l) => s + l.translated, 0), `${e.name}'s translated TB`).toBe(0);
    expect(e.cta.closing - e.cta.opening).toBe(e.cta.change);
    for (const m of [...e.ctaExplanation.months, e.ctaExplanation.total]) {
      expect(m.openingNetAssets + m.netIncome + m.dividends + m.equityMovements + m.rounding, `${e.name} CTA explanation`).toBe(m.change);
    }
    if (e.method === "currentRate") {
      // The rounding part is what is left, so it must stay small or a part is wrong: at most half
      // a cent per balance-sheet line plus the parts' own roundings.
      const bsLines = e.lines.filter((l) => l.classification === "Asset" || l.classification === "Liability").length;
      for (const m of e.ctaExplanation.months) {
        expect(Math.abs(m.rounding), `${e.name} CTA rounding in ${m.month}`).toBeLessThanOrEqual(Math.ceil(bsLines / 2) + 4);
        expect(Math.abs(m.openingNetAssets - m.openingNetAssetsLocal * (Number(m.closingRate) - Number(m.previousClosingRate)))).toBeLessThanOrEqual(1);
      }
      expect(e.ctaExplanation.total.change).toBe(e.cta.change);
      expect(e.ctaExplanation.months.reduce((s, m) => s + m.change, 0)).toBe(e.cta.change);
      const cta = e.lines.find((l) => l.special === "cta")!;
      expect(cta.translated).toBe(-e.cta.closing);
    }
  }
  out.worksheet.columns.forEach((c, i) => expect(out.worksheet.rows.reduce((s, r) => s + r.amounts[i]!, 0), `worksheet column ${c.label}`).toBe(0));
  const bs = out.balanceSheet;
  expect(bs.balanced).toBe(true);
  expect(bs.totalAssets).toBe(bs.totalLiabilities + bs.totalEquity + bs.nonControllingInterests);
  expect(bs.totalAssets).toBeGreaterThan(0);
}

const codes = (problems: Problem[]) => [...new Set(problems.map((p) => p.code))].sort();

describe.each(drivers)("consolidation input from the synced demo group on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  const put = (url: string, token: string, payload: unknown) =>
    t.app.inject({ method: "PUT", url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
  let token = "";
  let accountId = "";
  const db = () => t.db.database.db;

  it("hands the engine local books that balance and roll forward every month, for every demo company", async () => {
    token = await signedInUser(t.app, "consolidator@northwind.example");
    accountId = (await get(t.app, "/api/session", token)).json().accountId;
    await connectGroup(t.app, sandbox, token, [DEMO.parent, DEMO.uk, DEMO.germany, DEMO.canada, DEMO.retail]);

    // All of the synced history after the opening entries of 2023-01, both fiscal-year starts
    // (UK: April) crossed several times, dividends declared by every company.
    const subsidiaries = [DEMO.uk, DEMO.germany, DEMO.canada, DEMO.retail];
    const { input, problems } = await buildConsolidationInput(db(), { accountId, subsidiaries, period: { from: "2023-02", to: "2026-10" } });
    const bookProblems = problems.filter((p) => ["books_do_not_balance", "retained_earnings_unexplained", "negative_dividend", "no_retained_earnings_account", "not_synced", "months_not_synced"].includes(p.code));
    expect(bookProblems).toEqual([]);
    expect(input.entities.map((e) => e.id)).toEqual([DEMO.parent, ...subsidiaries]);
    for (const entity of input.entities) {
      expect(assertEngineBooks(entity, "2026-10")).toBe(46);
      // Retail joins the group in July 2024: it declares dividends to the parent in March 2025 and 2026 only.
      expect(entity.dividends!.length, `${entity.name} declared dividends`).toBeGreaterThanOrEqual(entity.id === DEMO.retail ? 2 : 3);
    }
    const uk = input.entities.find((e) => e.id === DEMO.uk)!;
    expect(uk).toMatchObject({ currency: "GBP", fiscalYearStartMonth: 4, ownership: "1", method: "currentRate", dividendRatePolicy: "declarationDate", role: "subsidiary" });
    // QBO's Retained Earnings excludes the fiscal year's profit; the engine's includes it.
    const reId = uk.retainedEarningsAccount!;
    const synced = async (realmId: string, account: string, month: string) =>
      (await db().select().from(monthlyBalances).where(and(eq(monthlyBalances.realmId, realmId), eq(monthlyBalances.qboAccountId, account), eq(monthlyBalances.month, `${month}-01`))))[0]?.amountMinor ?? 0;
    const plIds = uk.accounts.filter((a) => a.classification === "Revenue" || a.classification === "Expense").map((a) => a.id);
    const series = (id: string) => uk.balances.find((b) => b.account === id)?.amounts ?? [];
    const at = (m: string) => monthIndex(m) - monthIndex("2023-01");
    // 2025-06 is the third month of the UK's fiscal year 2026 (April to March).
    const ytd = ["2025-04", "2025-05", "2025-06"].reduce((s, m) => s + plIds.reduce((u, id) => u + (series(id)[at(m)] ?? 0), 0), 0);
    expect(ytd).not.toBe(0);
    expect(series(reId)[at("2025-06")]).toBe((await synced(DEMO.uk, reId, "2025-06")) + ytd);
    // In April QBO moves last year's profit into Retained Earnings; the engine's RE moves by April's result only.
    const april = plIds.reduce((s, id) => s + (series(id)[at("2025-04")] ?? 0), 0);
    expect(series(reId)[at("2025-04")]! - series(reId)[at("2025-03")]!).toBe(april);

    // Opening before the books start: the opening entries of 2023-01 move retained earnings.
    const early = await buildConsolidationInput(db(), { accountId, subsidiaries: [DEMO.uk], period: { month: "2023-01" } });
    expect(early.problems).toContainEqual(
      expect.objectContaining({ code: "retained_earnings_unexplained", realmId: DEMO.uk, month: "2023-01", message: expect.stringMatching(/^Northwind UK Ltd's retained earnings moved by .* in 2023-01 .*Open the consolidation in 2023-01 or later\.$/) }),
    );
  });

  it("consolidates the parent, the UK and Germany: the engine accepts the input and everything balances", async () => {
    // Maps: the best suggestion, then any compatible parent account for what is left.
    const parentAccounts: Account[] = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json();
    for (const realm of [DEMO.uk, DEMO.germany]) {
      const accounts: Account[] = (await get(t.app, `/api/companies/${realm}/accounts`, token)).json();
      const { suggestions } = (await get(t.app, `/api/companies/${realm}/map/suggestions`, token)).json();
      const map: Record<string, string> = {};
      for (const [subId, list] of Object.entries(suggestions) as [string, { parentAccountId: string }[]][]) if (list[0]) map[subId] = list[0].parentAccountId;
      for (const a of accounts.filter((x) => x.everHadBalance && map[x.Id] === undefined)) {
        map[a.Id] = parentAccounts.find((p) => chartMappingProblem(chart(a), chart(p)) === null)!.Id;
      }
      const saved = await post(t.app, `/api/companies/${realm}/map`, { map }, token);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().complete).toBe(true);
    }

    // CTA & historical: AOCI for both, historical rates for their share capital.
    const cta = (await get(t.app, "/api/cta", token)).json();
    const aoci = cta.ctaAccountSuggestions[0];
    expect(aoci.name).toBe("Accumulated Other Comprehensive Income");
    for (const [realm, rate] of [[DEMO.uk, "1.2650"], [DEMO.germany, "1.0710"], [DEMO.canada, "0.7400"]] as const) {
      const sub = cta.subsidiaries.find((s: { realmId: string }) => s.realmId === realm);
      const historical = sub.equity.filter((e: { localAmount: number | null }) => e.localAmount).map((e: { accountId: string }) => ({ accountId: e.accountId, historicalRate: rate }));
      expect(historical.length).toBeGreaterThan(0);
      const res = await put(`/api/cta/${realm}`, token, { ctaAccountId: aoci.accountId, historical });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().missing).toEqual([]);
    }

    const fetched = await post(t.app, "/api/fxrates/fetch", { from: "2024-12", to: "2025-12" }, token);
    expect(fetched.statusCode, fetched.body).toBe(200);

    const { input, problems, chosen } = await buildConsolidationInput(db(), { accountId, subsidiaries: [DEMO.uk, DEMO.germany], period: { from: "2025-01", to: "2025-12" } });
    expect(problems).toEqual([]);
    const parentChart: Account[] = parentAccounts;
    // FX differences: the parent's ExchangeGainOrLoss account, by the documented rule.
    expect(parentChart.find((a) => a.Id === chosen.fxDifference)).toMatchObject({ name: "Foreign Exchange Gain/Loss", accountSubType: "ExchangeGainOrLoss" });
    expect(input.designatedAccounts).toEqual({ cta: aoci.accountId, fxDifference: chosen.fxDifference });
    expect(Object.keys(input.rates!).sort()).toEqual(["EUR", "GBP"]);
    expect(Object.keys(input.rates!["GBP"]!)).toHaveLength(13); // 2024-12 … 2025-12
    const ukInput = input.entities.find((e) => e.id === DEMO.uk)!;
    expect(ukInput.opening).toMatchObject({ month: "2024-12", cta: 0 });
    expect(ukInput.historical!.every((h) => h.rate === "1.265")).toBe(true);
    expect(ukInput.dividends).toEqual([{ month: "2025-09", amount: expect.any(Number) }]);

    const output = consolidate(parseConsolidationInput(input));
    assertConsolidationBalances(output);
    expect(output.unmapped).toEqual([]);
    expect(output.warnings).toEqual([]);
    const ukOut = output.entities.find((e) => e.id === DEMO.uk)!;
    // The opening rule: CTA starts at zero; retained earnings carry the balancing figure.
    expect(ukOut.cta.opening).toBe(0);
    expect(ukOut.retainedEarnings.opening).toBe(-ukInput.opening.retainedEarnings!);
    expect(ukOut.cta.change).not.toBe(0);
    expect(ukOut.retainedEarnings.dividends).toBeGreaterThan(0);
    expect(output.journalEntries.every((j) => j.postable)).toBe(true);

    // profitPeriod policy: each dividend names the profit it distributes (the UK's last fiscal
    // year, cut to the months after the opening month) and is translated at that profit's rate.
    // Opened at 2024-09 (after the UK's 2024 dividend): the UK's January to March 2025 alone is a
    // loss in the demo (it sells the German stock it held at the group's year end in January),
    // which the builder rightly refuses.
    await put(`/api/cta/${DEMO.uk}`, token, { dividendRatePolicy: "profitPeriod" });
    expect((await post(t.app, "/api/fxrates/fetch", { from: "2024-09", to: "2024-11" }, token)).statusCode).toBe(200);
    const policy = await buildConsolidationInput(db(), { accountId, subsidiaries: [DEMO.uk, DEMO.germany], period: { from: "2025-01", to: "2025-12" }, openingMonth: "2024-09" });
    expect(policy.problems).toEqual([]);
    expect(policy.input.entities.find((e) => e.id === DEMO.uk)!.dividends).toEqual([{ month: "2025-09", amount: ukInput.dividends![0]!.amount, profitOf: { from: "2024-10", to: "2025-03" } }]);
    const policyOut = consolidate(parseConsolidationInput(policy.input));
    assertConsolidationBalances(policyOut);
    expect(policyOut.entities.find((e) => e.id === DEMO.uk)!.retainedEarnings.dividends).not.toBe(ukOut.retainedEarnings.dividends);
    await put(`/api/cta/${DEMO.uk}`, token, { dividendRatePolicy: "declarationDate" });

    // One month later in the year, CTA accumulated since the opening month.
    const june = await buildConsolidationInput(db(), { accountId, subsidiaries: [DEMO.uk, DEMO.germany], period: { month: "2025-06" }, openingMonth: "2024-12" });
    expect(june.problems).toEqual([]);
    const juneOut = consolidate(parseConsolidationInput(june.input));
    assertConsolidationBalances(juneOut);
    const ukJune = juneOut.entities.find((e) => e.id === DEMO.uk)!;
    const ukMay = ukOut.ctaExplanation.months.find((m) => m.month === "2025-05")!;
    expect(ukJune.ctaExplanation.months.map((m) => m.month)).toEqual(["2025-06"]);
    expect(ukJune.cta.opening).toBe(ukOut.ctaExplanation.months.filter((m) => m.month <= ukMay.month).reduce((s, m) => s + m.change, 0));
  });

  it("names what stops a consolidation: a missing rate, an unmapped account, no CTA account, another account's company", async () => {
    const request = { accountId, subsidiaries: [DEMO.uk, DEMO.germany], period: { from: "2025-01", to: "2025-12" } } as const;

    await put("/api/fxrates", token, { rates: [{ currency: "GBP", month: "2025-06", avgfx: "", endfx: "" }] });
    let built = await buildConsolidationInput(db(), request);
    expect(built.problems.filter((p) => p.code === "missing_rate")).toEqual([
      { code: "missing_rate", currency: "GBP", month: "2025-06", message: "Average rate for GBP in 2025-06 is missing. Northwind UK Ltd needs it; enter, import or fetch it on the FX rates page." },
      { code: "missing_rate", currency: "GBP", month: "2025-06", message: "Month-end rate for GBP in 2025-06 is missing. Northwind UK Ltd needs it; enter, import or fetch it on the FX rates page." },
    ]);
    expect(built.input.rates!["GBP"]!["2025-06"]).toBeUndefined(); // never 0, never guessed
    const refused = await translateSubsidiary(db(), accountId, DEMO.uk, "2025-12");
    expect(refused.ok).toBe(false);
    expect(codes(refused.problems)).toEqual(["missing_rate"]);
    await post(t.app, "/api/fxrates/fetch", { from: "2025-06", to: "2025-06" }, token);

    const ukAccounts: Account[] = (await get(t.app, `/api/companies/${DEMO.uk}/accounts`, token)).json();
    const bank = ukAccounts.find((a) => a.accountType === "Bank" && a.everHadBalance)!;
    const mapBefore = (await get(t.app, `/api/companies/${DEMO.uk}/map`, token)).json().map;
    await post(t.app, `/api/companies/${DEMO.uk}/unmap`, { accountIds: [bank.Id] }, token);
    built = await buildConsolidationInput(db(), request);
    expect(built.problems).toEqual([
      {
        code: "unmapped_account",
        realmId: DEMO.uk,
        accountId: bank.Id,
        message: `Northwind UK Ltd: asset account ${bank.acctNum ? `${bank.acctNum} ` : ""}"${bank.name}" has amounts between 2024-12 and 2025-12 but is not mapped to a parent account; map it on the Mapping page.`,
      },
    ]);
    // The engine still runs and puts it on an UNMAPPED row, and the posting entry is not postable.
    const out = consolidate(parseConsolidationInput(built.input));
    expect(out.unmapped.map((u) => [u.entity, u.account])).toEqual([[DEMO.uk, bank.Id]]);
    expect(out.journalEntries.find((j) => j.entity === DEMO.uk)!.postable).toBe(false);
    const blocked = await translateSubsidiary(db(), accountId, DEMO.uk, "2025-12");
    expect(blocked).toMatchObject({ ok: false, problems: [{ code: "unmapped_account", accountId: bank.Id }] });
    expect(!blocked.ok && blocked.preview?.lines.some((l) => l.parentAccount === `unmapped:${DEMO.uk}:${bank.Id}`)).toBe(true);
    await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: { [bank.Id]: mapBefore[bank.Id] } }, token);

    // The group's CTA account, unchosen (the API only changes it: a group keeps one once chosen).
    const groupCta = (await get(t.app, "/api/cta", token)).json().ctaAccountId as string;
    await db().update(companies).set({ ctaAccountId: null }).where(eq(companies.realmId, DEMO.parent));
    built = await buildConsolidationInput(db(), request);
    expect(built.problems).toEqual([
      {
        code: "missing_cta_account",
        message: "Choose the parent's account that receives the group's CTA (translation differences of Northwind UK Ltd, Northwind Deutschland GmbH) at the top of the CTA & Historical page.",
      },
    ]);
    expect((await put("/api/cta/account", token, { ctaAccountId: groupCta })).statusCode).toBe(200);

    // A company of another account is not found (and nothing about it is read).
    const stranger = await signedInUser(t.app, "stranger@consolidation.example");
    const strangerAccount = (await get(t.app, "/api/session", stranger)).json().accountId;
    await expect(buildConsolidationInput(db(), { ...request, accountId: strangerAccount })).rejects.toMatchObject({ status: 409, code: "parent_required" });
    await db().insert(companies).values({ accountId: strangerAccount, realmId: "stranger-parent", companyName: "Stranger Inc.", country: "US", homeCurrency: "USD", isParent: true });
    await expect(buildConsolidationInput(db(), { ...request, accountId: strangerAccount })).rejects.toMatchObject({ status: 404, code: "not_found", message: `Company ${DEMO.uk} is not in your account.` });
    await expect(translateSubsidiary(db(), strangerAccount, DEMO.uk, "2025-12")).rejects.toMatchObject({ status: 404 });

    expect((await buildConsolidationInput(db(), request)).problems).toEqual([]);
  });

  it("translates the UK at a month-end for the opening balance sheet: lines balance and show the synced balances", async () => {
    const tb = await translateSubsidiary(db(), accountId, DEMO.uk, "2025-12");
    if (!tb.ok) throw new Error(tb.problems.map((p) => p.message).join("\n"));
    expect(tb).toMatchObject({ companyName: "Northwind UK Ltd", currency: "GBP", parentCurrency: "USD", month: "2025-12", openingMonth: "2024-12", period: { from: "2025-01", to: "2025-12" } });
    expect(tb.lines.reduce((s, l) => s + l.translated, 0)).toBe(0);
    expect(tb.lines.reduce((s, l) => s + l.local, 0)).toBe(0);
    expect(tb.totals.balanced).toBe(true);
    expect(tb.totals.debit).toBe(tb.totals.credit);
    expect(tb.totals.debit).toBeGreaterThan(0);
    expect(tb.byParentAccount.reduce((s, l) => s + l.amount, 0)).toBe(0);
    expect(tb.byParentAccount.every((l) => !l.account.startsWith("unmapped:"))).toBe(true);

    // A bank account: the synced closing balance, at the December closing rate.
    const ukAccounts: Account[] = (await get(t.app, `/api/companies/${DEMO.uk}/accounts`, token)).json();
    const bank = ukAccounts.find((a) => a.accountType === "Bank" && a.everHadBalance)!;
    const [synced] = await db().select().from(monthlyBalances).where(and(eq(monthlyBalances.realmId, DEMO.uk), eq(monthlyBalances.qboAccountId, bank.Id), eq(monthlyBalances.month, "2025-12-01")));
    const [rate] = await db().select().from(fxRates).where(and(eq(fxRates.accountId, accountId), eq(fxRates.currency, "GBP"), eq(fxRates.month, "2025-12")));
    const line = tb.lines.find((l) => l.account === bank.Id)!;
    expect(synced!.amountMinor).not.toBe(0);
    expect(line).toMatchObject({ local: synced!.amountMinor, basis: "closing", rate: rate!.closing });
    expect(Math.abs(line.translated - line.local * Number(rate!.closing))).toBeLessThanOrEqual(0.5 + 1e-6);
    expect(line.parentAccountName).toBeTruthy();

    // CTA: the balancing line, explained, from zero at the opening month.
    const ctaLine = tb.lines.find((l) => l.special === "cta")!;
    expect(ctaLine.parentAccount).toBe(tb.cta.account);
    expect(ctaLine.translated).toBe(-tb.cta.closing);
    expect(tb.cta.opening).toBe(0);
    expect(tb.cta.explanation.months).toHaveLength(12);
    const parts = tb.cta.explanation.total;
    expect(parts.openingNetAssets + parts.netIncome + parts.dividends + parts.equityMovements + parts.rounding).toBe(tb.cta.change);
    expect(tb.cta.change).toBe(tb.cta.closing);
    // Profit of the parent's fiscal year (January to December) although the UK's year starts in April.
    const pl = tb.lines.filter((l) => l.classification === "Revenue" || l.classification === "Expense");
    expect(-pl.reduce((s, l) => s + l.local, 0)).toBe(tb.netIncome.local);
    expect(pl.every((l) => l.basis === "average")).toBe(true);
  });
});
