/** Consent page, token endpoint, revocation and the OpenID discovery document. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { oauthErrorResponse } from "../faults.ts";
import type { Sandbox } from "../sandbox.ts";
import { oauthJson } from "../wire.ts";
import { consentPage, errorPage } from "./consent.ts";
import { html, send } from "./send.ts";

export const ACCOUNTING_SCOPE = "com.intuit.quickbooks.accounting";

type Fields = Record<string, string | undefined>;

function fieldsOf(value: unknown): Fields {
  if (value === null || typeof value !== "object") return {};
  const out: Fields = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (typeof v === "string") out[k] = v;
  return out;
}

function validRedirect(uri: string | undefined): uri is string {
  if (uri === undefined) return false;
  try {
    const u = new URL(uri);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** The request's problem in words a developer can act on, or undefined. */
function authorizeProblem(sandbox: Sandbox, f: Fields): string | undefined {
  if (f["client_id"] !== sandbox.clientId) return `Unknown client_id "${f["client_id"] ?? ""}". This sandbox accepts "${sandbox.clientId}".`;
  if (f["response_type"] !== "code") return `response_type must be "code".`;
  const scopes = (f["scope"] ?? "").split(/\s+/).filter((s) => s !== "");
  if (!scopes.includes(ACCOUNTING_SCOPE)) return `scope must include ${ACCOUNTING_SCOPE}.`;
  if (!validRedirect(f["redirect_uri"])) return "redirect_uri must be an absolute http(s) URL.";
  if ((f["state"] ?? "") === "") return "state is required.";
  return undefined;
}

function redirectWith(uri: string, params: Record<string, string>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

function clientCredentials(request: FastifyRequest, form: Fields): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  if (header !== undefined && /^basic\s+/i.test(header)) {
    const decoded = Buffer.from(header.replace(/^basic\s+/i, ""), "base64").toString("utf8");
    const i = decoded.indexOf(":");
    if (i < 0) return undefined;
    return { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
  }
  const id = form["client_id"];
  const secret = form["client_secret"];
  return id !== undefined && secret !== undefined ? { id, secret } : undefined;
}

export function registerOAuthRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  const action = `${app.prefix}/connect/oauth2`;

  app.get("/connect/oauth2", async (request, reply) => {
    const f = fieldsOf(request.query);
    const problem = authorizeProblem(sandbox, f);
    if (problem !== undefined) return html(reply, 400, errorPage(problem));
    return html(
      reply,
      200,
      consentPage({
        action,
        clientId: f["client_id"] as string,
        redirectUri: f["redirect_uri"] as string,
        scope: f["scope"] as string,
        state: f["state"] as string,
        companies: sandbox.companies(),
      }),
    );
  });

  app.post("/connect/oauth2", async (request, reply) => {
    const f = fieldsOf(request.body);
    const problem = authorizeProblem(sandbox, f);
    if (problem !== undefined) return html(reply, 400, errorPage(problem));
    const redirectUri = f["redirect_uri"] as string;
    const state = f["state"] as string;
    if (f["decision"] === "cancel") return reply.redirect(redirectWith(redirectUri, { error: "access_denied", state }), 302);
    const realmId = f["realmId"];
    if (realmId === undefined || sandbox.ledger(realmId) === undefined) {
      return html(
        reply,
        400,
        consentPage({ action, clientId: sandbox.clientId, redirectUri, scope: f["scope"] as string, state, companies: sandbox.companies(), error: "Choose a company to connect." }),
      );
    }
    const code = sandbox.issueAuthorizationCode(realmId, redirectUri);
    return reply.redirect(redirectWith(redirectUri, { code, state, realmId }), 302);
  });

  app.post("/oauth2/v1/tokens/bearer", { config: { faults: true } }, async (request, reply) => {
    const now = sandbox.now();
    const form = fieldsOf(request.body);
    const client = clientCredentials(request, form);
    if (client === undefined || client.id !== sandbox.clientId || client.secret !== sandbox.clientSecret) {
      return send(reply, oauthErrorResponse({ error: "invalid_client", status: 401, time: now }));
    }
    const grantType = form["grant_type"];
    let outcome;
    if (grantType === "authorization_code") {
      const code = form["code"];
      const redirectUri = form["redirect_uri"];
      if (code === undefined || redirectUri === undefined) {
        return send(reply, oauthErrorResponse({ error: "invalid_request", description: "code and redirect_uri are required", time: now }));
      }
      outcome = sandbox.oauth.exchangeCode(code, redirectUri, now.getTime());
    } else if (grantType === "refresh_token") {
      const token = form["refresh_token"];
      if (token === undefined) return send(reply, oauthErrorResponse({ error: "invalid_request", description: "refresh_token is required", time: now }));
      outcome = sandbox.oauth.refresh(token, now.getTime());
    } else {
      return send(reply, oauthErrorResponse({ error: "unsupported_grant_type", time: now }));
    }
    sandbox.save();
    if (!outcome.ok) return send(reply, oauthErrorResponse({ error: outcome.error, description: outcome.description, time: now }));
    const t = outcome.value;
    return send(
      reply,
      oauthJson(
        {
          token_type: "bearer",
          expires_in: t.expiresIn,
          refresh_token: t.refreshToken,
          x_refresh_token_expires_in: t.refreshExpiresIn,
          access_token: t.accessToken,
        },
        now,
      ),
    );
  });

  app.post("/v2/oauth2/tokens/revoke", async (request, reply) => {
    const now = sandbox.now();
    const body = fieldsOf(request.body);
    const client = clientCredentials(request, body);
    if (client === undefined || client.id !== sandbox.clientId || client.secret !== sandbox.clientSecret) {
      return send(reply, oauthErrorResponse({ error: "invalid_client", status: 401, time: now }));
    }
    const token = body["token"];
    if (token === undefined) return send(reply, oauthErrorResponse({ error: "invalid_request", description: "token is required", time: now }));
    sandbox.oauth.revoke(token);
    sandbox.save();
    return reply.code(200).header("cache-control", "no-cache, no-store").send("");
  });

  app.get("/.well-known/openid_configuration", async (request) => {
    const root = `${request.protocol}://${request.host}${app.prefix}`;
    return {
      issuer: `${root}/op/v1`,
      authorization_endpoint: `${root}/connect/oauth2`,
      token_endpoint: `${root}/oauth2/v1/tokens/bearer`,
      userinfo_endpoint: `${root}/v1/openid_connect/userinfo`,
      revocation_endpoint: `${root}/v2/oauth2/tokens/revoke`,
      jwks_uri: `${root}/op/v1/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "email", "profile", "address", "phone"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
      claims_supported: ["aud", "exp", "iat", "iss", "realmid", "sub"],
    };
  });
}
