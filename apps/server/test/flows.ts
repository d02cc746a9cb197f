import type { FastifyInstance } from "fastify";
import { expect } from "vitest";

export const GOOD_PASSWORD = "Ledger#2026x";

export async function post(app: FastifyInstance, url: string, payload: unknown, token?: string) {
  return app.inject({
    method: "POST",
    url,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

export async function get(app: FastifyInstance, url: string, token?: string) {
  return app.inject({ method: "GET", url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

/** The newest code mailed to `email`, read through the dev mailbox like a person would. */
export async function latestCode(app: FastifyInstance, email: string, subject: RegExp): Promise<string> {
  const res = await get(app, `/api/dev/mailbox?to=${encodeURIComponent(email)}`);
  expect(res.statusCode).toBe(200);
  const mail = res.json().messages.find((m: { subject: string }) => subject.test(m.subject));
  expect(mail, `a mail matching ${subject} to ${email}`).toBeDefined();
  const match = /code is ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(mail.text);
  expect(match).not.toBeNull();
  return match![1]!;
}

export const verifyCodeOf = (app: FastifyInstance, email: string) => latestCode(app, email, /verification/i);
export const resetCodeOf = (app: FastifyInstance, email: string) => latestCode(app, email, /reset/i);

/** Sign up, verify and log in; returns the token. */
export async function signedInUser(app: FastifyInstance, email: string, password = GOOD_PASSWORD): Promise<string> {
  const signup = await post(app, "/api/session/signup", { email, password });
  expect(signup.statusCode, signup.body).toBe(201);
  const code = await verifyCodeOf(app, email);
  const verify = await post(app, "/api/session/validationcode", { validationCode: code });
  expect(verify.statusCode, verify.body).toBe(200);
  const login = await post(app, "/api/session/token", { email, password });
  expect(login.statusCode, login.body).toBe(200);
  return login.json().token as string;
}
