import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { enableSegments, segmentReport } from "./service.ts";

const docs = docsOf({ tags: ["reports"], security: bearer, errors: [400, 401, 404, 409] as const });

export const segmentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, queue, requireAuth }) => {
  app.addHook("onRequest", requireAuth);
  app.route({
    ...routeOf(
      contract.getSegments,
      docs("Any consolidated statement (profit and loss, balance sheet, cash flows, changes in equity) by QuickBooks class or location (IFRS 8 / ASC 280; IAS 7.50(d)), eliminations in their own column", {
        description:
          "One column per class (by=class) or location (by=location, QuickBooks' Department), matched by name across the group's companies (case and spacing aside; `segments[].members` names who holds each), a column for lines with none, the intra-group eliminations, and the consolidated figure, to which every row adds up to the cent (`reconciles`). Each company's segment amounts are translated as the engine translates its account. statement=balance (default income) gives the balance sheet at the period's end in `balanceSheet` instead of the P&L in `statement`: assets and liabilities split by segment at the rates the engine translated them at, equity wholly in the No class column (not split), consolidation's own amounts (investment elimination, goodwill, NCI) in `group`. statement=cashflow gives the statement of cash flows in `cashFlow`: each segment's from its profit and its own balances at the consolidated statement's rates, its IAS 7.28 effect on its own cash, its net transfers with the rest of the group; dividends, share issues and NCI unallocated; eliminations = the consolidated statement less the companies' own; the total the consolidated statement of cash flows; every column reconciling its cash. statement=equity gives in `changesInEquity` each segment's net assets rolled by its profit, translation and net transfers, with the statement of changes in equity's total equity as the total. ok false with problems when the consolidation cannot be computed.",
      }),
    ),
    handler: async (req) => segmentReport(database.db, authOf(req).user.accountId, req.query),
  });
  app.route({
    ...routeOf(
      contract.postSegmentsEnable,
      docs("Read the group's classes and locations from QuickBooks (turns segments on and syncs each company)", {
        description:
          "Segments are off until asked for: each class and location in use costs QuickBooks calls on every sync. This turns them on for the group and queues a sync of each connected company (one already queued or running counts), which reads their whole history's classes and locations once.",
      }),
    ),
    handler: async (req) => enableSegments(database, queue, authOf(req).user.accountId),
  });
};
