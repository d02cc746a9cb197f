import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  deleteCompany,
  getCompanies,
  getCompaniesAccounts,
  getCompaniesStatus,
  getCompanyAccounts,
  getNeverABalance,
  postCompanyArchive,
  postCompanyParent,
  postCompanySync,
  putCompanyDisconnect,
} from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { actorOf, authOf } from "../../http/auth.ts";
import { bearer, routeOf } from "../../http/endpoint.ts";
import { CompaniesService } from "./service.ts";

const tags = ["companies"];
const actionErrors = [400, 401, 404, 409] as const;

export const companyRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, queue, provider, tokenStore }) => {
  const companies = new CompaniesService(database, queue, provider, tokenStore);
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(getCompanies, { tags, security: bearer, summary: "Connected companies of the caller's account, parent first", errors: [401] }),
    handler: async (req) => companies.list(authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(getCompaniesStatus, { tags, security: bearer, summary: "Connection and sync status of each company, keyed by realmId", errors: [401] }),
    handler: async (req) => companies.statuses(authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(postCompanyParent, {
      tags,
      security: bearer,
      summary: "Make a company the parent (the previous parent becomes a subsidiary)",
      errors: actionErrors,
    }),
    handler: async (req) => companies.setParent(actorOf(req), req.body.realmId),
  });

  app.route({
    ...routeOf(deleteCompany, { tags, security: bearer, summary: "Remove a company with its synced data (QuickBooks itself is untouched)", errors: actionErrors }),
    handler: async (req, reply) => {
      await companies.remove(actorOf(req), req.params.realmId, req.log);
      return reply.status(204).send(null);
    },
  });

  app.route({
    ...routeOf(putCompanyDisconnect, { tags, security: bearer, summary: "Disconnect: revoke the tokens at QuickBooks; synced data stays", errors: actionErrors }),
    handler: async (req, reply) => {
      await companies.disconnect(actorOf(req), req.params.realmId, req.log);
      return reply.status(204).send(null);
    },
  });

  app.route({
    ...routeOf(postCompanyArchive, {
      tags,
      security: bearer,
      summary: "Archive a company from a date (it leaves consolidations after it); null unarchives",
      errors: actionErrors,
    }),
    handler: async (req, reply) => {
      await companies.archive(actorOf(req), req.params.realmId, req.body.date);
      return reply.status(204).send(null);
    },
  });

  app.route({
    ...routeOf(postCompanySync, { tags, security: bearer, summary: "Sync now (returns the running sync if one is already under way)", errors: actionErrors }),
    handler: async (req, reply) => reply.status(202).send(await companies.sync(authOf(req).user.accountId, req.params.realmId)),
  });

  app.route({
    ...routeOf(getCompanyAccounts, { tags, security: bearer, summary: "A company's synced chart of accounts with latest amounts", errors: actionErrors }),
    handler: async (req) => companies.accounts(authOf(req).user.accountId, req.params.realmId),
  });

  app.route({
    ...routeOf(getCompaniesAccounts, { tags, security: bearer, summary: "Synced accounts of every company, keyed by realmId", errors: actionErrors }),
    handler: async (req) => companies.allAccounts(authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(getNeverABalance, { tags, security: bearer, summary: "Accounts that never had a balance, per company", errors: actionErrors }),
    handler: async (req) => companies.neverABalance(authOf(req).user.accountId, req.query),
  });
};
