import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { get, GOOD_PASSWORD, post } from "./flows.ts";

/** The invitation token from the newest invitation mail to `email`, read through the dev mailbox. */
export async function invitationTokenOf(app: FastifyInstance, email: string): Promise<string> {
  const res = await get(app, `/api/dev/mailbox?to=${encodeURIComponent(email)}`);
  expect(res.statusCode).toBe(200);
  const mail = res.json().messages.find((m: { subject: string }) => /invited you/.test(m.subject));
  expect(mail, `an invitation mail to ${email}`).toBeDefined();
  const match = /\/invitation#token=([A-Za-z0-9_-]+)/.exec(mail.text);
  expect(match).not.toBeNull();
  return match![1]!;
}

/** Invite `email` at `level` as the admin, accept from the mailbox; returns the new user's token. */
export async function addMember(app: FastifyInstance, adminToken: string, email: string, level: 0 | 1, password = GOOD_PASSWORD): Promise<string> {
  const invite = await post(app, "/api/team/invitations", { email, permissionLevel: level }, adminToken);
  expect(invite.statusCode, invite.body).toBe(201);
  const token = await invitationTokenOf(app, email);
  const accept = await post(app, "/api/invitations/accept", { token, name: "Pat Member", password, confirmPassword: password });
  expect(accept.statusCode, accept.body).toBe(200);
  return accept.json().token as string;
}
