import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { FxService } from "./service.ts";

const errs = [400, 401, 409, 415] as const;
const docs = docsOf({ tags: ["fx rates"], security: bearer, errors: errs });

export const fxRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider, config }) => {
  const fx = new FxService(database.db, () => provider.fxRatesSource(config.fxRatesUrl));
  app.addHook("onRequest", requireAuth);
  app.addContentTypeParser("text/csv", { parseAs: "string", bodyLimit: 2 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  app.route({
    ...routeOf(contract.getFxRates, docs("The rates grid: every foreign currency × month (default: the last 12 months), empty where missing")),
    handler: async (req) => fx.grid(authOf(req).user, req.query),
  });

  app.route({
    ...routeOf(contract.putFxRates, docs("Set rates (all or nothing); an empty string clears a rate")),
    handler: async (req) => fx.update(authOf(req).user, req.body.rates, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.postFxRatesImport, docs("Import rates from CSV (text/csv; header currency,month,avgfx,endfx); row-level errors, all or nothing")),
    handler: async (req) => fx.importCsv(authOf(req).user, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(
      contract.postFxRatesFetch,
      docs("Fetch rates from the ECB-based rates service: monthly mean of daily rates and the last rate of the month", {
        description: "Fills only empty cells unless overwrite is true. Every change is audited like a manual edit.",
        errors: [...errs, 502],
      }),
    ),
    handler: async (req) => fx.fetchRates(authOf(req).user, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.getFxRatesTemplate, docs("A CSV template: the header and a blank row per foreign currency for the last 3 months", { errors: [] })),
    handler: async (req, reply) =>
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="fx-rates-template.csv"')
        .send(await fx.template(authOf(req).user)),
  });
};
