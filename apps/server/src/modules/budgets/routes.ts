import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { budgetOverview, budgetTemplate, budgetVsActualReport, importBudgetCsv, readQuickBooksBudgets, saveBudgetRates } from "./service.ts";

const errs = [400, 401, 403, 404, 409, 415] as const;
/** One budget import of an account at a time: each replaces months of a company's budget, all or nothing. */
const budgetsLock = (accountId: string) => `budgets:${accountId}`;
const BUDGETS_BUSY = "Another budget import for this group is in progress";
const docs = docsOf({ tags: ["reports"], security: bearer, errors: errs });

export const budgetRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);
  app.addContentTypeParser("text/csv", { parseAs: "string", bodyLimit: 2 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  app.route({
    ...routeOf(
      contract.getBudgetVsActual,
      docs("Budget vs actual: the consolidated P&L against the companies' budgets at the budget rates, with the variance, the constant-currency variance and the FX effect", {
        description:
          "For a month or range within one fiscal year of the parent. 400 period_spans_fiscal_years; 400 budget_rate_missing naming each currency without a budget rate for the year (nothing is computed). ok false with problems when the consolidation cannot be made, a budget line sits on an account not mapped onto the parent's chart, or the period cuts a quarterly or annual budget (budget_period_cut, naming the company and the period to choose; never spread over months); a company without a budget for some months is a warning (nil budget). The group's revenue/expense pairs eliminate both sides' budgets at the budget rates (eliminations; their disagreement on the line 'Intra-group budgets that disagree').",
      }),
    ),
    handler: async (req) => budgetVsActualReport(db, authOf(req).user.accountId, req.query),
  });

  app.route({
    ...routeOf(contract.getBudgets, docs("The fiscal year's budget rates (one per foreign currency of the group) and where each company's budget comes from")),
    handler: async (req) => budgetOverview(db, authOf(req).user.accountId, req.query.fiscalYear),
  });

  app.route({
    ...routeOf(contract.putBudgetRates, docs("Set budget rates for a fiscal year (admins; all or nothing; an empty rate clears one)")),
    config: { permission: "admin" },
    handler: async (req) => saveBudgetRates(db, authOf(req).user, req.body),
  });

  app.route({
    ...routeOf(
      contract.postQuickBooksBudgets,
      docs("Read the companies' budgets from QuickBooks (one query per company) for a fiscal year of the parent", {
        description:
          "Keeps each company's active profit and loss budgets that cover a month of the year, monthly, quarterly or annual, each amount for the month, quarter or year it is for (never spread), replacing its budget for those months. 409 ambiguous_budgets when a company has two active budgets for one month, 409 budget_account_unknown when a budget names an account its synced chart lacks: checked for every company before anything is saved.",
        errors: [...errs, 502],
      }),
    ),
    config: { permission: "member" },
    handler: async (req) => {
      const { user } = authOf(req);
      return database.withLock(budgetsLock(user.accountId), BUDGETS_BUSY, () => readQuickBooksBudgets(db, provider, user, req.body));
    },
  });

  app.route({
    ...routeOf(
      contract.postBudgetCsv,
      docs("Import a company's budget from CSV (text/csv; header account,month,amount); every bad line named, all or nothing", {
        description:
          "account: the company's account number or exact name; month: YYYY-MM; amount: a plain number in the company's currency, income and expenses positive. Replaces the company's budget for the months in the file. ?fiscalYear= picks the year of the overview answered; ?name= names the import.",
      }),
    ),
    config: { permission: "member" },
    handler: async (req) => {
      const { user } = authOf(req);
      return database.withLock(budgetsLock(user.accountId), BUDGETS_BUSY, () => importBudgetCsv(db, user, req.params.realmId, req.body, req.query.fiscalYear, req.query.name));
    },
  });

  app.route({
    ...routeOf(contract.getBudgetTemplate, docs("A company's budget template for a fiscal year (CSV): a line per active income and expense account and month, amounts blank", { errors: [400, 401, 404] })),
    handler: async (req, reply) => {
      const { name, csv } = await budgetTemplate(db, authOf(req).user.accountId, req.params.realmId, req.query.fiscalYear);
      return reply.header("content-type", "text/csv; charset=utf-8").header("content-disposition", `attachment; filename="${name}"`).send(csv);
    },
  });
};
