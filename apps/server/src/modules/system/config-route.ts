import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { publicConfigSchema } from "@groupledger/contract";
import type { AppContext } from "../../context.ts";

/** What the web app needs to know about this deployment before anyone signs in. */
export const publicConfigRoute: FastifyPluginAsyncZod<AppContext> = async (app, { config }) => {
  app.get(
    "/config",
    { schema: { tags: ["system"], summary: "Public settings of this deployment", response: { 200: publicConfigSchema } } },
    async () => ({ idleTimeoutMs: config.idleTimeoutMs, devMailbox: config.devMailbox }),
  );
};
