import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { EMAIL_MESSAGE, LOGIN_PASSWORD_MESSAGE, PASSWORD_RULE_MESSAGES } from "@groupledger/domain";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { GOOD_PASSWORD, get, post, resetCodeOf, signedInUser, verifyCodeOf } from "./flows.ts";

const SECRET = new TextEncoder().encode("test-secret-that-is-long-enough-for-hs256-0123456789");

describe.each(drivers)("session on %s", (driver) => {
  const t = useTestApp(driver);

  it("signs up, verifies, logs in, reads the session, logs out, and the token is then rejected", async () => {
    const email = "Ada.Lovelace@Example.COM ";
    const signup = await post(t.app, "/api/session/signup", { email, password: GOOD_PASSWORD });
    expect(signup.statusCode).toBe(201);
    expect(signup.json()).toEqual({
      email: "ada.lovelace@example.com",
      message: "We sent a verification code to your email. Enter it to finish signing up.",
    });

    // Not verified yet: the right password is still refused, with a message that says what to do.
    const early = await post(t.app, "/api/session/token", { email, password: GOOD_PASSWORD });
    expect(early.statusCode).toBe(403);
    expect(early.json().error.code).toBe("email_not_verified");

    const code = await verifyCodeOf(t.app, "ada.lovelace@example.com");
    // People type codes in lower case and without the dash; both are accepted.
    const verify = await post(t.app, "/api/session/validationcode", { validationCode: code.replace("-", "").toLowerCase() });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({ email: "ada.lovelace@example.com" });

    // Single use.
    const again = await post(t.app, "/api/session/validationcode", { validationCode: code });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe("invalid_code");

    const login = await post(t.app, "/api/session/token", { email: "ADA.LOVELACE@example.com", password: GOOD_PASSWORD });
    expect(login.statusCode).toBe(200);
    const { token, expiresAt } = login.json();
    expect(token.split(".")).toHaveLength(3);
    const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
    expect(payload.exp * 1000).toBe(Date.parse(expiresAt));
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000);

    const session = await get(t.app, "/api/session", token);
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({
      email: "ada.lovelace@example.com",
      permissionLevel: 1, // whoever signs an account up is its admin
      emailVerified: true,
      releaseNotesVersion: "0",
    });
    expect(session.json()).not.toHaveProperty("passwordHash");

    const logout = await post(t.app, "/api/session/logout", undefined, token);
    expect(logout.statusCode).toBe(204);
    const after = await get(t.app, "/api/session", token);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toEqual({ code: "invalid_token", message: "Invalid token" });
  });

  it("gives one generic 401 for an unknown email and for a wrong password", async () => {
    await signedInUser(t.app, "grace@example.com");
    const wrong = await post(t.app, "/api/session/token", { email: "grace@example.com", password: "Wrong#Password1" });
    const unknown = await post(t.app, "/api/session/token", { email: "nobody@example.com", password: "Wrong#Password1" });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error).toEqual({ code: "invalid_credentials", message: "Incorrect email or password." });
  });

  it("answers the spec's validation messages for login", async () => {
    const badEmail = await post(t.app, "/api/session/token", { email: "not-an-email", password: "x" });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error.message).toBe(EMAIL_MESSAGE);
    expect(badEmail.json().error.details.fields).toContainEqual({ path: "email", message: "Please enter a valid email." });

    const blank = await post(t.app, "/api/session/token", { email: "a@example.com", password: "   " });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.details.fields).toEqual([{ path: "password", message: "Please provide a valid password." }]);
    expect(LOGIN_PASSWORD_MESSAGE).toBe("Please provide a valid password.");

    const missing = await post(t.app, "/api/session/token", {});
    expect(missing.statusCode).toBe(400);
    const paths = missing.json().error.details.fields.map((f: { path: string }) => f.path).sort();
    expect(paths).toEqual(["email", "password"]);
  });

  it.each([
    ["", PASSWORD_RULE_MESSAGES.notBlank],
    ["Sh0rt!a", PASSWORD_RULE_MESSAGES.minLength],
    ["NoDigits!here", PASSWORD_RULE_MESSAGES.digit],
    ["NOLOWER#123", PASSWORD_RULE_MESSAGES.lowercase],
    ["noupper#123", PASSWORD_RULE_MESSAGES.uppercase],
    ["NoSpecial123", PASSWORD_RULE_MESSAGES.special],
    ["Has Space#123", PASSWORD_RULE_MESSAGES.noWhitespace],
    ["Xmargaret#123", PASSWORD_RULE_MESSAGES.notEmailName],
    [`Aa1#${"x".repeat(1021)}`, PASSWORD_RULE_MESSAGES.maxLength],
  ])("rejects the sign-up password %j with %j", async (password, message) => {
    const res = await post(t.app, "/api/session/signup", { email: "margaret@example.com", password });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("validation_failed");
    expect(res.json().error.details.fields).toContainEqual({ path: "password", message });
    // Nothing was created: the email can still sign up properly.
  });

  it("asks for the code when it is missing or empty", async () => {
    for (const payload of [{}, { validationCode: "" }, { validationCode: "  -  " }, { validationCode: 12345678 }]) {
      const res = await post(t.app, "/api/session/validationcode", payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.fields).toEqual([{ path: "validationCode", message: "Please enter the code from your email." }]);
    }
  });

  it("lets a never-verified email sign up again, and only the newest code works", async () => {
    const email = "twice@example.com";
    await post(t.app, "/api/session/signup", { email, password: GOOD_PASSWORD });
    const first = await verifyCodeOf(t.app, email);
    const again = await post(t.app, "/api/session/signup", { email, password: "Another#Pass9" });
    expect(again.statusCode).toBe(201);
    const second = await verifyCodeOf(t.app, email);
    expect(second).not.toBe(first);
    expect((await post(t.app, "/api/session/validationcode", { validationCode: first })).statusCode).toBe(400);
    expect((await post(t.app, "/api/session/validationcode", { validationCode: second })).statusCode).toBe(200);
    expect((await post(t.app, "/api/session/token", { email, password: "Another#Pass9" })).statusCode).toBe(200);
    const taken = await post(t.app, "/api/session/signup", { email, password: GOOD_PASSWORD });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe("email_taken");
  });

  it("resends a verification code without telling whether the email exists", async () => {
    const email = "resend@example.com";
    await post(t.app, "/api/session/signup", { email, password: GOOD_PASSWORD });
    const first = await verifyCodeOf(t.app, email);
    const known = await post(t.app, "/api/session/resendcode", { email });
    const unknown = await post(t.app, "/api/session/resendcode", { email: "ghost@example.com" });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    const second = await verifyCodeOf(t.app, email);
    expect(second).not.toBe(first);
    expect((await post(t.app, "/api/session/validationcode", { validationCode: second })).json()).toEqual({ email });
  });

  it("burns a verification code after five wrong tries against that email", async () => {
    const email = "guessed@example.com";
    await post(t.app, "/api/session/signup", { email, password: GOOD_PASSWORD });
    const code = await verifyCodeOf(t.app, email);
    for (let i = 0; i < 5; i++) {
      const res = await post(t.app, "/api/session/validationcode", { validationCode: "ZZZZ-ZZZZ", email });
      expect(res.statusCode).toBe(400);
    }
    const real = await post(t.app, "/api/session/validationcode", { validationCode: code, email });
    expect(real.statusCode).toBe(400);
    expect(real.json().error.message).toMatch(/not valid or has expired/);
  });

  it("rejects a code whose owner is not the email given", async () => {
    await post(t.app, "/api/session/signup", { email: "owner@example.com", password: GOOD_PASSWORD });
    const code = await verifyCodeOf(t.app, "owner@example.com");
    const res = await post(t.app, "/api/session/validationcode", { validationCode: code, email: "other@example.com" });
    expect(res.statusCode).toBe(400);
    expect((await post(t.app, "/api/session/validationcode", { validationCode: code })).statusCode).toBe(200);
  });

  it("rejects an expired code", async () => {
    const email = "late@example.com";
    await post(t.app, "/api/session/signup", { email, password: GOOD_PASSWORD });
    const code = await verifyCodeOf(t.app, email);
    await t.db.database.db.execute(
      (await import("drizzle-orm")).sql`update verification_codes set expires_at = now() - interval '1 second'`,
    );
    const res = await post(t.app, "/api/session/validationcode", { validationCode: code });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("invalid_code");
  });

  it("resets a forgotten password, ending every existing session", async () => {
    const email = "forgetful@example.com";
    const oldToken = await signedInUser(t.app, email);
    const known = await post(t.app, "/api/session/forgotpassword", { email: "  Forgetful@Example.com" });
    const unknown = await post(t.app, "/api/session/forgotpassword", { email: "nobody-here@example.com" });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe("If an account exists for that email, we have sent it a code to reset the password.");

    const code = await resetCodeOf(t.app, email);
    const weak = await post(t.app, "/api/session/resetpassword", { email, code, password: "weak" });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.details.fields.map((f: { message: string }) => f.message)).toContain(PASSWORD_RULE_MESSAGES.minLength);

    const wrongCode = await post(t.app, "/api/session/resetpassword", { email, code: "AAAA-AAAA", password: "Brand#New2026" });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().error.code).toBe("invalid_code");

    const reset = await post(t.app, "/api/session/resetpassword", { email, code, password: "Brand#New2026" });
    expect(reset.statusCode).toBe(200);
    expect((await get(t.app, "/api/session", oldToken)).statusCode).toBe(401);
    expect((await post(t.app, "/api/session/token", { email, password: GOOD_PASSWORD })).statusCode).toBe(401);
    expect((await post(t.app, "/api/session/token", { email, password: "Brand#New2026" })).statusCode).toBe(200);
    // The code was single use.
    expect((await post(t.app, "/api/session/resetpassword", { email, code, password: "Other#New2026" })).statusCode).toBe(400);
  });

  it("changes the password of a signed-in user and keeps only the new session", async () => {
    const email = "changer@example.com";
    const token = await signedInUser(t.app, email);
    const other = (await post(t.app, "/api/session/token", { email, password: GOOD_PASSWORD })).json().token;

    const wrong = await post(t.app, "/api/session/changepassword", { currentPassword: "Nope#12345", newPassword: "Fresh#Pass2026" }, token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe("wrong_password");

    const containsName = await post(t.app, "/api/session/changepassword", { currentPassword: GOOD_PASSWORD, newPassword: "Changer#2026" }, token);
    expect(containsName.statusCode).toBe(400);
    expect(containsName.json().error.details.fields).toContainEqual({ path: "newPassword", message: PASSWORD_RULE_MESSAGES.notEmailName });

    const ok = await post(t.app, "/api/session/changepassword", { currentPassword: GOOD_PASSWORD, newPassword: "Fresh#Pass2026" }, token);
    expect(ok.statusCode).toBe(200);
    const fresh = ok.json().token;
    expect((await get(t.app, "/api/session", fresh)).statusCode).toBe(200);
    expect((await get(t.app, "/api/session", token)).statusCode).toBe(401);
    expect((await get(t.app, "/api/session", other)).statusCode).toBe(401);
  });

  describe("tokens", () => {
    const sign = (claims: Record<string, unknown>, exp?: number, key = SECRET) => {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setIssuer("groupledger").setJti("j1");
      if (exp !== undefined) jwt.setExpirationTime(exp);
      return jwt.sign(key);
    };

    it("answers EXPIRED_TOKEN for an expired token", async () => {
      const token = await signedInUser(t.app, "expiry@example.com");
      const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
      const expired = await sign({ sub: claims.sub, acc: claims.acc, ver: 0 }, Math.floor(Date.now() / 1000) - 10);
      const res = await get(t.app, "/api/session", expired);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe("EXPIRED_TOKEN");
    });

    it.each([
      ["missing", undefined],
      ["fewer than 3 parts", "abc.def"],
      ["garbage", "not-a-token"],
      ["4 parts", "a.b.c.d"],
      ["empty bearer", ""],
    ])("answers 401 Invalid token for a %s token", async (_name, token) => {
      const res = await t.app.inject({
        method: "GET",
        url: "/api/session",
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toEqual({ code: "invalid_token", message: "Invalid token" });
    });

    it("rejects a token without exp, with another key, or for an unknown user", async () => {
      const token = await signedInUser(t.app, "claims@example.com");
      const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
      const future = Math.floor(Date.now() / 1000) + 600;
      const noExp = await sign({ sub: claims.sub, acc: claims.acc, ver: 0 });
      const otherKey = await sign({ sub: claims.sub, acc: claims.acc, ver: 0 }, future, new TextEncoder().encode("x".repeat(48)));
      const ghost = await sign({ sub: "00000000-0000-0000-0000-000000000000", acc: claims.acc, ver: 0 }, future);
      const otherAccount = await sign({ sub: claims.sub, acc: "00000000-0000-0000-0000-000000000000", ver: 0 }, future);
      const tampered = `${token.split(".")[0]}.${Buffer.from(JSON.stringify({ ...claims, ver: 0, permissionLevel: 9 })).toString("base64url")}.${token.split(".")[2]}`;
      for (const bad of [noExp, otherKey, ghost, otherAccount, tampered]) {
        const res = await get(t.app, "/api/session", bad);
        expect(res.statusCode).toBe(401);
        expect(res.json().error.message).toBe("Invalid token");
      }
      // The real one is still fine.
      expect((await get(t.app, "/api/session", token)).statusCode).toBe(200);
    });
  });
});
