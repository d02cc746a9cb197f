import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { actorOf, authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { CompaniesService } from "./service.ts";

const docs = docsOf({ tags: ["companies"], security: bearer, errors: [400, 401, 404, 409] });

export const companyRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, queue, provider, tokenStore }) => {
  const companies = new CompaniesService(database, queue, provider, tokenStore);
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(contract.getCompanies, docs("Connected companies of the caller's account, parent first", { errors: [401] })),
    handler: async (req) => companies.list(authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(contract.getCompaniesStatus, docs("Connection and sync status of each company, keyed by realmId", { errors: [401] })),
    handler: async (req) => companies.statuses(authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(contract.postCompanyParent, docs("Make a company the parent (the previous parent becomes a subsidiary)")),
    handler: async (req) => companies.setParent(actorOf(req), req.body.realmId),
  });

  app.route({
    ...routeOf(contract.deleteCompany, docs("Remove a company with its synced data (QuickBooks itself is untouched)")),
    handler: async (req, reply) => {
      await companies.remove(actorOf(req), req.params.realmId, req.log);
      return reply.status(204).send(null);
    },
  });

  app.route({
    ...routeOf(contract.putCompanyDisconnect, docs("Disconnect: revoke the tokens at QuickBooks; synced data stays")),
    handler: async (req, reply) => {
      await companies.disconnect(actorOf(req), req.params.realmId, req.log);
      return reply.status(204).send(null);
    },
  });

  app.route({
    ...routeOf(contract.postCompanyArchive, docs("Archive a company from a date (it leaves consolidations after it); null unarchives")),
    handler: async (req, reply) => {
      await companies.archive(actorOf(req), req.params.realmId, req.body.date);
      return reply.status(204).send(null);
    },
  });

  app.route({
    ...routeOf(contract.postCompanySync, docs("Sync now (returns the running sync if one is already under way)")),
    handler: async (req, reply) => reply.status(202).send(await companies.sync(authOf(req).user.accountId, req.params.realmId)),
  });

  app.route({
    ...routeOf(contract.getCompanyAccounts, docs("A company's synced chart of accounts with latest amounts")),
    handler: async (req) => companies.accounts(authOf(req).user.accountId, req.params.realmId),
  });

  app.route({
    ...routeOf(contract.getCompaniesAccounts, docs("Synced accounts of every company, keyed by realmId")),
    handler: async (req) => companies.allAccounts(authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(contract.getNeverABalance, docs("Accounts that never had a balance, per company")),
    handler: async (req) => companies.neverABalance(authOf(req).user.accountId, req.query),
  });
};
