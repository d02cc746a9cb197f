import ExcelJS from "exceljs";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, DEMO_HISTORICAL_RATES, configureForTranslation, connectCompany, drainJobs } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

/** QuickBooks accepts this account name (no colon, no double quote); a spreadsheet would run it. */
const ATTACK = "-2+3+cmd|' /C calc'!A0";
const FORMULA_START = /^[=+\-@\t\r]/;

type Entity = { id: string; name: string };
type ChartRow = { Id: string; name: string; acctNum: string | null };

/**
 * Issue #17.5 (formula injection) and #18.3 (internal ids, entities twice): the files are read back
 * with the libraries a user's spreadsheet stands for (exceljs, csv-parse).
 */
describe.each(drivers)("report exports on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";
  let chart: ChartRow[] = [];
  let report: { report: { entities: Entity[]; worksheet: { rows: { account: string; name: string }[] } } };
  const query = "from=2026-01&to=2026-03&compare=prior_year";

  it("sets up the whole demo group with a parent account named like a formula", async () => {
    // The parent's main bank account, renamed in QuickBooks before the first sync.
    const ledger = sandbox.ledger(DEMO.parent)!;
    const bank = ledger.accounts.find((a) => a.name === "Operating Checking - Chase")!;
    ledger.replaceAccount({ ...bank, name: ATTACK });
    token = await signedInUser(t.app, "exports@northwind.example");
    for (const realm of Object.values(DEMO)) await connectCompany(t.app, sandbox, token, realm);
    await drainJobs(t.app);
    await post(t.app, "/api/companies/parent", { realmId: DEMO.parent }, token);
    await configureForTranslation(t.app, token, DEMO_HISTORICAL_RATES, { from: "2024-11", to: "2026-10" });
    chart = (await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json();
    const res = await get(t.app, `/api/consolidation/report?${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    report = res.json();
    expect(report.report.entities).toHaveLength(5);
    expect(report.report.worksheet.rows.some((r) => r.name === ATTACK)).toBe(true);
  });

  const numberOf = (id: string) => chart.find((a) => a.Id === id)?.acctNum ?? "";

  it("CSV: the Account column holds account numbers, a formula-like name is neutralised, amounts stay signed numbers", async () => {
    const res = await get(t.app, `/api/consolidation/report.csv?${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...rows] = parse(res.body, { bom: true }) as string[][];
    expect(header!.slice(0, 3)).toEqual(["Account", "Name", "Classification"]);
    const body = rows.slice(0, -1);
    expect(body.length).toBeGreaterThan(20);
    const ids = new Set(chart.map((a) => a.Id));
    const numbers = new Set(chart.map((a) => a.acctNum).filter(Boolean));
    for (const row of body) {
      // An account number of the parent's chart, never QuickBooks' internal id (1, 2, 94...).
      expect(numbers.has(row[0]!), `account ${row[0]} on ${row[1]}`).toBe(true);
      for (const text of row.slice(0, 3)) expect(text, `text cell ${text}`).not.toMatch(FORMULA_START);
      for (const amount of row.slice(3)) expect(amount).toMatch(/^-?\d+\.\d{2}$/);
    }
    expect(body.some((row) => ids.has(row[0]!) && !numbers.has(row[0]!))).toBe(false);
    const attacked = body.find((row) => row[1] === `'${ATTACK}`);
    expect(attacked, "the renamed bank account's row").toBeDefined();
    const bankId = report.report.worksheet.rows.find((r) => r.name === ATTACK)!.account;
    expect(attacked![0]).toBe(numberOf(bankId));
    // Credits are negative numbers in the file, exactly as the report has them.
    expect(body.some((row) => row.slice(3).some((a) => a.startsWith("-")))).toBe(true);
    expect(rows.at(-1)![0]).toBe("Total");
  });

  it("Excel: every text cell of every sheet is safe, numbers are numbers (negatives included), accounts by number, each entity once", async () => {
    const res = await get(t.app, `/api/consolidation/report.xlsx?${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    let negatives = 0;
    let attacked = 0;
    for (const ws of wb.worksheets) {
      ws.eachRow((row) =>
        row.eachCell((cell) => {
          const v = cell.value;
          if (typeof v === "string") expect(v, `${ws.name}!${cell.address}`).not.toMatch(FORMULA_START);
          else expect(typeof v, `${ws.name}!${cell.address}`).toBe("number");
          if (typeof v === "number" && v < 0) negatives++;
          if (v === `'${ATTACK}`) attacked++;
        }),
      );
    }
    expect(negatives).toBeGreaterThan(0);
    // The worksheet, the balance sheet and the trial balance each show the bank account.
    expect(attacked).toBeGreaterThanOrEqual(3);

    const numbers = new Set(chart.map((a) => a.acctNum).filter(Boolean));
    for (const name of ["Worksheet", "Balance Sheet", "Income Statement", "Trial Balance"]) {
      const ws = wb.getWorksheet(name)!;
      let accounts = 0;
      ws.eachRow((row, i) => {
        if (i <= 4) return;
        const account = row.getCell(1).value;
        if (account === null || account === "" || account === "Total") return;
        accounts++;
        expect(numbers.has(String(account)), `${name} row ${i}: ${String(account)} (${String(row.getCell(2).value)})`).toBe(true);
      });
      expect(accounts, name).toBeGreaterThan(3);
    }

    const entities: string[] = [];
    wb.getWorksheet("Entities")!.eachRow((row, i) => {
      if (i > 4) entities.push(String(row.getCell(1).value));
    });
    expect(entities).toEqual(report.report.entities.map((e) => e.name));
    expect(new Set(entities).size).toBe(entities.length);
  });
});
