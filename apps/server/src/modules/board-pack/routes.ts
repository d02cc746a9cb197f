import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { errors as httpErrors } from "../../http/errors.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { RateLimiter } from "../../services/rate-limiter.ts";
import { countReportMail } from "../reports/mail.ts";
import { queueMail } from "./schedule.ts";
import { BoardPackService, requireVerified, saveSchedule, scheduleOf, verifiedAddresses } from "./service.ts";

const errors = [400, 401, 404, 409] as const;
const docs = docsOf({ tags: ["reports"], security: bearer, errors });

export const boardPackRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, queue, config }) => {
  const { db } = database;
  const packs = new BoardPackService({ db, queue });
  const limiter = new RateLimiter(db);
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(
      contract.postBoardPack,
      docs(
        "Start generating the board pack (a PDF of the consolidated statements with the comparison, the cash flow, the changes in equity, a chart, the FX rates used and the CTA explanation) as a background job; the kept pack when nothing has changed since. Poll the job for progress, then download the PDF",
      ),
    ),
    // A report download by another route: any member, and a lapsed trial too (it changes nothing).
    config: { permission: "member", whenLapsed: "allowed" },
    handler: async (req) => packs.request(authOf(req).user.accountId, req.body),
  });

  app.route({
    ...routeOf(contract.getBoardPackJob, docs("A board pack's generation: state, progress (0..1) and message, the error if it failed, and the pack with its pages once done")),
    handler: async (req) => packs.job(authOf(req).user.accountId, req.params.jobId),
  });

  app.route({
    ...routeOf(contract.getBoardPackPdf, docs("The board pack as a PDF (kept: downloading it again computes nothing)")),
    handler: async (req, reply) => {
      const file = await packs.pdf(authOf(req).user.accountId, req.params.packId);
      return reply.type(file.contentType).header("content-disposition", `attachment; filename="${file.name}"`).send(file.content);
    },
  });

  app.route({
    ...routeOf(contract.getBoardPackSchedule, docs("The monthly board pack mail: on or off, the day of the month (UTC), the comparison, the recipients and the team's verified addresses to choose from")),
    handler: async (req) => scheduleOf(db, authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(
      contract.putBoardPackSchedule,
      docs("Set the monthly board pack mail (admins). Every recipient must be a verified address of the team: 422 recipient_unverified naming the others, and nothing is saved or sent", {
        errors: [...errors, 422],
      }),
    ),
    handler: async (req) => saveSchedule(db, authOf(req).user, req.body),
  });

  app.route({
    ...routeOf(
      contract.postBoardPackSend,
      docs("Mail a month's board pack to the schedule's recipients now (admins), counted against the account's mailed reports; 422 recipient_unverified when one is no longer verified", {
        errors: [...errors, 422, 429],
      }),
    ),
    handler: async (req) => {
      const { user } = authOf(req);
      const schedule = await scheduleOf(db, user.accountId);
      if (schedule.recipients.length === 0) throw httpErrors.badRequest("no_recipients", "Choose the board pack's recipients and save the schedule first.");
      requireVerified(schedule.recipients, await verifiedAddresses(db, user.accountId));
      await countReportMail(limiter, config.rateLimits, user.accountId);
      const { job } = await queueMail(queue, user.accountId, req.body.month, schedule, `board-pack-send:${user.accountId}:${req.body.month}`);
      return { jobId: job.id, recipients: schedule.recipients };
    },
  });
};
