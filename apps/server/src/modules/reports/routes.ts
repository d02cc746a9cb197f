import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyReply } from "fastify";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { keptJson, sendKeptJson } from "../../http/kept-json.ts";
import { RateLimiter } from "../../services/rate-limiter.ts";
import { changesInEquityReport } from "./changes-in-equity.ts";
import { ReportService, type ReportFile } from "./service.ts";
import { transactionDetail } from "./transactions.ts";
import { verify } from "./verify.ts";

const errors = [400, 401, 404, 409] as const;
const docs = docsOf({ tags: ["reports"], security: bearer, errors });

const sendFile = (reply: FastifyReply, file: ReportFile) =>
  reply.type(file.contentType).header("content-disposition", `attachment; filename="${file.name}"`).send(file.content);

export const reportRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider, mailer, config }) => {
  const { db } = database;
  const reports = new ReportService({ db, mailer, limiter: new RateLimiter(db), rateLimits: config.rateLimits });
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(
      contract.getConsolidationReport,
      docs("The consolidated worksheet, trial balance, balance sheet and P&L for a month or range, with an optional comparison period"),
    ),
    handler: async (req, reply) => {
      const { user, dataVersion } = authOf(req);
      const cached = await reports.reportJson(user.accountId, req.query, dataVersion);
      // Already JSON: a warm report is sent as the bytes (and compressed bytes) kept beside the
      // cached text, or a 304 when the client has them (issue 22).
      return sendKeptJson(req, reply, keptJson(cached, cached.body));
    },
  });

  app.route({
    ...routeOf(
      contract.getChangesInEquity,
      docs("The consolidated statement of changes in equity for a month or range: opening balance, the period's movements by component (share capital, retained earnings, translation reserve, other reserves, NCI), closing balance and its reconciliation to the balance sheet"),
    ),
    handler: async (req) => changesInEquityReport(db, authOf(req).user.accountId, req.query),
  });

  app.route({
    ...routeOf(
      contract.getTransactionDetail,
      docs(
        "Transaction detail: the QuickBooks transactions behind a parent account for a range of months, company by company, in local and parent currency",
        { errors: [...errors, 502] },
      ),
    ),
    handler: async (req) => transactionDetail(db, provider, authOf(req).user.accountId, req.query),
  });

  app.route({
    ...routeOf(
      contract.getVerify,
      docs(
        "Reconcile at a month-end: each subsidiary's translated trial balance against what was posted for it, and the parent's QuickBooks trial balance against the consolidation",
        { errors: [...errors, 502] },
      ),
    ),
    handler: async (req) => {
      const { user, dataVersion } = authOf(req);
      return verify(db, provider, user.accountId, { kind: "month", year: req.query.year, month: req.query.month }, dataVersion);
    },
  });

  app.route({
    ...routeOf(
      contract.getConsolidationReportXlsx,
      docs("The consolidated report as an Excel workbook: worksheet, balance sheet, income statement, trial balance and entities, one sheet each"),
    ),
    handler: async (req, reply) => sendFile(reply, await reports.workbook(authOf(req).user.accountId, req.query)),
  });

  app.route({
    ...routeOf(
      contract.postConsolidationReportEmail,
      docs(
        "Email the consolidated report's Excel workbook to the report delivery address once verified (PATCH /api/excel/update, POST /api/excel/verify), or the user's email; 409 report_email_unverified before that; a limited number per account per hour (429 with Retry-After)",
        { errors: [...errors, 429] },
      ),
    ),
    // Sends the user's own report to their own delivery address: any member, and a lapsed trial too.
    config: { permission: "member", whenLapsed: "allowed" },
    handler: async (req) => reports.email(authOf(req).user, req.body),
  });

  app.route({
    ...routeOf(contract.getConsolidationReportCsv, docs("The consolidation worksheet as CSV (amounts in the parent currency, debit positive)")),
    handler: async (req, reply) => sendFile(reply, await reports.csv(authOf(req).user.accountId, req.query)),
  });
};
