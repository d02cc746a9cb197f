import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { getFxRates, getFxRatesTemplate, postFxRatesFetch, postFxRatesImport, putFxRates } from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { FxService } from "./service.ts";

const tags = ["fx rates"];
const errs = [400, 401, 409, 415] as const;

export const fxRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider, config }) => {
  const fx = new FxService(database.db, () => provider.fxRatesSource(config.fxRatesUrl));
  app.addHook("onRequest", requireAuth);
  app.addContentTypeParser("text/csv", { parseAs: "string", bodyLimit: 2 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  app.route({
    ...routeOf(getFxRates, {
      tags,
      security: bearer,
      summary: "The rates grid: every foreign currency × month (default: the last 12 months), empty where missing",
      errors: errs,
    }),
    handler: async (req) => fx.grid(authOf(req).user, req.query),
  });

  app.route({
    ...routeOf(putFxRates, { tags, security: bearer, summary: "Set rates (all or nothing); an empty string clears a rate", errors: errs }),
    handler: async (req) => fx.update(authOf(req).user, req.body.rates, requestMeta(req)),
  });

  app.route({
    ...routeOf(postFxRatesImport, {
      tags,
      security: bearer,
      summary: "Import rates from CSV (text/csv; header currency,month,avgfx,endfx); row-level errors, all or nothing",
      errors: errs,
    }),
    handler: async (req) => fx.importCsv(authOf(req).user, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(postFxRatesFetch, {
      tags,
      security: bearer,
      summary: "Fetch rates from the ECB-based rates service: monthly mean of daily rates and the last rate of the month",
      description: "Fills only empty cells unless overwrite is true. Every change is audited like a manual edit.",
      errors: [...errs, 502],
    }),
    handler: async (req) => fx.fetchRates(authOf(req).user, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(getFxRatesTemplate, { tags, security: bearer, summary: "A CSV template: the header and a blank row per foreign currency for the last 3 months" }),
    handler: async (req, reply) =>
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="fx-rates-template.csv"')
        .send(await fx.template(authOf(req).user)),
  });
};
