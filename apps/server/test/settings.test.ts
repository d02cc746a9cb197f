import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { CODE_MESSAGE, ErrorCodes, NAME_MESSAGE, errorBodySchema, profileSchema } from "@groupledger/contract";
import { EMAIL_MESSAGE, LOGIN_PASSWORD_MESSAGE, PASSWORD_RULE_MESSAGES } from "@groupledger/domain";
import { settingsMessages } from "../src/modules/settings/service.ts";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { get, GOOD_PASSWORD, latestCode, post, signedInUser } from "./flows.ts";
import { addMember } from "./team-helpers.ts";

const patch = (app: FastifyInstance, url: string, payload: unknown, token: string) =>
  app.inject({ method: "PATCH", url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
const errorOf = (res: { json(): unknown }) => errorBodySchema.parse(res.json()).error;
const fieldsOf = (res: { json(): unknown }) => (errorOf(res).details?.fields ?? []) as { path: string; message: string }[];
const profileOf = async (app: FastifyInstance, token: string) => profileSchema.parse((await get(app, "/api/settings/profile", token)).json());

describe.each(drivers)("account settings on %s", (driver) => {
  const t = useTestApp(driver);

  it("renames the user, and refuses a blank, long or unknown field", async () => {
    const token = await signedInUser(t.app, "name@example.com");
    expect(await profileOf(t.app, token)).toMatchObject({ email: "name@example.com", name: "", permissionLevel: 1, pendingEmail: null });
    const ok = await patch(t.app, "/api/settings/profile", { name: "  Grace Hopper " }, token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().name).toBe("Grace Hopper");
    expect((await get(t.app, "/api/session", token)).json().name).toBe("Grace Hopper");
    for (const [body, message] of [
      [{ name: "   " }, NAME_MESSAGE],
      [{ name: "x".repeat(121) }, NAME_MESSAGE],
      [{ name: 42 }, NAME_MESSAGE],
      [{}, NAME_MESSAGE],
      [{ name: "Ok", email: "x@example.com" }, "Unknown field: email."],
    ] as const) {
      const res = await patch(t.app, "/api/settings/profile", body, token);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res).map((f) => f.message), JSON.stringify(body)).toContain(message);
    }
  });

  it("sets the report delivery email (SPEC PATCH /api/excel/update), any member may, and the sign-in email resets it", async () => {
    const admin = await signedInUser(t.app, "reports@example.com");
    const member = await addMember(t.app, admin, "reports-member@example.com", 0);
    const res = await patch(t.app, "/api/excel/update", { email: " Controller@Example.com " }, member);
    expect(res.statusCode, res.body).toBe(200);
    // Another address is verified before anything is sent to it (report-mail.test.ts).
    expect(res.json()).toEqual({ data: { email: "controller@example.com", verified: false, message: expect.stringMatching(/^We sent a code to controller@example\.com/) } });
    expect(await profileOf(t.app, member)).toMatchObject({ reportEmail: "controller@example.com", reportEmailIsSignInEmail: false, reportEmailVerified: false });
    // The admin's own setting is untouched: it is per user.
    expect(await profileOf(t.app, admin)).toMatchObject({ reportEmail: "reports@example.com", reportEmailIsSignInEmail: true });
    const reset = await patch(t.app, "/api/excel/update", { email: "reports-member@example.com" }, member);
    expect(reset.statusCode).toBe(200);
    expect(await profileOf(t.app, member)).toMatchObject({ reportEmail: "reports-member@example.com", reportEmailIsSignInEmail: true, reportEmailVerified: true });
    for (const body of [{ email: "nope" }, { email: "" }, {}, { email: 7 }]) {
      const bad = await patch(t.app, "/api/excel/update", body, member);
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad)).toContainEqual({ path: "email", message: EMAIL_MESSAGE });
    }
  });

  it("changes the sign-in email after the password and a code mailed to the new address; other sessions end", async () => {
    const token = await signedInUser(t.app, "old-address@example.com");
    const otherSession = (await post(t.app, "/api/session/token", { email: "old-address@example.com", password: GOOD_PASSWORD })).json().token;

    const wrong = await post(t.app, "/api/settings/email", { newEmail: "new-address@example.com", currentPassword: "Wrong#2026x" }, token);
    expect([wrong.statusCode, fieldsOf(wrong)]).toEqual([400, [{ path: "currentPassword", message: settingsMessages.currentPasswordWrong }]]);
    const same = await post(t.app, "/api/settings/email", { newEmail: "OLD-address@example.com", currentPassword: GOOD_PASSWORD }, token);
    expect([same.statusCode, fieldsOf(same)]).toEqual([400, [{ path: "newEmail", message: settingsMessages.emailSame }]]);
    await signedInUser(t.app, "taken-address@example.com");
    const taken = await post(t.app, "/api/settings/email", { newEmail: "taken-address@example.com", currentPassword: GOOD_PASSWORD }, token);
    expect([taken.statusCode, errorOf(taken).code, errorOf(taken).message]).toEqual([409, ErrorCodes.emailTaken, settingsMessages.emailTaken]);
    for (const [body, path, message] of [
      [{ newEmail: "bad", currentPassword: GOOD_PASSWORD }, "newEmail", EMAIL_MESSAGE],
      [{ newEmail: "n@example.com" }, "currentPassword", LOGIN_PASSWORD_MESSAGE],
      [{ newEmail: "n@example.com", currentPassword: "   " }, "currentPassword", LOGIN_PASSWORD_MESSAGE],
    ] as const) {
      const res = await post(t.app, "/api/settings/email", body, token);
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res)).toContainEqual({ path, message });
    }

    // Reports already go to the future address: after the change it is simply the sign-in email.
    await patch(t.app, "/api/excel/update", { email: "new-address@example.com" }, token);
    const started = await post(t.app, "/api/settings/email", { newEmail: "New-Address@example.com", currentPassword: GOOD_PASSWORD }, token);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toEqual({ pendingEmail: "new-address@example.com", message: settingsMessages.emailChangeSent("new-address@example.com") });
    expect((await profileOf(t.app, token)).pendingEmail).toBe("new-address@example.com");
    const code = await latestCode(t.app, "new-address@example.com", /Confirm your new/);

    const badCode = await post(t.app, "/api/settings/email/verify", { code: "ZZZZ-ZZZZ" }, token);
    expect([badCode.statusCode, errorOf(badCode).code, fieldsOf(badCode)]).toEqual([
      400,
      ErrorCodes.invalidCode,
      [{ path: "code", message: settingsMessages.codeInvalid }],
    ]);
    const noCode = await post(t.app, "/api/settings/email/verify", {}, token);
    expect(fieldsOf(noCode)).toContainEqual({ path: "code", message: CODE_MESSAGE });

    const done = await post(t.app, "/api/settings/email/verify", { code: code.toLowerCase() }, token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().email).toBe("new-address@example.com");
    // The session that changed it continues with its new token; every other one ends.
    expect((await get(t.app, "/api/session", done.json().token)).json().email).toBe("new-address@example.com");
    expect(await profileOf(t.app, done.json().token)).toMatchObject({ reportEmail: "new-address@example.com", reportEmailIsSignInEmail: true });
    expect((await get(t.app, "/api/session", token)).statusCode).toBe(401);
    expect((await get(t.app, "/api/session", otherSession)).statusCode).toBe(401);
    expect((await post(t.app, "/api/session/token", { email: "new-address@example.com", password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect((await post(t.app, "/api/session/token", { email: "old-address@example.com", password: GOOD_PASSWORD })).statusCode).toBe(401);
    // The old address is told.
    const mailbox = await get(t.app, "/api/dev/mailbox?to=old-address%40example.com");
    expect(mailbox.json().messages.map((m: { subject: string }) => m.subject)).toContain("Your GroupLedger sign-in email was changed");
    // A code works once.
    expect((await post(t.app, "/api/settings/email/verify", { code }, done.json().token)).statusCode).toBe(400);
  });

  it("a newer email-change request replaces the older code", async () => {
    const token = await signedInUser(t.app, "twice@example.com");
    await post(t.app, "/api/settings/email", { newEmail: "first-try@example.com", currentPassword: GOOD_PASSWORD }, token);
    const first = await latestCode(t.app, "first-try@example.com", /Confirm your new/);
    await post(t.app, "/api/settings/email", { newEmail: "second-try@example.com", currentPassword: GOOD_PASSWORD }, token);
    expect((await post(t.app, "/api/settings/email/verify", { code: first }, token)).statusCode).toBe(400);
    const second = await latestCode(t.app, "second-try@example.com", /Confirm your new/);
    const done = await post(t.app, "/api/settings/email/verify", { code: second }, token);
    expect(done.json().email).toBe("second-try@example.com");
  });

  it("logs out everywhere: every token of the user ends, other users keep theirs", async () => {
    const admin = await signedInUser(t.app, "everywhere@example.com");
    const member = await addMember(t.app, admin, "everywhere-member@example.com", 0);
    const second = (await post(t.app, "/api/session/token", { email: "everywhere@example.com", password: GOOD_PASSWORD })).json().token;
    expect((await post(t.app, "/api/session/logout/all", undefined, admin)).statusCode).toBe(204);
    expect((await get(t.app, "/api/session", admin)).statusCode).toBe(401);
    expect((await get(t.app, "/api/session", second)).statusCode).toBe(401);
    expect((await get(t.app, "/api/session", member)).statusCode).toBe(200);
    expect((await post(t.app, "/api/session/token", { email: "everywhere@example.com", password: GOOD_PASSWORD })).statusCode).toBe(200);
  });

  it("changes the password of a member with the creation rules", async () => {
    const admin = await signedInUser(t.app, "pw-admin@example.com");
    const member = await addMember(t.app, admin, "pw-member@example.com", 0);
    const weak = await post(t.app, "/api/session/changepassword", { currentPassword: GOOD_PASSWORD, newPassword: "pw-member#A1" }, member);
    expect(weak.statusCode).toBe(400);
    expect(fieldsOf(weak)).toContainEqual({ path: "newPassword", message: PASSWORD_RULE_MESSAGES.notEmailName });
    const ok = await post(t.app, "/api/session/changepassword", { currentPassword: GOOD_PASSWORD, newPassword: "Another#2026x" }, member);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await post(t.app, "/api/session/token", { email: "pw-member@example.com", password: "Another#2026x" })).statusCode).toBe(200);
  });
});
