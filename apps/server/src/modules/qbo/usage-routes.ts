import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { CallCounter } from "./usage.ts";

const docs = docsOf({ tags: ["companies"], security: bearer, errors: [401] });

/**
 * The count of QuickBooks calls (usage.ts): the counter observes every client of the provider from
 * start-up, writes every few seconds, and writes what is left when the server closes (Fastify runs
 * this hook after app.ts's own, so after the worker's jobs have stopped calling).
 */
export const qboCallRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, provider, requireAuth }) => {
  const counter = new CallCounter(database.db, (err) => app.log.warn({ err }, "writing the count of QuickBooks calls failed; will retry"));
  provider.observe(counter.observe);
  counter.start();
  // Closing goes on when the last write fails (the database already gone): those counts are lost, and said so.
  app.addHook("onClose", async () =>
    counter.close().catch((err: unknown) => app.log.warn({ err, calls: counter.unwritten }, "the last count of QuickBooks calls could not be written")),
  );
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(
      contract.getQboCalls,
      docs("Requests made to QuickBooks for each company of the group, today and this month (UTC), against Intuit's monthly read allowance", {
        description:
          "Reads (queries, reads, reports, CDC, batches) and writes apart, as Intuit meters reads only. The group's reads are projected to the month's end at the pace so far; warn is true past 80 % of the allowance.",
      }),
    ),
    handler: async (req) => counter.ofGroup(authOf(req).user.accountId),
  });
};
