import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema, reportQuerySchema, reportSchema, transactionDetailQuerySchema, transactionDetailSchema, verifyQuerySchema, verifyResultSchema, type ConsolidatedReport } from "@groupledger/contract";
import { worksheetCsv } from "@groupledger/domain";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { AppError } from "../../http/errors.ts";
import { RateLimiter } from "../../services/rate-limiter.ts";
import { exportLabels } from "./labels.ts";
import { countReportMail, reportRecipient } from "./mail.ts";
import { consolidatedReport } from "./report.ts";
import { transactionDetail } from "./transactions.ts";
import { verify } from "./verify.ts";
import { reportWorkbook } from "./workbook.ts";

const security = [{ bearer: [] }];
const tags = ["reports"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const reportRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider, mailer, config }) => {
  const { db } = database;
  const limiter = new RateLimiter(db);
  app.addHook("onRequest", requireAuth);

  app.get(
    "/consolidation/report",
    {
      schema: {
        tags,
        security,
        summary: "The consolidated worksheet, trial balance, balance sheet and P&L for a month or range, with an optional comparison period",
        querystring: reportQuerySchema,
        response: { 200: reportSchema, ...err },
      },
    },
    async (req, reply) => {
      const { body } = await consolidatedReport(db, authOf(req).user.accountId, req.query);
      // Already JSON: a warm report is sent as the cached text, not serialized again.
      return reply.type("application/json; charset=utf-8").send(body as unknown as ConsolidatedReport);
    },
  );

  app.get(
    "/consolidation/transactions",
    {
      schema: {
        tags,
        security,
        summary: "Transaction detail: the QuickBooks transactions behind a parent account for a range of months, company by company, in local and parent currency",
        querystring: transactionDetailQuerySchema,
        response: { 200: transactionDetailSchema, ...err, 502: errorBodySchema },
      },
    },
    async (req) => transactionDetail(db, provider, authOf(req).user.accountId, req.query),
  );

  app.get(
    "/consolidation/verify",
    {
      schema: {
        tags,
        security,
        summary: "Reconcile at a month-end: each subsidiary's translated trial balance against what was posted for it, and the parent's QuickBooks trial balance against the consolidation",
        querystring: verifyQuerySchema,
        response: { 200: verifyResultSchema, ...err, 502: errorBodySchema },
      },
    },
    async (req) => verify(db, provider, authOf(req).user.accountId, { kind: "month", year: req.query.year, month: req.query.month }),
  );

  /** Files: the same report, or a clear 409 naming what stops it. */
  const computed = async (accountId: string, query: z.infer<typeof reportQuerySchema>) => {
    const { report } = await consolidatedReport(db, accountId, query);
    if (!report.ok || !report.report) {
      throw new AppError(409, "report_blocked", `The consolidation for ${report.period.label} cannot be computed yet: ${report.problems[0]?.message ?? "see the report's problems."}`, {
        problems: report.problems,
      });
    }
    return report;
  };
  const fileName = (label: string, ext: string) => `consolidation-${label.replaceAll(" ", "")}.${ext}`;

  app.get(
    "/consolidation/report.xlsx",
    {
      schema: {
        tags,
        security,
        summary: "The consolidated report as an Excel workbook: worksheet, balance sheet, income statement, trial balance and entities, one sheet each",
        querystring: reportQuerySchema,
        response: { 200: z.any(), ...err },
      },
    },
    async (req, reply) => {
      const { user } = authOf(req);
      const report = await computed(user.accountId, req.query);
      const buffer = await reportWorkbook(report, await exportLabels(db, user.accountId));
      return reply
        .type("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        .header("content-disposition", `attachment; filename="${fileName(report.period.label, "xlsx")}"`)
        .send(buffer);
    },
  );

  app.post(
    "/consolidation/report/email",
    {
      // Sends the user's own report to their own delivery address: any member, and a lapsed trial too.
      config: { permission: "member", whenLapsed: "allowed" },
      schema: {
        tags,
        security,
        summary:
          "Email the consolidated report's Excel workbook to the report delivery address once verified (PATCH /api/excel/update, POST /api/excel/verify), or the user's email; 409 report_email_unverified before that; a limited number per account per hour (429 with Retry-After)",
        body: reportQuerySchema,
        response: { 200: z.object({ sentTo: z.string(), filename: z.string() }), ...err, 429: errorBodySchema },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const to = reportRecipient(user);
      const report = await computed(user.accountId, req.body);
      await countReportMail(limiter, config.rateLimits, user.accountId);
      const labels = await exportLabels(db, user.accountId);
      const content = await reportWorkbook(report, labels);
      const filename = fileName(report.period.label, "xlsx");
      const mail = {
        to,
        subject: `Consolidated report ${report.period.label}${labels.parentName ? ` (${labels.parentName})` : ""}`,
        text: `The consolidated report for ${report.period.label} in ${report.parentCurrency} is attached (${filename}): worksheet, balance sheet, income statement, trial balance and entities, one sheet each.\n\nSent from GroupLedger at the request of ${user.email}.`,
        attachments: [{ filename, contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", content }],
      };
      const id = await mailer.enqueue(mail);
      await mailer.deliver(id, mail);
      return { sentTo: to, filename };
    },
  );

  app.get(
    "/consolidation/report.csv",
    {
      schema: {
        tags,
        security,
        summary: "The consolidation worksheet as CSV (amounts in the parent currency, debit positive)",
        querystring: reportQuerySchema,
        response: { 200: z.any(), ...err },
      },
    },
    async (req, reply) => {
      const { accountId } = authOf(req).user;
      const report = await computed(accountId, req.query);
      const { accountNumber } = await exportLabels(db, accountId);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${fileName(report.period.label, "csv")}"`)
        .send(worksheetCsv({ worksheet: report.report!.worksheet, exponent: report.exponent }, { accountNumber }));
    },
  );
};
