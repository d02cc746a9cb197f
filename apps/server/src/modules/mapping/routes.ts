import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  deleteCompanyMap,
  getCompanyMap,
  getCompanyMaps,
  getCompanyMapSuggestions,
  postCompanyMap,
  postCompanyMultimap,
  postCompanyUnmap,
  postCompanyUnmapInvalid,
} from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { MappingService } from "./service.ts";

const tags = ["mapping"];
const errs = [400, 401, 404, 409] as const;
const docs = (summary: string) => ({ tags, security: bearer, summary, errors: errs });

export const mappingRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const mapping = new MappingService(database.db);
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(getCompanyMap, docs("A subsidiary's account map onto the parent's chart")),
    handler: async (req) => mapping.companyMap(authOf(req).user, req.params.realmId),
  });

  app.route({
    ...routeOf(getCompanyMaps, docs("Account maps of every subsidiary, keyed by realmId")),
    handler: async (req) => mapping.allMaps(authOf(req).user),
  });

  app.route({
    ...routeOf(postCompanyMap, docs("Map subsidiary accounts to parent accounts (all or nothing)")),
    handler: async (req) => mapping.map(authOf(req).user, req.params.realmId, req.body.map, requestMeta(req)),
  });

  app.route({
    ...routeOf(postCompanyMultimap, docs("Map many subsidiary accounts onto one parent account each (keyed by the parent account)")),
    handler: async (req) => mapping.multimap(authOf(req).user, req.params.realmId, req.body.map, requestMeta(req)),
  });

  app.route({
    ...routeOf(postCompanyUnmap, docs("Remove the maps of these subsidiary accounts")),
    handler: async (req) => mapping.unmap(authOf(req).user, req.params.realmId, req.body.accountIds, requestMeta(req)),
  });

  app.route({
    ...routeOf(deleteCompanyMap, docs("Remove every map of this subsidiary")),
    handler: async (req) => mapping.clear(authOf(req).user, req.params.realmId, requestMeta(req)),
  });

  app.route({
    ...routeOf(postCompanyUnmapInvalid, docs("Remove the maps of these accounts that are invalid (valid ones are kept)")),
    handler: async (req) => mapping.unmapInvalid(authOf(req).user, req.params.realmId, req.body.accountIds, requestMeta(req)),
  });

  app.route({
    ...routeOf(
      getCompanyMapSuggestions,
      docs("Ranked parent accounts for each unmapped account with a balance (never an incompatible one); the first is confident or says why not"),
    ),
    handler: async (req) => mapping.suggestions(authOf(req).user, req.params.realmId, req.query.all === "true"),
  });
};
