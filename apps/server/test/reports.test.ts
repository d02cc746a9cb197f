import { brotliDecompressSync, gunzipSync } from "node:zlib";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, translatedGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { GOOD_PASSWORD, get, latestCode, post, signedInUser } from "./flows.ts";
import { engineRunsComputed } from "../src/modules/reports/report.ts";
import { localBooksDerived } from "../src/modules/consolidation/books-cache.ts";

type Row = { account: string; name: string; classification: string; amounts: number[] };

describe.each(drivers)("consolidated reports on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";

  it("consolidates the group for a range: the worksheet adds across, the balance sheet balances, a comparison column comes along", async () => {
    token = await translatedGroup(t.app, sandbox, "reports@northwind.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }, { realmId: DEMO.retail, historicalRate: "1" }], { from: "2024-11", to: "2026-10" });

    const res = await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03&compare=prior_year", token);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, parentCurrency: "USD", exponent: 2, openingMonth: "2025-12", period: { from: "2026-01", to: "2026-03", label: "2026-01 to 2026-03" } });
    const columns = r.report.worksheet.columns.map((c: { id: string }) => c.id);
    expect(columns[0]).toBe(DEMO.parent);
    expect(columns.slice(1, 3).sort()).toEqual([DEMO.uk, DEMO.retail].sort());
    expect(columns.slice(3)).toEqual(["eliminations", "nci", "consolidated"]);
    for (const row of r.report.worksheet.rows as Row[]) {
      const parts = row.amounts.slice(0, -1).reduce((s, a) => s + a, 0);
      expect(row.amounts.at(-1), row.name).toBe(parts);
    }
    for (let c = 0; c < columns.length; c++) expect((r.report.worksheet.rows as Row[]).reduce((s, row) => s + row.amounts[c]!, 0), columns[c]).toBe(0);
    const bs = r.report.balanceSheet;
    expect(bs.balanced).toBe(true);
    expect(bs.totalAssets).toBe(bs.totalLiabilities + bs.totalEquity + bs.nonControllingInterests);
    expect(bs.totalAssets).toBeGreaterThan(0);
    expect(r.report.entities.map((e: { id: string }) => e.id)).toEqual(columns.slice(0, 3));
    expect(r.comparison).toMatchObject({ kind: "prior_year", period: { from: "2025-01", to: "2025-03" }, ok: true });
    expect(r.comparison.balanceSheet.balanced).toBe(true);
  });

  it("a warm report is the cached one; any change to its inputs makes a new one", async () => {
    const url = "/api/consolidation/report?from=2026-01&to=2026-03&compare=prior_year";
    const first = (await get(t.app, url, token)).json();
    const again = (await get(t.app, url, token)).json();
    expect(again.generatedAt).toBe(first.generatedAt);
    const put = await t.app.inject({
      method: "PUT",
      url: "/api/fxrates",
      payload: { rates: [{ currency: "GBP", month: "2026-02", avgfx: "1.3", endfx: "1.31" }] },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(put.statusCode, put.body).toBe(200);
    const changed = (await get(t.app, url, token)).json();
    expect(changed.generatedAt).not.toBe(first.generatedAt);
    const uk = first.report.worksheet.columns.findIndex((c: { id: string }) => c.id === DEMO.uk);
    const ukColumn = (rep: { report: { worksheet: { rows: Row[] } } }) => rep.report.worksheet.rows.map((row) => row.amounts[uk]);
    expect(ukColumn(changed)).not.toEqual(ukColumn(first));
  });

  it("a warm report carries a strong ETag: asked again with it, 304 and no body; after a change to its inputs, the new report and a new ETag", async () => {
    const url = "/api/consolidation/report?from=2026-01&to=2026-03&compare=none";
    const ask = (headers: Record<string, string> = {}, who = token) => t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${who}`, ...headers } });
    const first = await ask();
    expect(first.statusCode, first.body).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    expect(first.headers["cache-control"]).toBe("private, no-cache");
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    const again = await ask({ "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect((await ask({ "if-none-match": `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await ask({ "if-none-match": '"other"' })).statusCode).toBe(200);

    // The ETag never stands in for the checks: no token, a logged-out one, another account's user.
    const noToken = await t.app.inject({ method: "GET", url, headers: { "if-none-match": etag } });
    expect(noToken.statusCode).toBe(401);
    const { token: second } = (await post(t.app, "/api/session/token", { email: "reports@northwind.example", password: GOOD_PASSWORD })).json();
    expect((await ask({ "if-none-match": etag }, second)).statusCode).toBe(304);
    expect((await post(t.app, "/api/session/logout", undefined, second)).statusCode).toBeLessThan(300);
    expect((await ask({ "if-none-match": etag }, second)).statusCode).toBe(401);
    const other = await signedInUser(t.app, "etag-other@reports.example");
    const theirs = await ask({ "if-none-match": etag }, other);
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json().error.message).toMatch(/^Choose a parent company first/);

    // A change to what the report reads: the old ETag is not current any more.
    const put = await t.app.inject({
      method: "PUT",
      url: "/api/fxrates",
      payload: { rates: [{ currency: "GBP", month: "2026-03", avgfx: "1.33", endfx: "1.34" }] },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(put.statusCode, put.body).toBe(200);
    const changed = await ask({ "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().generatedAt).not.toBe(first.json().generatedAt);
    expect((await ask({ "if-none-match": changed.headers.etag as string })).statusCode).toBe(304);
  });

  it("a warm report is compressed once for clients that accept br or gzip, and reads as the same JSON", async () => {
    const url = "/api/consolidation/report?from=2026-01&to=2026-03&compare=prior_year";
    const ask = (encoding?: string) => t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}`, ...(encoding ? { "accept-encoding": encoding } : {}) } });
    const plain = await ask();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await ask("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(brotliDecompressSync(br.rawPayload).toString("utf8")).toBe(plain.body);
    const gz = await ask("gzip;q=1, br;q=0");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString("utf8")).toBe(plain.body);
    // Kept: the same bytes again, and the same ETag whatever the encoding.
    expect((await ask("br")).rawPayload.equals(br.rawPayload)).toBe(true);
    expect(new Set([plain, br, gz].map((r) => r.headers.etag)).size).toBe(1);
  });

  it("the same report asked several times at once is computed once, and each asker gets it", async () => {
    const url = "/api/consolidation/report?from=2026-02&to=2026-04&compare=prior_period";
    const answers = await Promise.all([1, 2, 3, 4].map(() => get(t.app, url, token)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    const stamps = answers.map((a) => a.json().generatedAt as string);
    expect(new Set(stamps).size, stamps.join(", ")).toBe(1);
    expect(answers[0]!.json().ok).toBe(true);
  });

  it("report variants share the engine's runs: a period with and without its comparison, and a comparison that is another report's period", async () => {
    const report = async (q: string) => {
      const res = await get(t.app, `/api/consolidation/report?${q}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const runs = engineRunsComputed();
    const plain = await report("from=2026-04&to=2026-06&compare=none");
    expect(engineRunsComputed() - runs).toBe(1);
    const withPriorYear = await report("from=2026-04&to=2026-06&compare=prior_year");
    expect(engineRunsComputed() - runs).toBe(2); // only the comparison's period was new
    const priorYear = await report("from=2025-04&to=2025-06&compare=none");
    expect(engineRunsComputed() - runs).toBe(2); // it was the comparison's run
    expect(withPriorYear.report.balanceSheet).toEqual(plain.report.balanceSheet);
    expect(withPriorYear.comparison.balanceSheet).toEqual(priorYear.report.balanceSheet);
    await report("from=2026-04&to=2026-06&compare=prior_period");
    expect(engineRunsComputed() - runs).toBe(2); // 2026-01 to 2026-03: the earlier test's report, at this same data version

    // A change to the inputs: every period is computed again, from the new data.
    const put = await t.app.inject({
      method: "PUT",
      url: "/api/fxrates",
      payload: { rates: [{ currency: "GBP", month: "2026-05", avgfx: "1.4", endfx: "1.41" }] },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(put.statusCode, put.body).toBe(200);
    const changed = await report("from=2026-04&to=2026-06&compare=none");
    expect(engineRunsComputed() - runs).toBe(3);
    expect(changed.report.balanceSheet).not.toEqual(plain.report.balanceSheet);
  });

  it("a map change is in the very next report, which reuses every company's derived books (a map is not the books)", async () => {
    const url = "/api/consolidation/report?from=2026-04&to=2026-06&compare=none";
    const before = (await get(t.app, url, token)).json();
    expect(before.ok).toBe(true);
    const { map } = (await get(t.app, `/api/companies/${DEMO.uk}/map`, token)).json() as { map: Record<string, string> };
    const uk = before.report.worksheet.columns.findIndex((c: { id: string }) => c.id === DEMO.uk);
    // A UK account with an amount in the period, and the parent row it is mapped to.
    const mapped = Object.entries(map).find(([, parentId]) => (before.report.worksheet.rows as Row[]).some((r) => r.account === parentId && r.amounts[uk] !== 0))!;
    const derived = localBooksDerived();

    const unmap = await post(t.app, `/api/companies/${DEMO.uk}/unmap`, { accountIds: [mapped[0]] }, token);
    expect(unmap.statusCode, unmap.body).toBe(200);
    const unmapped = (await get(t.app, url, token)).json();
    expect(unmapped.ok).toBe(false);
    expect(unmapped.problems).toContainEqual(expect.objectContaining({ code: "unmapped_account" }));
    expect(unmapped.report.unmapped.map((u: { entity: string; account: string }) => [u.entity, u.account])).toContainEqual([DEMO.uk, mapped[0]]);

    const remap = await post(t.app, `/api/companies/${DEMO.uk}/map`, { map: { [mapped[0]]: mapped[1] } }, token);
    expect(remap.statusCode, remap.body).toBe(200);
    const again = (await get(t.app, url, token)).json();
    expect(again.ok).toBe(true);
    expect(again.generatedAt).not.toBe(before.generatedAt);
    expect(again.report.worksheet).toEqual(before.report.worksheet);
    // Neither change touched any company's books: the three reports derived none again.
    expect(localBooksDerived() - derived).toBe(0);
  });

  it("names what stops a consolidation instead of guessing, e.g. months without rates", async () => {
    const r = (await get(t.app, "/api/consolidation/report?from=2027-01&to=2027-01", token)).json();
    expect(r.ok).toBe(false);
    expect(r.report === null || r.problems.length > 0).toBe(true);
    expect(r.problems.map((p: { message: string }) => p.message).join("\n")).toMatch(/2027-01/);
    const xlsx = await get(t.app, "/api/consolidation/report.xlsx?from=2027-01&to=2027-01", token);
    expect(xlsx.statusCode).toBe(409);
    expect(xlsx.json().error.message).toMatch(/^The consolidation for 2027-01 cannot be computed yet: /);
  });

  it("exports the report as an Excel workbook, one sheet per report, numbers as numbers; and the worksheet as CSV", async () => {
    const report = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03&compare=prior_period", token)).json();
    const res = await t.app.inject({ method: "GET", url: "/api/consolidation/report.xlsx?from=2026-01&to=2026-03&compare=prior_period", headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="consolidation-2026-01to2026-03.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Worksheet", "Balance Sheet", "Income Statement", "Trial Balance", "Entities"]);
    const bs = wb.getWorksheet("Balance Sheet")!;
    let totalAssets: unknown;
    let comparisonAssets: unknown;
    bs.eachRow((row) => {
      if (row.getCell(2).value === "Total assets") {
        totalAssets = row.getCell(3).value;
        comparisonAssets = row.getCell(4).value;
      }
    });
    expect(totalAssets).toBe(report.report.balanceSheet.totalAssets / 100);
    expect(comparisonAssets).toBe(report.comparison.balanceSheet.totalAssets / 100);
    const sheet = wb.getWorksheet("Worksheet")!;
    expect(sheet.getRow(4).values).toEqual([undefined, "Account", "Name", "Classification", ...report.report.worksheet.columns.map((c: { label: string }) => c.label)]);
    const firstData = sheet.getRow(5);
    expect(typeof firstData.getCell(4).value).toBe("number");
    expect(firstData.getCell(4).numFmt).toMatch(/#,##0\.00/);

    const csv = await get(t.app, "/api/consolidation/report.csv?from=2026-01&to=2026-03", token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = csv.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe(["Account", "Name", "Classification", ...report.report.worksheet.columns.map((c: { label: string }) => (c.label.includes(",") ? `"${c.label}"` : c.label))].join(","));
    expect(lines.at(-1)).toMatch(/^Total,,,0\.00,0\.00,0\.00,0\.00,0\.00,0\.00$/);
  });

  it("lists the transactions behind a consolidated figure, company by company, adding up to the report's figure", async () => {
    const report = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", token)).json();
    const columns: string[] = report.report.worksheet.columns.map((c: { id: string }) => c.id);
    const uk = columns.indexOf(DEMO.uk);
    // A P&L line the UK contributes to.
    const row = (report.report.worksheet.rows as Row[]).find((r) => r.classification === "Expense" && r.amounts[uk] !== 0 && r.amounts[columns.indexOf(DEMO.parent)] !== 0)!;
    const res = await get(t.app, `/api/consolidation/transactions?account=${row.account}&from=2026-01&to=2026-03`, token);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json();
    expect(detail.problems).toEqual([]);
    expect(detail.account).toMatchObject({ id: row.account, classification: "Expense" });
    const byRealm = new Map(detail.companies.map((c: { realmId: string }) => [c.realmId, c]));
    const ukDetail = byRealm.get(DEMO.uk) as { currency: string; transactions: { date: string; rate: string; local: number; translated: number }[]; totalTranslated: number; totalLocal: number };
    expect(ukDetail.currency).toBe("GBP");
    expect(ukDetail.transactions.length).toBeGreaterThan(0);
    expect(ukDetail.transactions.every((tx) => tx.date >= "2026-01-01" && tx.date <= "2026-03-31" && /^\d/.test(tx.rate))).toBe(true);
    expect(ukDetail.totalTranslated).toBe(row.amounts[uk]);
    const parentDetail = byRealm.get(DEMO.parent) as { totalTranslated: number; totalLocal: number };
    expect(parentDetail.totalTranslated).toBe(row.amounts[columns.indexOf(DEMO.parent)]);
    expect(parentDetail.totalLocal).toBe(parentDetail.totalTranslated);

    const only = (await get(t.app, `/api/consolidation/transactions?account=${row.account}&from=2026-01&to=2026-03&realmId=${DEMO.uk}`, token)).json();
    expect(only.companies.map((c: { realmId: string }) => c.realmId)).toEqual([DEMO.uk]);
    const bad = async (query: string, status: number, message: string | RegExp) => {
      const r = await get(t.app, `/api/consolidation/transactions?${query}`, token);
      expect(r.statusCode, r.body).toBe(status);
      expect(r.json().error.message).toMatch(message);
    };
    await bad("account=999999&from=2026-01&to=2026-03", 404, /Account 999999 is not in Northwind Holdings Inc./);
    await bad(`account=${row.account}&from=2026-03&to=2026-01`, 400, "The range ends (2026-01) before it starts (2026-03).");
    await bad(`account=${row.account}&from=2026-01&to=2026-03&realmId=123`, 404, "Company 123 is not in your account.");
    await bad("from=2026-01&to=2026-03", 400, /account is required/);
  });

  it("emails the workbook to the report delivery address (or the user's own email)", async () => {
    const send = (body: unknown) => post(t.app, "/api/consolidation/report/email", body, token);
    const first = await send({ from: "2026-01", to: "2026-03" });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ sentTo: "reports@northwind.example", filename: "consolidation-2026-01to2026-03.xlsx" });
    const patch = await t.app.inject({ method: "PATCH", url: "/api/excel/update", payload: { email: "close-team@northwind.example" }, headers: { authorization: `Bearer ${token}` } });
    expect(patch.statusCode, patch.body).toBe(200);
    // A new address receives a code first (report-mail.test.ts covers the refusals).
    const code = await latestCode(t.app, "close-team@northwind.example", /Confirm where GroupLedger sends your reports/);
    expect((await post(t.app, "/api/excel/verify", { code }, token)).statusCode).toBe(200);
    expect((await send({ from: "2026-03", to: "2026-03", compare: "prior_year" })).json().sentTo).toBe("close-team@northwind.example");
    const box = (await get(t.app, "/api/dev/mailbox?to=close-team@northwind.example", undefined)).json();
    expect(box.messages).toHaveLength(2); // the code, then the workbook
    expect(box.messages[0].subject).toBe("Consolidated report 2026-03 (Northwind Holdings Inc.)");
    expect(box.messages[0].attachments).toEqual([
      { filename: "consolidation-2026-03.xlsx", contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", size: expect.any(Number) },
    ]);
    expect(box.messages[0].attachments[0].size).toBeGreaterThan(5000);
    const blocked = await send({ from: "2027-01", to: "2027-01" });
    expect(blocked.statusCode).toBe(409);
    expect((await send({ from: "2026-01" })).statusCode).toBe(400);
  });

  it("refuses bad periods with a clear message, and another account's user gets no report of this group", async () => {
    const bad = async (query: string, message: string | RegExp) => {
      const res = await get(t.app, `/api/consolidation/report?${query}`, token);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(message);
    };
    await bad("from=2026-03&to=2026-01", "The report ends (2026-01) before it starts (2026-03).");
    await bad("from=2020-01&to=2026-01", "A report covers at most 60 months; 2020-01 to 2026-01 is 73.");
    await bad("from=2026-13&to=2026-14", /Use a month like 2026-03/);
    await bad("from=2026-01&to=2026-02&compare=lastweek", /compare is none, prior_period or prior_year/);
    await bad("to=2026-02", "from is required: a month like 2026-03.");
    const other = await signedInUser(t.app, "other@reports.example");
    const res = await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", other);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/^Choose a parent company first/);
    expect((await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", undefined)).statusCode).toBe(401);
  });
});
