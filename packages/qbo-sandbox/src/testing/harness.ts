/** In-process harness for the HTTP tests: the plugin on a bare Fastify app, driven by inject(). */
import Fastify from "fastify";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { sandboxPlugin } from "../http/plugin.ts";
import type { SandboxOptions } from "../sandbox.ts";
import { Sandbox } from "../sandbox.ts";

export const REDIRECT = "https://app.example/qbo/callback";
export const BASIC = `Basic ${Buffer.from("sandbox-client-id:sandbox-client-secret").toString("base64")}`;

export interface Harness {
  readonly app: FastifyInstance;
  readonly sandbox: Sandbox;
  readonly realms: string[];
  tokens(realmId: string): Promise<{ access_token: string; refresh_token: string }>;
  get(realmId: string, path: string, token: string): Promise<LightMyRequestResponse>;
  post(realmId: string, path: string, token: string, body: unknown): Promise<LightMyRequestResponse>;
  tokenRequest(form: Record<string, string>, auth?: string): Promise<LightMyRequestResponse>;
}

/** A settable clock starting at a fixed instant. */
export function testClock(start = "2026-11-02T17:00:00.000Z"): { now: () => Date; advance(ms: number): void } {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms) => void (t += ms) };
}

export async function harness(opts: SandboxOptions & { admin?: boolean } = {}, prefix = ""): Promise<Harness> {
  const { admin = true, ...sandboxOptions } = opts;
  const sandbox = new Sandbox(sandboxOptions);
  const app = Fastify({ logger: false });
  await app.register(sandboxPlugin, { sandbox, prefix, admin });
  await app.ready();
  const tokenRequest = (form: Record<string, string>, auth = BASIC): Promise<LightMyRequestResponse> =>
    app.inject({
      method: "POST",
      url: `${prefix}/oauth2/v1/tokens/bearer`,
      headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      payload: new URLSearchParams(form).toString(),
    });
  return {
    app,
    sandbox,
    realms: sandbox.companies().map((c) => c.realmId),
    tokenRequest,
    async tokens(realmId) {
      const code = sandbox.issueAuthorizationCode(realmId, REDIRECT);
      const res = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT });
      if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.body}`);
      return res.json();
    },
    get: (realmId, path, token) =>
      app.inject({ method: "GET", url: `${prefix}/v3/company/${realmId}/${path}`, headers: { authorization: `Bearer ${token}`, accept: "application/json" } }),
    post: (realmId, path, token, body) =>
      app.inject({
        method: "POST",
        url: `${prefix}/v3/company/${realmId}/${path}`,
        headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" },
        payload: JSON.stringify(body),
      }),
  };
}

/** A harness on the test clock and an access token of its first company (the demo parent): where most HTTP tests start. */
export async function firstCompanySession(): Promise<{ h: Harness; realm: string; token: string }> {
  const h = await harness({ now: testClock().now });
  const realm = h.realms[0] as string;
  return { h, realm, token: (await h.tokens(realm)).access_token };
}

export function q(text: string): string {
  return `query?query=${encodeURIComponent(text)}&minorversion=75`;
}
