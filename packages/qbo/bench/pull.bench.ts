/**
 * A full pull of the demo group over the emulator with 100 ms injected latency: every company's
 * accounts and monthly balances for all its years. Prints QBO calls, calls per company-year
 * (target <= 3), wall time, and the floor the rate limits (10 concurrent, 500/min per realm)
 * imply for that many calls. Exits non-zero if anything fails or a target is missed.
 *
 * Strategy: per company, CompanyInfo + Preferences + the chart of accounts, then one
 * BalanceSheet (closing balances) and one ProfitAndLoss (activity) with summarize_column_by=Month
 * over the company's whole history: two report calls however many years there are.
 */
import { balancesByAccount, connectCompany, LimiterPool, MemoryTokenStore, QboClient, QboOAuth, sandboxEndpoints, type Report } from "../src/index.ts";
import { loadStartSandbox, SANDBOX_CLIENT } from "../src/contract/sandbox-module.ts";

const LATENCY_MS = 100;
const REDIRECT_URI = "http://127.0.0.1/qbo/callback";

async function main(): Promise<void> {
  const start = await loadStartSandbox();
  if (start === undefined) throw new Error("@groupledger/qbo-sandbox does not export startSandbox yet");
  const { url, sandbox, close } = await start({ port: 0, faults: { latencyMs: LATENCY_MS } });
  try {
    sandbox.setFaults({ latencyMs: LATENCY_MS });
    let oauthCalls = 0;
    const countingFetch: typeof fetch = (input, init) => {
      oauthCalls++;
      return fetch(input, init);
    };
    const oauth = new QboOAuth({ ...SANDBOX_CLIENT, redirectUri: REDIRECT_URI, endpoints: sandboxEndpoints(url), fetch: countingFetch });
    const store = new MemoryTokenStore();
    const limiters = new LimiterPool();
    const callsByRealm = new Map<string, number>();
    const began = performance.now();

    const results = await Promise.all(
      sandbox.companies().map(async (company) => {
        await connectCompany(oauth, store, company.realmId, await sandbox.issueAuthorizationCode(company.realmId, REDIRECT_URI));
        const client = new QboClient({
          realmId: company.realmId,
          oauth,
          tokens: store,
          limiter: limiters.forRealm(company.realmId),
          onCall: () => callsByRealm.set(company.realmId, (callsByRealm.get(company.realmId) ?? 0) + 1),
        });
        const [info, prefs, accounts] = await Promise.all([client.companyInfo(), client.preferences(), client.accounts()]);
        const from = `${(info.companyStartDate ?? "").slice(0, 4) || "2000"}-01-01`;
        const to = new Date().toISOString().slice(0, 10);
        const params = { start_date: from, end_date: to, accounting_method: "Accrual", summarize_column_by: "Month" } as const;
        const [bs, pl] = await Promise.all([client.report("BalanceSheet", params), client.report("ProfitAndLoss", params)]);
        check(company.companyName, bs, pl, new Set(accounts.map((a) => a.id)));
        const months = bs.columns.filter((c) => c.money && c.startDate !== undefined).length;
        const years = new Set(bs.columns.filter((c) => c.startDate !== undefined).map((c) => c.startDate?.slice(0, 4))).size;
        return { company: company.companyName, currency: prefs.homeCurrency, accounts: accounts.length, months, years, balances: balancesByAccount(bs).size + balancesByAccount(pl).size };
      }),
    );
    const wallMs = performance.now() - began;

    const calls = [...callsByRealm.values()].reduce((a, b) => a + b, 0);
    const companyYears = results.reduce((s, r) => s + r.years, 0);
    const perCompanyYear = calls / companyYears;
    // Realms are limited independently and pulled in parallel: the slowest realm sets the floor.
    const floorMs = Math.max(
      ...[...callsByRealm.values()].map((n) => Math.max(Math.ceil(n / 10) * LATENCY_MS, Math.floor((n - 1) / 500) * 60_000 + LATENCY_MS)),
    );
    for (const r of results) console.log(`  ${r.company} (${r.currency}): ${r.accounts} accounts, ${r.months} months over ${r.years} years, ${r.balances} account series`);
    console.log(`QBO API calls: ${calls} for ${results.length} companies, ${companyYears} company-years (plus ${oauthCalls} OAuth token calls)`);
    console.log(`calls per company-year: ${perCompanyYear.toFixed(2)} (target <= 3)`);
    console.log(`wall time: ${Math.round(wallMs)} ms with ${LATENCY_MS} ms latency`);
    console.log(`rate-limit floor for these calls (10 concurrent, 500/min per realm, ${LATENCY_MS} ms each): ${floorMs} ms; ratio ${(wallMs / floorMs).toFixed(2)}`);
    // Code exchange, then info/preferences/accounts, then the reports: three round trips in a row.
    console.log(`dependency floor (3 sequential round trips): ${3 * LATENCY_MS} ms`);
    if (perCompanyYear > 3) throw new Error(`calls per company-year ${perCompanyYear.toFixed(2)} > 3`);
  } finally {
    await close();
  }
}

function check(company: string, bs: Report, pl: Report, accountIds: ReadonlySet<string>): void {
  const months = bs.columns.filter((c) => c.money && c.startDate !== undefined);
  if (months.length === 0) throw new Error(`${company}: the BalanceSheet has no month columns`);
  const assets = bs.rows.find((r) => r.kind === "summary" && r.group === "TotalAssets");
  const le = bs.rows.find((r) => r.kind === "summary" && r.group === "TotalLiabilitiesAndEquity");
  for (const m of months) {
    if ((assets?.amounts[m.index] ?? 0) !== (le?.amounts[m.index] ?? 0)) throw new Error(`${company}: BalanceSheet does not balance in ${m.title}`);
  }
  for (const report of [bs, pl]) {
    for (const id of balancesByAccount(report).keys()) {
      if (!accountIds.has(id)) throw new Error(`${company}: ${report.name} names account ${id}, which accounts() did not return`);
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
