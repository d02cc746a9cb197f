import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { JobQueue } from "./jobs/queue.ts";
import type { ConnectService } from "./modules/qbo/connect.ts";
import type { SessionService } from "./modules/session/service.ts";
import type { QboProvider } from "./services/qbo-provider.ts";
import type { PgTokenStore } from "./services/qbo-token-store.ts";
import type { Mailer } from "./services/mailer.ts";

/** What route plugins are handed by the composition root. */
export interface AppContext {
  config: Config;
  database: Database;
  mailer: Mailer;
  sessions: SessionService;
  /** onRequest hook: authenticates before the body is even parsed. */
  requireAuth: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  version: string;
  queue: JobQueue;
  provider: QboProvider;
  tokenStore: PgTokenStore;
  connect: ConnectService;
}
