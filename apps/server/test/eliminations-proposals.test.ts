import pg from "pg";
import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { proposalPairRequest, type AcceptProposalsResult, type PairProposalsView } from "@groupledger/contract";
import { buildApp } from "../src/app.ts";
import { fromPool } from "../src/db/client.ts";
import { testConfig, useSandboxApp } from "./app.ts";
import { DEMO, DEMO_HISTORICAL_RATES, drainJobs, translatedGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";

type PairView = { pair: { name: string; kind: string }; difference: number; translationPart: number; bookPart: number; inCurrency: { currency: string; left: number; right: number } | null; match: string };

/**
 * The demo group onboarded as a new user would (all five companies connected, mapped and
 * translatable), then every pair the charts propose accepted in one step: what is proposed is what
 * an accountant pairs by hand, the report's warning of unpaired intercompany accounts shrinks to the
 * two accounts with no recognisable counterpart, and the period's eliminations cancel but for the
 * exchange differences the screen explains. Two accepts at once (on PostgreSQL from two app
 * instances, two "processes") define each pair once.
 */
describe.each(drivers)("intercompany pairs proposed from the demo group's charts on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";
  let proposals: PairProposalsView;
  let second: { app: FastifyInstance; close: () => Promise<void> } | undefined;
  afterAll(async () => second?.close());
  const accept = (app: FastifyInstance, body: unknown) => post(app, "/api/eliminations/pairs/accept", body, token);
  const unpairedWarnings = async () => {
    const r = await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", token);
    expect(r.statusCode, r.body).toBe(200);
    return (r.json().warnings as string[]).filter((w) => / intercompany accounts? /.test(w));
  };
  const side = (s: PairProposalsView["proposals"][number]["left"]) => `${s.companyName} ${s.account}${s.name ? ` [${s.name.kind} ${s.name.displayName}]` : ""}`;

  it("proposes what an accountant pairs by hand: each balance and flow with its mirror in the company it names, with the reason", { timeout: 180_000 }, async () => {
    token = await translatedGroup(t.app, sandbox, "proposals@northwind.example", DEMO_HISTORICAL_RATES, { from: "2024-11", to: "2026-10" });
    // Before: the report names the intercompany accounts nothing eliminates, company by company.
    const before = await unpairedWarnings();
    expect(before).toHaveLength(5);

    const res = await get(t.app, "/api/eliminations/pairs/proposals", token);
    expect(res.statusCode, res.body).toBe(200);
    proposals = res.json();
    expect(proposals.proposals.map((p) => `${p.name}: ${side(p.left)} ↔ ${side(p.right)}`)).toEqual([
      'Northwind Canada Inc. current account: Northwind Holdings Inc. 1401 "Intercompany Receivable - Northwind Canada" ↔ Northwind Canada Inc. 23500 "Due to Northwind Holdings"',
      'Northwind Canada Inc. loan: Northwind Holdings Inc. 1610 "Intercompany Loan - Northwind Canada" ↔ Northwind Canada Inc. 25000 "Loan Payable - Northwind Holdings"',
      'Northwind Canada Inc. fees: Northwind Holdings Inc. 4500 "Management Fee Income - Intercompany" [Customer Northwind Canada Inc.] ↔ Northwind Canada Inc. 64100 "Management Fees - Northwind Holdings"',
      'Northwind Canada Inc. interest: Northwind Holdings Inc. 8010 "Intercompany Interest Income" [Customer Northwind Canada Inc.] ↔ Northwind Canada Inc. 66500 "Interest on Intercompany Loan" [Vendor Northwind Holdings Inc.]',
      'Northwind Deutschland GmbH current account: Northwind Holdings Inc. 1402 "Intercompany Receivable - Northwind Deutschland" ↔ Northwind Deutschland GmbH 3400 "Verbindlichkeiten gegenüber Northwind Holdings"',
      'Northwind Deutschland GmbH loan: Northwind Holdings Inc. 1620 "Intercompany Loan - Northwind Deutschland" ↔ Northwind Deutschland GmbH 3560 "Darlehen Northwind Holdings"',
      'Northwind Deutschland GmbH fees: Northwind Holdings Inc. 4500 "Management Fee Income - Intercompany" [Customer Northwind Deutschland GmbH] ↔ Northwind Deutschland GmbH 6837 "Konzernumlagen Northwind Holdings"',
      'Northwind Deutschland GmbH interest: Northwind Holdings Inc. 8010 "Intercompany Interest Income" [Customer Northwind Deutschland GmbH] ↔ Northwind Deutschland GmbH 7310 "Zinsaufwendungen verbundene Unternehmen" [Vendor Northwind Holdings Inc.]',
      'Northwind Deutschland GmbH – Northwind UK Ltd current account: Northwind Deutschland GmbH 1260 "Forderungen gegen Northwind UK Ltd" ↔ Northwind UK Ltd 2110 "Amounts Owed to Northwind Deutschland"',
      // Retail keeps account numbers off in QuickBooks: its accounts go by name.
      'Northwind Retail LLC current account: Northwind Holdings Inc. 1403 "Intercompany Receivable - Northwind Retail" ↔ Northwind Retail LLC "Due to Northwind Holdings"',
      'Northwind Retail LLC loan: Northwind Holdings Inc. 1630 "Intercompany Loan - Northwind Retail" ↔ Northwind Retail LLC "Note Payable - Northwind Holdings"',
      'Northwind Retail LLC fees: Northwind Holdings Inc. 4500 "Management Fee Income - Intercompany" [Customer Northwind Retail LLC] ↔ Northwind Retail LLC "Management Fees - Northwind Holdings"',
      'Northwind Retail LLC interest: Northwind Holdings Inc. 8010 "Intercompany Interest Income" [Customer Northwind Retail LLC] ↔ Northwind Retail LLC "Interest - Northwind Holdings Note"',
      'Northwind UK Ltd current account: Northwind Holdings Inc. 1400 "Intercompany Receivable - Northwind UK" ↔ Northwind UK Ltd 2120 "Amounts Owed to Northwind Holdings"',
      'Northwind UK Ltd loan: Northwind Holdings Inc. 1600 "Intercompany Loan - Northwind UK" ↔ Northwind UK Ltd 2410 "Loan from Northwind Holdings"',
      'Northwind UK Ltd fees: Northwind Holdings Inc. 4500 "Management Fee Income - Intercompany" [Customer Northwind UK Ltd] ↔ Northwind UK Ltd 7603 "Management Charges - Group" [Vendor Northwind Holdings Inc.]',
      'Northwind UK Ltd interest: Northwind Holdings Inc. 8010 "Intercompany Interest Income" [Customer Northwind UK Ltd] ↔ Northwind UK Ltd 7903 "Loan Interest - Group" [Vendor Northwind Holdings Inc.]',
    ]);
    expect(proposals.proposals.find((p) => p.name === "Northwind UK Ltd loan")!.reason).toBe(
      'Northwind Holdings Inc.\'s 1600 "Intercompany Loan - Northwind UK" names Northwind UK Ltd; Northwind UK Ltd\'s 2410 "Loan from Northwind Holdings" names Northwind Holdings Inc.: loan receivable ↔ loan payable.',
    );
    expect(proposals.choices).toEqual([]);
    // Left without a proposal, and why: the dividends (eliminated by the dividend settings, not a
    // pair) and the UK's purchases from Germany, whose sales account ("Steuerfreie
    // innergemeinschaftliche Lieferungen", tax-free EU supplies) names no group company.
    expect(proposals.unmatched.map((u) => `${side(u.side)}: ${u.reason}`)).toEqual([
      'Northwind Holdings Inc. 8020 "Dividend Income - Subsidiaries": Dividends within the group are eliminated against the dividends each subsidiary declared, not by a pair (a pair would eliminate them twice): set this account as where Northwind Holdings Inc. books each subsidiary\'s dividends, under intra-group dividends.',
      'Northwind UK Ltd 5010 "Purchases - Group Companies": No sales account of another group company names Northwind UK Ltd or says it is with the group: pair it by hand with the account that mirrors it.',
    ]);
  });

  it("refuses bad input with a clear 4xx, defining nothing", async () => {
    const uk = ["Northwind UK Ltd current account", "Northwind UK Ltd loan"].map((name) => proposals.proposals.find((p) => p.name === name)!);
    const requests = uk.map(proposalPairRequest);
    const refused = async (body: unknown, status: number, message: RegExp) => {
      const res = await accept(t.app, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.message).toMatch(message);
    };
    await refused({ proposals: [] }, 400, /Choose at least one proposed pair to accept\./);
    await refused({}, 400, /^proposals is the list of proposed pairs to accept\.$/);
    await refused({ proposals: [requests[0], { ...requests[1]!, left: { ...requests[1]!.left, accountId: "999999" } }] }, 404, /^Proposed pair 2 of 2, “Northwind UK Ltd loan”: Account 999999 is not in Northwind Holdings Inc\.'s chart of accounts\. Nothing was accepted\.$/);
    await refused({ proposals: [{ ...requests[0]!, right: { ...requests[0]!.right, realmId: DEMO.parent } }] }, 400, /same company/);
    await refused({ proposals: [{ ...requests[0]!, kind: "revenueExpense" }] }, 400, /revenue\/expense pair takes revenue and expense accounts/);
    // The UK's loan against the parent's UK current account: the loan is already in the first proposal of the same request.
    await refused({ proposals: [requests[1], { ...requests[0]!, right: requests[1]!.right }] }, 409, /^Proposed pair 2 of 2, “Northwind UK Ltd current account”: Northwind UK Ltd's Loan from Northwind Holdings is already in the pair "Northwind UK Ltd loan"; an amount can be eliminated only once\./);
    expect((await get(t.app, "/api/eliminations/pairs", token)).json().pairs).toEqual([]);
  });

  it("accepts every proposal in one step, once, though two accepts race", { timeout: 60_000 }, async () => {
    const body = { proposals: proposals.proposals.map(proposalPairRequest) };
    // On PostgreSQL the second accept comes from a second app instance with its own pool: another process.
    let other = t.app;
    if (driver === "postgres") {
      const database = fromPool(new pg.Pool({ connectionString: t.db.url!, max: 5 }));
      const app = await buildApp({ config: testConfig(), database, logger: false, webDist: false, sandbox });
      await app.ready();
      second = { app, close: async () => { await app.close(); await database.close(); } };
      other = app;
    }
    const answers = await Promise.all([accept(t.app, body), accept(other, body)]);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const [x, y] = answers.map((a) => a.json() as AcceptProposalsResult);
    expect([x!.created.length, y!.created.length].sort()).toEqual([0, 17]);
    expect(x!.created.length + x!.alreadyDefined.length).toBe(17);
    expect(y!.created.length + y!.alreadyDefined.length).toBe(17);
    const pairs = (await get(t.app, "/api/eliminations/pairs", token)).json().pairs as { name: string }[];
    expect(pairs.map((p) => p.name).sort()).toEqual(proposals.proposals.map((p) => p.name).sort());

    const again = await accept(t.app, body);
    expect(again.statusCode).toBe(200);
    expect(again.json().created).toEqual([]);
    expect(again.json().alreadyDefined.map((p: { id: string }) => p.id).sort()).toEqual([...x!.created, ...y!.created].map((p) => p.id).sort());
    // The names never paired before are fetched by their companies' syncs.
    await drainJobs(t.app);
    const left = (await get(t.app, "/api/eliminations/pairs/proposals", token)).json() as PairProposalsView;
    expect(left.proposals).toEqual([]);
    expect(left.unmatched.map((u) => u.side.account)).toEqual(['8020 "Dividend Income - Subsidiaries"', '5010 "Purchases - Group Companies"']);
  });

  it("the report's unpaired intercompany warning names only the accounts with no counterpart", async () => {
    expect(await unpairedWarnings()).toEqual([
      'Northwind Holdings Inc.\'s intercompany account 8020 "Dividend Income - Subsidiaries" holds an amount in 2026-01 to 2026-03 but is in no intercompany pair, so it is not eliminated and stays in the consolidated statements. Pair it on Interco Eliminations.',
      'Northwind UK Ltd\'s intercompany account 5010 "Purchases - Group Companies" holds an amount in 2026-01 to 2026-03 but is in no intercompany pair, so it is not eliminated and stays in the consolidated statements. Pair it on Interco Eliminations.',
    ]);
  });

  it("a period's eliminations cancel, but for the exchange differences and cents the screen explains", async () => {
    const res = await get(t.app, "/api/eliminations?kind=month&year=2026&month=2", token);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as { ok: boolean; problems: unknown[]; pairs: PairView[] };
    expect(view.problems).toEqual([]);
    expect(view.pairs).toHaveLength(17);
    for (const p of view.pairs) expect(p.difference, p.pair.name).toBe(p.bookPart + p.translationPart);
    // Within the group's $1.00 tolerance: the books agree to the cents of converting at other rates.
    const unmatched = view.pairs.filter((p) => p.match === "unmatched");
    expect(unmatched.map((p) => p.pair.name).sort()).toEqual(["Northwind Canada Inc. loan", "Northwind Deutschland GmbH loan", "Northwind UK Ltd loan"]);
    // The three loans the parent lent in pounds, Canadian dollars and euros agree to the penny in
    // that currency: all of their difference is the exchange difference on the parent's
    // foreign-currency account, which QuickBooks keeps at the rates of the day.
    for (const p of unmatched) {
      expect(p.inCurrency, p.pair.name).not.toBeNull();
      expect(p.inCurrency!.left + p.inCurrency!.right, p.pair.name).toBe(0);
      expect(p.bookPart, p.pair.name).toBe(0);
      expect(p.translationPart, p.pair.name).toBe(p.difference);
    }

  });
});
