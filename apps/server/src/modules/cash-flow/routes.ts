import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { cashFlowClassesOf, cashFlowReport, saveCashFlowClasses } from "./service.ts";

const errors = [400, 401, 404, 409] as const;
const docs = docsOf({ tags: ["reports"], security: bearer, errors });

export const cashFlowRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(
      contract.getCashFlow,
      docs("The consolidated statement of cash flows (indirect method, IAS 7 / ASC 230) for a month or range", {
        description:
          "From the group consolidated at the month-end before the period and at its end: profit, non-cash items and working capital, investing and financing (each balance-sheet line's movement less its translation difference, by the class of its account), the effect of exchange rate changes on cash per subsidiary (IAS 7.28), and whether opening cash plus all that is the closing cash to the cent. ok false with problems when either consolidation cannot be computed.",
      }),
    ),
    handler: async (req) => cashFlowReport(db, authOf(req).user.accountId, req.query),
  });

  app.route({
    ...routeOf(contract.getCashFlowClasses, docs("The cash-flow class of each of the parent's balance-sheet accounts: the default from its QuickBooks type, the group's choice, and the accounts fixed by their nature")),
    handler: async (req) => cashFlowClassesOf(db, authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(
      contract.putCashFlowClasses,
      docs("Set the cash-flow class of parent balance-sheet accounts (null: back to the default); all or nothing", {
        description:
          "400 unknown_account for an account not in the parent's chart, not_a_balance_sheet_account for a profit and loss account, fixed_cash_flow_class for retained earnings, the CTA or NCI account, duplicate_account for one given twice. Answers the classes as GET does.",
      }),
    ),
    // Preparing the group's statements, like the CTA settings: any member.
    config: { permission: "member" },
    handler: async (req) => saveCashFlowClasses(db, authOf(req).user, req.body),
  });
};
