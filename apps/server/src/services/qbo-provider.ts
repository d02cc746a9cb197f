import type { FastifyInstance } from "fastify";
import {
  intuitEndpoints,
  LimiterPool,
  QboClient,
  QboOAuth,
  sandboxEndpoints,
  type CallObserver,
  type QboEndpoints,
  type RetryOptions,
  type TokenStore,
} from "@groupledger/qbo";
import { Sandbox } from "@groupledger/qbo-sandbox";
import { webhookVerifierToken, type Config } from "../config.ts";

/** Where the embedded emulator is mounted in this server. */
export const SANDBOX_PREFIX = "/qbo-sandbox";
/** A name the server uses to reach its own emulator in-process; it is never resolved on a network. */
const EMBEDDED_ORIGIN = "http://embedded-qbo.invalid";
export const SANDBOX_CLIENT = { id: "sandbox-client-id", secret: "sandbox-client-secret" } as const;

/**
 * Everything the product needs to talk to QuickBooks: real Intuit with the app's keys, or the
 * emulator — mounted in this server (the default), or standalone at a URL (fault tests).
 */
export class QboProvider {
  private readonly limiters = new LimiterPool();
  /** Told about every call of every client this provider hands out (the count of calls: modules/qbo/usage.ts). */
  private readonly observers = new Set<CallObserver>();

  constructor(
    readonly mode: "intuit" | "embedded" | "standalone",
    private readonly endpoints: QboEndpoints,
    readonly clientId: string,
    private readonly clientSecret: string,
    /** Fixed for Intuit (it must match the app's registration); per request origin otherwise. */
    private readonly fixedRedirectUri: string | null,
    private readonly fetchFn: typeof fetch,
    readonly sandbox: Sandbox | null,
    private readonly tokens: TokenStore,
    /** Intuit's pace in production; tests shorten the waits. */
    private readonly retry?: Partial<RetryOptions>,
  ) {}

  redirectUri(requestOrigin: string): string {
    return this.fixedRedirectUri ?? `${requestOrigin}/qbo/auth/complete`;
  }

  oauth(redirectUri: string): QboOAuth {
    return new QboOAuth({ clientId: this.clientId, clientSecret: this.clientSecret, redirectUri, endpoints: this.endpoints, fetch: this.fetchFn });
  }

  /** Tells `observer` of every call to QuickBooks made from now on; the returned function stops it. */
  observe(observer: CallObserver): () => void {
    this.observers.add(observer);
    return () => void this.observers.delete(observer);
  }

  /** A client for one company; `tokens` overrides the stored tokens (reading a company before saving it). */
  client(realmId: string, options: { tokens?: TokenStore; onCall?: CallObserver } = {}): QboClient {
    const own = options.onCall;
    return new QboClient({
      realmId,
      // The redirect URI plays no part in refresh or API calls.
      oauth: this.oauth(this.fixedRedirectUri ?? "http://localhost/qbo/auth/complete"),
      tokens: options.tokens ?? this.tokens,
      fetch: this.fetchFn,
      limiter: this.limiters.forRealm(realmId),
      onCall: (call) => {
        own?.(call);
        for (const observer of this.observers) observer(call);
      },
      retry: this.retry,
    });
  }

  /** The consent page as the browser opens it: the embedded emulator lives on this server's own origin. */
  browserUrl(authorizationUrl: string): string {
    return this.mode === "embedded" ? authorizationUrl.slice(EMBEDDED_ORIGIN.length) : authorizationUrl;
  }

  /**
   * Where FX reference rates come from: an explicit URL, else the embedded emulator's offline copy,
   * else the public ECB-based API.
   */
  fxRatesSource(configured: string | undefined): { baseUrl: string; fetch: typeof fetch } {
    if (configured) return { baseUrl: configured.replace(/\/$/, ""), fetch: globalThis.fetch };
    if (this.mode === "embedded") return { baseUrl: `${EMBEDDED_ORIGIN}${SANDBOX_PREFIX}/fx`, fetch: this.fetchFn };
    if (this.mode === "standalone") return { baseUrl: `${this.endpoints.apiBaseUrl}/fx`, fetch: this.fetchFn };
    return { baseUrl: "https://api.frankfurter.app", fetch: globalThis.fetch };
  }

  /**
   * A link that opens a journal entry of `realmId` in QuickBooks: Intuit's own screen (which knows
   * the company from the user's QuickBooks sign-in), or the emulator's read-only view of it, on
   * this server's origin when it is embedded (packages/qbo-sandbox http/appRoutes.ts).
   */
  journalEntryUrl(realmId: string, txnId: string): string {
    if (this.mode !== "intuit") {
      const base = this.mode === "embedded" ? SANDBOX_PREFIX : this.endpoints.apiBaseUrl;
      return `${base}/app/journal?${new URLSearchParams({ realmId, txnId })}`;
    }
    const host = this.endpoints.apiBaseUrl.includes("sandbox") ? "app.sandbox.qbo.intuit.com" : "app.qbo.intuit.com";
    return `https://${host}/app/journal?txnId=${encodeURIComponent(txnId)}`;
  }
}

export function createQboProvider(
  config: Config,
  app: FastifyInstance,
  tokens: TokenStore,
  sandbox?: Sandbox,
  retry?: Partial<RetryOptions>,
): QboProvider {
  if (config.qbo.kind === "intuit") {
    const { clientId, clientSecret, redirectUri, environment } = config.qbo;
    return new QboProvider("intuit", intuitEndpoints(environment), clientId, clientSecret, redirectUri, globalThis.fetch, null, tokens);
  }
  // Kept under DATA_DIR: a restart keeps the grants the stored tokens belong to and the posted books.
  const emulator =
    sandbox ??
    new Sandbox(config.qbo.stateDir ? { dataDir: config.qbo.stateDir, onDiscardedState: (message) => app.log.warn(`QuickBooks emulator: ${message}`) } : {});
  return new QboProvider(
    "embedded",
    sandboxEndpoints(`${EMBEDDED_ORIGIN}${SANDBOX_PREFIX}`),
    SANDBOX_CLIENT.id,
    SANDBOX_CLIENT.secret,
    null,
    injectFetch(app, EMBEDDED_ORIGIN),
    emulator,
    tokens,
    retry,
  );
}

/** Where the embedded emulator sends its webhooks: this server's own endpoint (packages/contract postQboWebhooks). */
export const EMBEDDED_WEBHOOK_URL = `${EMBEDDED_ORIGIN}/api/qbo/webhooks`;

/**
 * Points the embedded emulator's webhooks at this server's /api/qbo/webhooks, in-process, signed
 * with the verifier token the server checks (config `webhookVerifierToken`), as Intuit would call
 * the app: after changes made through its API, gathered over `config.qbo.webhooks.windowMs`. Off
 * when the config has no `webhooks` (QBO_EMULATOR_WEBHOOKS=false, and tests unless they ask).
 */
export function connectEmbeddedWebhooks(config: Config, app: FastifyInstance, sandbox: Sandbox): boolean {
  const verifierToken = webhookVerifierToken(config);
  if (config.qbo.kind !== "embedded" || !config.qbo.webhooks || !verifierToken) return false;
  sandbox.webhooks.configure({
    url: EMBEDDED_WEBHOOK_URL,
    verifierToken,
    windowMs: config.qbo.webhooks.windowMs,
    fetch: injectFetch(app, EMBEDDED_ORIGIN),
    onFailure: (failure) => app.log.warn({ realmId: failure.realmId, attempts: failure.attempts, error: failure.error }, "the QuickBooks emulator could not deliver a webhook"),
  });
  return true;
}

/**
 * A standalone emulator at a URL, reached over real HTTP (fault injection with dropped sockets; the
 * soak's emulator on a thread of its own). `sandbox`: its instance when it lives in this process.
 */
export function standaloneQboProvider(url: string, sandbox: Sandbox | null, tokens: TokenStore): QboProvider {
  return new QboProvider("standalone", sandboxEndpoints(url), SANDBOX_CLIENT.id, SANDBOX_CLIENT.secret, null, globalThis.fetch, sandbox, tokens);
}

/** fetch() answered by this Fastify instance in-process, for URLs under `origin`. */
export function injectFetch(app: FastifyInstance, origin: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(origin)) throw new TypeError(`injectFetch only serves ${origin}, not ${request.url}`);
    const res = await app.inject({
      method: request.method as "GET",
      url: request.url.slice(origin.length),
      headers: Object.fromEntries(request.headers),
      payload: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [String(value)]) headers.append(name, v);
    }
    const bodyless = res.statusCode === 204 || res.statusCode === 304;
    return new Response(bodyless ? null : res.rawPayload, { status: res.statusCode, headers });
  };
}
