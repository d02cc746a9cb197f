/**
 * The emulator as a Fastify plugin. Encapsulated on purpose: its body parsers, hooks and error
 * handler apply only under its prefix, so mounting it never changes the host app.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { faultResponse, newIntuitTid, throttledResponse } from "../faults.ts";
import type { Sandbox } from "../sandbox.ts";
import { registerAdminRoutes } from "./adminRoutes.ts";
import { registerAppRoutes } from "./appRoutes.ts";
import { registerFxRoutes } from "./fxRoutes.ts";
import { registerApiRoutes } from "./apiRoutes.ts";
import { registerOAuthRoutes } from "./oauthRoutes.ts";
import { send } from "./send.ts";

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Routes that fault injection and Intuit's rate limits apply to (the API and the token endpoint). */
    faults?: boolean;
    /** The batch endpoint: also within Intuit's limit on batch requests. */
    batch?: boolean;
  }
}

function wantsFaults(request: FastifyRequest): boolean {
  return request.routeOptions.config?.faults === true;
}

function serverFault(status: 500 | 503, now: Date): ReturnType<typeof faultResponse> {
  return faultResponse({
    status,
    type: "SystemFault",
    errors: [
      {
        message: "An application error has occurred while processing your request",
        detail: "System Failure Error: An unexpected error occurred while accessing or saving your data. Please wait a few minutes and try again. If the problem persists, contact customer support.",
        code: "10000",
      },
    ],
    time: now,
  });
}

export interface SandboxPluginOptions {
  sandbox: Sandbox;
  /**
   * Mount the `_sandbox` administration (reset, faults, rules, companies): anyone who reaches it
   * can wipe every grant and book or make every call fail, so it is off unless asked for
   * (development and tests).
   */
  admin?: boolean;
}

export const sandboxPlugin: FastifyPluginAsync<SandboxPluginOptions> = async (app, opts) => {
  const sandbox = opts.sandbox;

  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  // Intuit takes a query as a POST body of type application/text.
  app.addContentTypeParser(["application/text", "text/plain"], { parseAs: "string" }, (_req, body, done) => done(null, body));

  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("intuit_tid", newIntuitTid(sandbox.now()));
    if (!wantsFaults(request)) return;
    const decision = sandbox.faults.decide();
    if (decision.kind === "drop") {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    const latency = sandbox.faults.current.latencyMs ?? 0;
    const realmId = (request.params as { realmId?: string }).realmId;
    if (realmId !== undefined) {
      if (!sandbox.limiter.tryAcquire(realmId, Date.now(), request.routeOptions.config?.batch === true ? "batch" : "request")) {
        if (latency > 0) await sleep(latency);
        return send(reply, throttledResponse({ time: sandbox.now() }));
      }
      let released = false;
      reply.raw.once("close", () => {
        if (!released) sandbox.limiter.release(realmId);
        released = true;
      });
    }
    if (latency > 0) await sleep(latency);
    if (decision.kind === "throttle") return send(reply, throttledResponse({ time: sandbox.now() }));
    if (decision.kind === "server") return send(reply, serverFault(decision.status, sandbox.now()));
  });

  app.setErrorHandler(async (error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error(error);
    const code = status === 500 ? "10000" : "2010";
    const message = status === 500 ? "An application error has occurred while processing your request" : "Request has invalid or unsupported property";
    return send(reply, faultResponse({ status, type: status === 500 ? "SystemFault" : "ValidationFault", errors: [{ message, detail: error.message, code }], time: sandbox.now() }));
  });

  // Under its prefix an unknown path is a plain 404 (the host's fallback, e.g. a web app's page, never answers for it).
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: { code: "not_found", message: `No route for ${request.method} ${request.url.split("?")[0]}.` } }),
  );

  registerOAuthRoutes(app, sandbox);
  registerApiRoutes(app, sandbox);
  if (opts.admin === true) registerAdminRoutes(app, sandbox);
  registerFxRoutes(app);
  registerAppRoutes(app, sandbox);
};
