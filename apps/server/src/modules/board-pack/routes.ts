import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { AppError, errors as httpErrors } from "../../http/errors.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { RateLimiter } from "../../services/rate-limiter.ts";
import { countReportMail } from "../reports/mail.ts";
import { queueMail } from "./schedule.ts";
import { BoardPackRecipients, mailable } from "./recipients.ts";
import { BoardPackService, saveSchedule, scheduleOf, verifiedAddresses } from "./service.ts";

const errors = [400, 401, 404, 409] as const;
const docs = docsOf({ tags: ["reports"], security: bearer, errors });

export const boardPackRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, queue, config, mailer }) => {
  const { db } = database;
  const packs = new BoardPackService({ db, queue });
  const limiter = new RateLimiter(db);
  const recipients = new BoardPackRecipients(db, config, mailer, limiter);
  const origin = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;
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
      docs(
        "Set the monthly board pack mail (admins). A recipient that is not a verified address of the team is kept pending and mailed a confirmation link (double opt-in; nothing is sent to it until its owner confirms), counted against the account's confirmation mails (429 when spent); 422 recipient_declined for an address whose owner declined, 422 too_many_pending past the pending limit: then nothing is saved",
        { errors: [...errors, 422, 429] },
      ),
    ),
    handler: async (req) => saveSchedule(db, authOf(req).user, req.body, { recipients, mailer, origin: origin(req) }),
  });

  app.route({
    ...routeOf(
      contract.postBoardPackRecipientResend,
      docs("Mail a recipient awaiting confirmation (or no longer verified) a new confirmation link (admins); the old link stops working; counted against the account's confirmation mails", {
        errors: [...errors, 429],
      }),
    ),
    handler: async (req) => {
      const { user } = authOf(req);
      await recipients.resend(user, req.body.email, origin(req), new Set(await verifiedAddresses(db, user.accountId)));
      return scheduleOf(db, user.accountId);
    },
  });

  app.route({
    ...routeOf(
      contract.postBoardPackSend,
      docs(
        "Mail a month's board pack now (admins) to the schedule's recipients that may receive it (team addresses and confirmed ones; the others are named in `skipped`), counted against the account's mailed reports; 422 recipient_unverified when none may",
        { errors: [...errors, 422, 429] },
      ),
    ),
    handler: async (req) => {
      const { user } = authOf(req);
      const schedule = await scheduleOf(db, user.accountId);
      if (schedule.recipients.length === 0) throw httpErrors.badRequest("no_recipients", "Choose the board pack's recipients and save the schedule first.");
      const to = schedule.recipientStatus.filter((r) => mailable(r.state)).map((r) => r.email);
      const skipped = schedule.recipientStatus.filter((r) => !mailable(r.state)).map((r) => ({ email: r.email, state: r.state }));
      if (to.length === 0) {
        throw new AppError(
          422,
          "recipient_unverified",
          `None of the recipients can receive the board pack yet, so nothing is sent: ${skipped.map((s) => `${s.email} (${s.state === "pending" ? "awaiting confirmation" : "not verified"})`).join(", ")}. Each must open the link mailed to it and confirm (Resend confirmation mails a new one).`,
          { unverified: skipped.map((s) => s.email) },
        );
      }
      await countReportMail(limiter, config.rateLimits, user.accountId);
      const { job } = await queueMail(queue, user.accountId, req.body.month, schedule, `board-pack-send:${user.accountId}:${req.body.month}`);
      return { jobId: job.id, recipients: to, skipped };
    },
  });
};

/**
 * The recipient's side of the double opt-in and the unsubscribe link of each pack mail: public (the
 * token in the body, from the page's fragment, is the whole authority), limited per IP. Looking a
 * link up changes nothing; the page's button POSTs the answer.
 */
export const boardPackPublicRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, config, mailer }) => {
  const { db } = database;
  const recipients = new BoardPackRecipients(db, config, mailer, new RateLimiter(db));
  const open = docsOf({ tags: ["reports"], errors: [400, 404, 409, 410, 429] as const });
  const config_ = { permission: "public" } as const;
  app.route({
    ...routeOf(contract.postBoardPackConfirmLookup, open("What a board pack confirmation link is for (the group, the address, who chose it); changes nothing")),
    config: config_,
    handler: async (req) => recipients.lookup(req.body.token, requestMeta(req)),
  });
  app.route({
    ...routeOf(contract.postBoardPackConfirm, open("Confirm the address of a board pack confirmation link: from now on it receives the pack. Single use; 410 once expired, 404 unknown")),
    config: config_,
    handler: async (req) => recipients.confirm(req.body.token, requestMeta(req)),
  });
  app.route({
    ...routeOf(contract.postBoardPackDecline, open("Decline a board pack confirmation: the address leaves the schedule and cannot be added back by an admin")),
    config: config_,
    handler: async (req) => recipients.decline(req.body.token, requestMeta(req)),
  });
  app.route({
    ...routeOf(contract.postBoardPackUnsubscribeLookup, open("Whom the unsubscribe link of a board pack mail is for, and whether they still receive it; changes nothing")),
    config: config_,
    handler: async (req) => recipients.subscription(req.body.token, requestMeta(req)),
  });
  app.route({
    ...routeOf(contract.postBoardPackUnsubscribe, open("Unsubscribe from a group's board pack: the address leaves the schedule (an address outside the team cannot be added back by an admin)")),
    config: config_,
    handler: async (req) => recipients.unsubscribe(req.body.token, requestMeta(req), async (accountId) => new Set(await verifiedAddresses(db, accountId))),
  });
};
