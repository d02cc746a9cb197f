import type { ConsolidatedReport, ReportQuery } from "@groupledger/contract";
import { worksheetCsv } from "@groupledger/domain";
import type { RateLimits } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError } from "../../http/errors.ts";
import type { Mailer } from "../../services/mailer.ts";
import type { RateLimiter } from "../../services/rate-limiter.ts";
import { exportLabels } from "./labels.ts";
import { countReportMail, reportRecipient } from "./mail.ts";
import { consolidatedReport } from "./report.ts";
import { reportWorkbook } from "./workbook.ts";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A report as a file: its name (what Content-Disposition offers), its type and its bytes. */
export interface ReportFile {
  name: string;
  contentType: string;
  content: Buffer | string;
}

/** The consolidated report of the caller's account: as JSON, an Excel workbook or a CSV, or mailed (transaction detail and Verify: transactions.ts, verify.ts). */
export class ReportService {
  constructor(private readonly deps: { db: Db; mailer: Mailer; limiter: RateLimiter; rateLimits: RateLimits }) {}

  /**
   * The report already serialized, as the cache keeps it (the same object while it is cached: what
   * the route keeps its bytes beside, http/kept-json.ts). `dataVersion`: the request's (auth.ts).
   */
  async reportJson(accountId: string, query: ReportQuery, dataVersion: number): Promise<{ readonly body: string }> {
    return consolidatedReport(this.deps.db, accountId, query, dataVersion);
  }

  async workbook(accountId: string, query: ReportQuery): Promise<ReportFile> {
    const report = await this.computed(accountId, query);
    return { name: fileName(report, "xlsx"), contentType: XLSX_TYPE, content: await reportWorkbook(report, await exportLabels(this.deps.db, accountId)) };
  }

  /** The worksheet as CSV (amounts in the parent currency, debit positive). */
  async csv(accountId: string, query: ReportQuery): Promise<ReportFile> {
    const report = await this.computed(accountId, query);
    const { accountNumber } = await exportLabels(this.deps.db, accountId);
    return {
      name: fileName(report, "csv"),
      contentType: "text/csv; charset=utf-8",
      content: worksheetCsv({ worksheet: report.report!.worksheet, exponent: report.exponent }, { accountNumber }),
    };
  }

  /** Mails the workbook to the user's report address (verified) or email, within the account's budget of mailed reports. */
  async email(user: UserRow, query: ReportQuery): Promise<{ sentTo: string; filename: string }> {
    const { db, mailer, limiter, rateLimits } = this.deps;
    const to = reportRecipient(user);
    const report = await this.computed(user.accountId, query);
    await countReportMail(limiter, rateLimits, user.accountId);
    const labels = await exportLabels(db, user.accountId);
    const content = await reportWorkbook(report, labels);
    const filename = fileName(report, "xlsx");
    const mail = {
      to,
      subject: `Consolidated report ${report.period.label}${labels.parentName ? ` (${labels.parentName})` : ""}`,
      text: `The consolidated report for ${report.period.label} in ${report.parentCurrency} is attached (${filename}): worksheet, balance sheet, income statement, trial balance and entities, one sheet each.\n\nSent from GroupLedger at the request of ${user.email}.`,
      attachments: [{ filename, contentType: XLSX_TYPE, content }],
    };
    const id = await mailer.enqueue(mail);
    await mailer.deliver(id, mail);
    return { sentTo: to, filename };
  }

  /** Files: the same report, or a clear 409 naming what stops it. */
  private async computed(accountId: string, query: ReportQuery): Promise<ConsolidatedReport> {
    const { report } = await consolidatedReport(this.deps.db, accountId, query);
    if (!report.ok || !report.report) {
      throw new AppError(409, "report_blocked", `The consolidation for ${report.period.label} cannot be computed yet: ${report.problems[0]?.message ?? "see the report's problems."}`, {
        problems: report.problems,
      });
    }
    return report;
  }
}

const fileName = (report: ConsolidatedReport, ext: string) => `consolidation-${report.period.label.replaceAll(" ", "")}.${ext}`;
