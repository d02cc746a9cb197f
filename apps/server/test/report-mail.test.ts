import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { parentAndUk } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, latestCode, post, signedInUser } from "./flows.ts";

/** Issue #17.6: the report workbook could be mailed to any address, any number of times. */
describe.each(drivers)("mailing the report on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver, { config: { rateLimits: { reportMailsPerAccount: 4, reportMailWindowMs: 60 * 60 * 1000 } } });
  let token = "";
  const send = () => post(t.app, "/api/consolidation/report/email", { from: "2026-01", to: "2026-03" }, token);
  const setAddress = (email: string) => t.app.inject({ method: "PATCH", url: "/api/excel/update", payload: { email }, headers: { authorization: `Bearer ${token}` } });
  const mailbox = async (to: string) => (await get(t.app, `/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json().messages as { subject: string; text: string; attachments: unknown[] }[];
  const profile = async () => (await get(t.app, "/api/settings/profile", token)).json();

  it("sends to the sign-in email at once: it is verified", async () => {
    token = await signedInUser(t.app, "mailer@northwind.example");
    await parentAndUk(t.app, sandbox, token);
    const res = await send();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sentTo).toBe("mailer@northwind.example");
    expect(await profile()).toMatchObject({ reportEmail: "mailer@northwind.example", reportEmailIsSignInEmail: true, reportEmailVerified: true });
  });

  it("a new address gets a code, not a workbook; sending is refused with a 409 saying what to do until it is verified", async () => {
    const set = await setAddress("stranger@elsewhere.example");
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ email: "stranger@elsewhere.example", verified: false });
    expect(set.json().data.message).toMatch(/We sent a code to stranger@elsewhere\.example/);
    expect(await profile()).toMatchObject({ reportEmail: "stranger@elsewhere.example", reportEmailVerified: false });

    const refused = await send();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toMatchObject({ code: "report_email_unverified" });
    expect(refused.json().error.message).toBe(
      "stranger@elsewhere.example is not verified yet, so no report is sent to it. Enter the code we mailed to it under Account settings → Report delivery (or send a new code from there).",
    );
    const inbox = await mailbox("stranger@elsewhere.example");
    expect(inbox).toHaveLength(1);
    expect(inbox[0]!.subject).toBe("Confirm where GroupLedger sends your reports");
    expect(inbox[0]!.text).toMatch(/mailer@northwind\.example asked/);
    expect(inbox[0]!.attachments).toEqual([]);
  });

  it("a wrong code is refused; the mailed code verifies the address, and then the workbook goes there", async () => {
    const wrong = await post(t.app, "/api/excel/verify", { code: "AAAA-AAAA" }, token);
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().error.message).toMatch(/not valid or has expired/);
    // Another user cannot use it: the code belongs to the user who set the address.
    const other = await signedInUser(t.app, "other@elsewhere.example");
    const code = await latestCode(t.app, "stranger@elsewhere.example", /Confirm where GroupLedger sends your reports/);
    expect((await post(t.app, "/api/excel/verify", { code }, other)).statusCode).toBe(400);

    const ok = await post(t.app, "/api/excel/verify", { code }, token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ email: "stranger@elsewhere.example", verified: true });
    expect((await post(t.app, "/api/excel/verify", { code }, token)).statusCode).toBe(400); // single use
    const sent = await send();
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().sentTo).toBe("stranger@elsewhere.example");
    expect((await mailbox("stranger@elsewhere.example")).filter((m) => m.attachments.length === 1)).toHaveLength(1);
  });

  it("changing the address again needs a new verification; the sign-in email needs none", async () => {
    expect((await setAddress("close-team@northwind.example")).json().data.verified).toBe(false);
    expect((await send()).statusCode).toBe(409);
    const back = await setAddress("mailer@northwind.example");
    expect(back.json().data).toMatchObject({ email: "mailer@northwind.example", verified: true });
    expect(await profile()).toMatchObject({ reportEmailIsSignInEmail: true, reportEmailVerified: true });
  });

  it("limits sends per account: a clear 429 saying when to try again", async () => {
    // Two sends so far in this account; the limit is four an hour.
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(200);
    const limited = await send();
    expect(limited.statusCode, limited.body).toBe(429);
    const retry = Number(limited.headers["retry-after"]);
    expect(retry).toBeGreaterThan(3000);
    expect(retry).toBeLessThanOrEqual(3600);
    expect(limited.json().error.details.retryAfterSeconds).toBe(retry);
    expect(limited.json().error.message).toMatch(/^Your account has mailed 4 reports in the last hour, the most allowed\. Try again in \d+ minutes \(after \d{2}:\d{2} UTC\), or download the workbook instead\.$/);
  });
});
