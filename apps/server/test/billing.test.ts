import { Writable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { billingSchema, ErrorCodes, errorBodySchema, SUBSCRIPTION_REQUIRED_MESSAGE, TRIAL_DAYS } from "@groupledger/contract";
import { CARD_MESSAGES, cvvMessage, expiryYearMessage } from "@groupledger/domain";
import { accounts, billingSubscriptions, users } from "../src/db/schema.ts";
import { billingMessages } from "../src/modules/billing/service.ts";
import { TEST_CARDS } from "../src/modules/billing/test-provider.ts";
import { useTestApp } from "./app.ts";
import { drivers, type TestDatabase } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";
import { addMember } from "./team-helpers.ts";

const errorOf = (res: { json(): unknown }) => errorBodySchema.parse(res.json()).error;
const fieldsOf = (res: { json(): unknown }) => (errorOf(res).details?.fields ?? []) as { path: string; message: string }[];
const goodCard = { name: "Ada Lovelace", number: TEST_CARDS.success, expMonth: "4", expYear: String((new Date().getUTCFullYear() + 2) % 100), cvv: "123" };

async function billingOf(app: FastifyInstance, token: string) {
  const res = await get(app, "/api/billing", token);
  expect(res.statusCode, res.body).toBe(200);
  return billingSchema.parse(res.json());
}

/** The provider side of the token flow, as the browser calls it. */
async function tokenize(app: FastifyInstance, card: Record<string, unknown>) {
  return app.inject({ method: "POST", url: "/billing-sandbox/v1/tokens", payload: card });
}

async function subscribe(app: FastifyInstance, token: string, plan = "group", card: Record<string, unknown> = goodCard) {
  const tokenized = await tokenize(app, card);
  expect(tokenized.statusCode, tokenized.body).toBe(200);
  return post(app, "/api/billing/subscribe", { plan, token: tokenized.json().id }, token);
}

async function endTrial(app: FastifyInstance, db: TestDatabase, token: string) {
  const accountId = (await get(app, "/api/session", token)).json().accountId as string;
  await db.database.db.update(accounts).set({ trialEndsAt: new Date(Date.now() - 86_400_000) }).where(eq(accounts.id, accountId));
  return accountId;
}

describe.each(drivers)("subscription and payments on %s", (driver) => {
  const t = useTestApp(driver);

  it("a new account is on a 30-day trial with every plan and the test provider offered", async () => {
    const token = await signedInUser(t.app, "trial@example.com");
    const billing = await billingOf(t.app, token);
    expect(billing).toMatchObject({ status: "TRIAL", trialDays: TRIAL_DAYS, trialDaysLeft: 30, inTrial: true, readOnly: false, plan: null, card: null, canManage: true });
    expect(TRIAL_DAYS).toBe(30);
    expect(billing.plans.map((p) => [p.id, p.priceMinor])).toEqual([
      ["group", 14_900],
      ["group_plus", 29_900],
    ]);
    expect(billing.provider).toMatchObject({ kind: "test", tokenizeUrl: expect.stringMatching(/\/billing-sandbox\/v1\/tokens$/) });
  });

  it("the provider's tokenize endpoint checks every field with the form's rules", async () => {
    const now = new Date();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...goodCard, name: " " }, "name", CARD_MESSAGES.name],
      [{ ...goodCard, number: "" }, "number", CARD_MESSAGES.numberRequired],
      [{ ...goodCard, number: "4242 4242 4242 4241" }, "number", CARD_MESSAGES.numberChecksum],
      [{ ...goodCard, number: "4242 4242" }, "number", CARD_MESSAGES.numberIncomplete],
      [{ ...goodCard, number: "9999 9999 9999 9995" }, "number", CARD_MESSAGES.numberBrand],
      [{ ...goodCard, number: "4242-4242-abcd-4242" }, "number", CARD_MESSAGES.number],
      [{ ...goodCard, expMonth: "13" }, "expMonth", CARD_MESSAGES.expiryMonth],
      [{ ...goodCard, expMonth: "" }, "expMonth", CARD_MESSAGES.expiryMonth],
      [{ ...goodCard, expYear: String(now.getUTCFullYear() - 1) }, "expYear", expiryYearMessage(now)],
      [{ ...goodCard, expYear: String(now.getUTCFullYear() + 20) }, "expYear", expiryYearMessage(now)],
      [{ ...goodCard, expYear: "7" }, "expYear", expiryYearMessage(now)],
      [{ ...goodCard, cvv: "12" }, "cvv", cvvMessage(3)],
      [{ ...goodCard, cvv: "1234" }, "cvv", cvvMessage(3)],
      [{ ...goodCard, number: "3782 822463 10005", cvv: "123" }, "cvv", cvvMessage(4)],
    ];
    if (now.getUTCMonth() > 0) {
      cases.push([{ ...goodCard, expMonth: String(now.getUTCMonth()), expYear: String(now.getUTCFullYear()) }, "expMonth", CARD_MESSAGES.expired]);
    }
    for (const [card, path, message] of cases) {
      const res = await tokenize(t.app, card);
      expect(res.statusCode, JSON.stringify(card)).toBe(400);
      expect(fieldsOf(res), JSON.stringify(card)).toContainEqual({ path, message });
    }
    const ok = await tokenize(t.app, { ...goodCard, number: "3782 822463 10005", cvv: "1234" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().card).toEqual({ brand: "American Express", last4: "0005", expMonth: 4, expYear: Number(`20${goodCard.expYear}`) });
  });

  it("subscribing during the trial opts in (TRIALOPTIN): no charge until the trial ends, then a monthly charge", async () => {
    const token = await signedInUser(t.app, "optin@example.com");
    const res = await subscribe(t.app, token, "group_plus");
    expect(res.statusCode, res.body).toBe(200);
    const billing = billingSchema.parse(res.json());
    expect(billing).toMatchObject({ status: "TRIALOPTIN", inTrial: true, readOnly: false, plan: { id: "group_plus" }, card: { brand: "Visa", last4: "4242" }, payments: [] });
    expect(billing.currentPeriodEnd).toBe(billing.trialEndsAt);
    // Another plan may replace it during the trial.
    const changed = await subscribe(t.app, token, "group");
    expect(billingSchema.parse(changed.json())).toMatchObject({ status: "TRIALOPTIN", plan: { id: "group" } });

    // The trial ends: the opted-in subscription's first period starts then.
    const accountId = await endTrial(t.app, t.db, token);
    const [account] = await t.db.database.db.select({ trialEndsAt: accounts.trialEndsAt }).from(accounts).where(eq(accounts.id, accountId));
    await t.db.database.db.update(billingSubscriptions).set({ currentPeriodEnd: account!.trialEndsAt }).where(eq(billingSubscriptions.accountId, accountId));
    const after = await billingOf(t.app, token);
    expect(after).toMatchObject({ status: "SUBSCRIBED", readOnly: false, inTrial: false });
    expect(after.payments.map((p) => [p.plan, p.amountMinor, p.currency])).toEqual([["group", 14_900, "USD"]]);
    // Reading again does not charge again.
    expect((await billingOf(t.app, token)).payments).toHaveLength(1);
    const again = await subscribe(t.app, token);
    expect([again.statusCode, errorOf(again).code, errorOf(again).message]).toEqual([409, "already_subscribed", billingMessages.alreadySubscribed]);
  });

  it("a lapsed trial is read-only: changes are refused with 402, reading, own settings and subscribing still work", async () => {
    const admin = await signedInUser(t.app, "lapsed@example.com");
    const member = await addMember(t.app, admin, "lapsed-member@example.com", 0);
    await endTrial(t.app, t.db, admin);
    const billing = await billingOf(t.app, admin);
    expect(billing).toMatchObject({ status: "TRIAL", inTrial: false, readOnly: true, trialDaysLeft: 0 });

    const endedOn = new Date(billing.trialEndsAt).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
    for (const [method, url, token, body] of [
      ["PUT", "/api/fxrates", member, { rates: [] }],
      ["POST", "/api/companies/parent", admin, { realmId: "9341453172384015" }],
      ["POST", "/api/obal", admin, { year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 }],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: body, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, `${method} ${url}`).toBe(402);
      expect(errorOf(res)).toMatchObject({ code: ErrorCodes.subscriptionRequired, message: SUBSCRIPTION_REQUIRED_MESSAGE(endedOn) });
    }
    // Still allowed: reading, own settings, team, onboarding bookkeeping.
    expect((await get(t.app, "/api/companies", member)).statusCode).toBe(200);
    expect((await t.app.inject({ method: "PATCH", url: "/api/excel/update", payload: { email: "r@example.com" }, headers: { authorization: `Bearer ${member}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "PATCH", url: "/api/account", payload: { onboardingStep: 1 }, headers: { authorization: `Bearer ${member}` } })).statusCode).toBe(200);
    expect((await post(t.app, "/api/team/invitations", { email: "payer@example.com" }, admin)).statusCode).toBe(201);
    // A member cannot subscribe; the admin can, and is charged for the first month at once.
    const refused = await post(t.app, "/api/billing/subscribe", { plan: "group", token: "tok_test_0123456789" }, member);
    expect(refused.statusCode).toBe(403);
    expect((await billingOf(t.app, member)).canManage).toBe(false);
    const paid = await subscribe(t.app, admin);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(billingSchema.parse(paid.json())).toMatchObject({ status: "SUBSCRIBED", readOnly: false, payments: [{ amountMinor: 14_900 }] });
    const unlocked = await t.app.inject({ method: "PUT", url: "/api/fxrates", payload: { rates: [] }, headers: { authorization: `Bearer ${member}` } });
    expect(unlocked.statusCode).not.toBe(402);
  });

  it("renews a subscription whose period ended, once per month missed", async () => {
    const token = await signedInUser(t.app, "renew@example.com");
    const accountId = await endTrial(t.app, t.db, token);
    expect((await subscribe(t.app, token)).statusCode).toBe(200);
    const threeMonthsAgo = new Date(Date.now() - 75 * 86_400_000);
    await t.db.database.db.update(billingSubscriptions).set({ currentPeriodEnd: threeMonthsAgo }).where(eq(billingSubscriptions.accountId, accountId));
    const billing = await billingOf(t.app, token);
    expect(billing.payments).toHaveLength(1 + 3);
    expect(new Date(billing.currentPeriodEnd!).getTime()).toBeGreaterThan(Date.now());
  });

  it("parses a status set outside the app case-insensitively: PAID never lapses", async () => {
    const token = await signedInUser(t.app, "invoice@example.com");
    const accountId = await endTrial(t.app, t.db, token);
    await t.db.database.db.execute(sql`update accounts set subscription_status = 'paid' where id = ${accountId}`);
    expect(await billingOf(t.app, token)).toMatchObject({ status: "PAID", readOnly: false, trialDaysLeft: null });
    const res = await t.app.inject({ method: "PUT", url: "/api/fxrates", payload: { rates: [] }, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).not.toBe(402);
  });

  it("refuses bad subscribe requests, declined cards and reused tokens in words", async () => {
    const token = await signedInUser(t.app, "bad-subscribe@example.com");
    const withCard = await post(t.app, "/api/billing/subscribe", { plan: "group", token: "tok_test_0123456789", cardNumber: "4242424242424242" }, token);
    expect(withCard.statusCode).toBe(400);
    expect(errorOf(withCard).message).toBe("Send only plan and token: card details go to the payment provider, never to this API.");
    expect(withCard.body).not.toContain("4242424242424242");
    for (const [body, path] of [
      [{ plan: "gold", token: "tok_test_0123456789" }, "plan"],
      [{ token: "tok_test_0123456789" }, "plan"],
      [{ plan: "group" }, "token"],
      [{ plan: "group", token: "4242 4242 4242 4242" }, "token"],
    ] as const) {
      const res = await post(t.app, "/api/billing/subscribe", body, token);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res).map((f) => f.path)).toContain(path);
    }
    const unknown = await post(t.app, "/api/billing/subscribe", { plan: "group", token: "tok_test_unknown0000" }, token);
    expect([unknown.statusCode, errorOf(unknown).code]).toEqual([400, "token_invalid"]);
    const declined = await subscribe(t.app, token, "group", { ...goodCard, number: TEST_CARDS.declined });
    expect([declined.statusCode, errorOf(declined).code, errorOf(declined).message]).toEqual([
      402,
      "card_declined",
      "Your card was declined. Use another card or contact your bank.",
    ]);
    expect((await billingOf(t.app, token)).status).toBe("TRIAL");
    const tokenized = (await tokenize(t.app, goodCard)).json().id;
    expect((await post(t.app, "/api/billing/subscribe", { plan: "group", token: tokenized }, token)).statusCode).toBe(200);
    // A double click (same token, same plan) is the same subscription; another plan needs the card again.
    const doubleClick = await post(t.app, "/api/billing/subscribe", { plan: "group", token: tokenized }, token);
    expect(doubleClick.statusCode).toBe(200);
    const reused = await post(t.app, "/api/billing/subscribe", { plan: "group_plus", token: tokenized }, token);
    expect([reused.statusCode, errorOf(reused).code]).toEqual([400, "token_invalid"]);
  });
});

describe.each(drivers)("the card number never reaches our logs or database on %s", (driver) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const t = useTestApp(driver, { logger: { level: "trace", stream } });

  it("after tokenizing, a refused card and a subscription, no log line and no table holds the number or the CVV", async () => {
    const { app, db } = t;
    const token = await signedInUser(app, "nolog@example.com");
    const card = { ...goodCard, number: "4242 4242 4242 4242", cvv: "987" };
    expect((await tokenize(app, { ...card, expMonth: "13" })).statusCode).toBe(400);
    expect((await post(app, "/api/billing/subscribe", { plan: "group", token: "tok_test_0123456789", number: card.number }, token)).statusCode).toBe(400);
    expect((await subscribe(app, token, "group", card)).statusCode).toBe(200);
    expect(lines.length).toBeGreaterThan(10);

    const needles = ["4242424242424242", "4242 4242 4242 4242", "4242-4242"];
    const logs = lines.join("\n");
    for (const needle of needles) expect(logs).not.toContain(needle);
    // Request bodies are never logged: not even the field names of the card form appear.
    expect(logs).not.toMatch(/cvv|expMonth/i);

    const tables = await db.database.transaction((s) =>
      s.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'"),
    );
    expect(tables.length).toBeGreaterThan(15);
    let dump = "";
    for (const { table_name } of tables) {
      const rows = await db.database.transaction((s) => s.query(`select * from "${table_name}"`));
      dump += JSON.stringify(rows);
    }
    expect(dump).toContain("nolog@example.com"); // the dump is real
    expect(dump).toContain('"card_last4":"4242"');
    for (const needle of needles) expect(dump).not.toContain(needle);
    expect(dump).not.toMatch(/cvv/i);
    const [user] = await db.database.db.select({ id: users.id }).from(users).where(eq(users.email, "nolog@example.com"));
    expect(user).toBeDefined();
  });
});
