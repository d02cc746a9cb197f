import type { FastifyInstance } from "fastify";
import type { Sandbox } from "@groupledger/qbo-sandbox";
import { expect } from "vitest";
import { get, post } from "./flows.ts";

export const DEMO = {
  parent: "9341453172384015",
  uk: "9341453172384023",
  canada: "9341453172384031",
  germany: "9341453172384049",
  retail: "9341453172384056",
} as const;

/** Starts a connection and consents for `realmId` as the emulator's consent page would. */
export async function consent(app: FastifyInstance, sandbox: Sandbox, token: string, realmId: string) {
  const res = await get(app, "/api/qbo/account/authorize", token);
  expect(res.statusCode, res.body).toBe(200);
  const url = new URL(res.json().authorizeUrl, "http://localhost");
  const state = url.searchParams.get("state")!;
  const code = sandbox.issueAuthorizationCode(realmId, url.searchParams.get("redirect_uri")!);
  return { state, code, realmId, authorizeUrl: res.json().authorizeUrl as string };
}

export async function connectCompany(app: FastifyInstance, sandbox: Sandbox, token: string, realmId: string) {
  const { state, code } = await consent(app, sandbox, token, realmId);
  const res = await post(app, "/api/qbo/account/callback", { state, code, realmId }, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { company: { realmId: string; companyName: string }; reconnected: boolean };
}

/** Runs queued jobs until none is left. */
export async function drainJobs(app: FastifyInstance): Promise<void> {
  const { worker } = app.services;
  while ((await worker.poll()) > 0) await worker.idle();
  await worker.idle();
}
