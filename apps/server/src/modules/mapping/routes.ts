import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { MappingService } from "./service.ts";

const docs = docsOf({ tags: ["mapping"], security: bearer, errors: [400, 401, 404, 409] });

export const mappingRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const mapping = new MappingService(database.db);
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(contract.getCompanyMap, docs("A subsidiary's account map onto the parent's chart")),
    handler: async (req) => mapping.companyMap(authOf(req).user, req.params.realmId),
  });

  app.route({
    ...routeOf(contract.getCompanyMaps, docs("Account maps of every subsidiary, keyed by realmId")),
    handler: async (req) => mapping.allMaps(authOf(req).user),
  });

  app.route({
    ...routeOf(contract.postCompanyMap, docs("Map subsidiary accounts to parent accounts (all or nothing)")),
    handler: async (req) => mapping.map(authOf(req).user, req.params.realmId, req.body.map, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.postCompanyMultimap, docs("Map many subsidiary accounts onto one parent account each (keyed by the parent account)")),
    handler: async (req) => mapping.multimap(authOf(req).user, req.params.realmId, req.body.map, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.postCompanyUnmap, docs("Remove the maps of these subsidiary accounts")),
    handler: async (req) => mapping.unmap(authOf(req).user, req.params.realmId, req.body.accountIds, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.deleteCompanyMap, docs("Remove every map of this subsidiary")),
    handler: async (req) => mapping.clear(authOf(req).user, req.params.realmId, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.postCompanyUnmapInvalid, docs("Remove the maps of these accounts that are invalid (valid ones are kept)")),
    handler: async (req) => mapping.unmapInvalid(authOf(req).user, req.params.realmId, req.body.accountIds, requestMeta(req)),
  });

  app.route({
    ...routeOf(
      contract.getCompanyMapSuggestions,
      docs("Ranked parent accounts for each unmapped account with a balance (never an incompatible one); the first is confident or says why not"),
    ),
    handler: async (req) => mapping.suggestions(authOf(req).user, req.params.realmId, req.query.all === "true"),
  });
};
