/** Intuit's webhooks from the emulator: what changes send, the payload and its signature, batching, retries. */
import { createHmac } from "node:crypto";
import Fastify from "fastify";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { harness, testClock } from "../testing/harness.ts";
import type { WebhookFailure, WebhookPayload, WebhookSettings } from "../webhooks.ts";

const TOKEN = "verifier-token-from-the-developer-dashboard";
const URL_ = "https://app.example/api/qbo/webhooks";

interface Received {
  url: string;
  body: string;
  signature: string | null;
  contentType: string | null;
  payload: WebhookPayload;
}

/** A fetch standing in for the app's endpoint: records each request and answers `statuses` in turn (then 200). */
function receiver(statuses: (number | "network")[] = []) {
  const received: Received[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = await request.text();
    const next = statuses.shift();
    if (next === "network") throw new TypeError("fetch failed: connection refused");
    received.push({ url: request.url, body, signature: request.headers.get("intuit-signature"), contentType: request.headers.get("content-type"), payload: JSON.parse(body) });
    return new Response("", { status: next ?? 200 });
  };
  return { received, fetch };
}

const expectedSignature = (body: string, token = TOKEN) => createHmac("sha256", token).update(body, "utf8").digest("base64");

/** Account 6 is the parent's A/R (customer 5 on its lines); account 1 its bank. */
function entry(amount: number, extra: Record<string, unknown> = {}) {
  return {
    TxnDate: "2026-10-20",
    Line: [
      { DetailType: "JournalEntryLineDetail", Amount: amount, JournalEntryLineDetail: { PostingType: "Debit", Entity: { Type: "Customer", EntityRef: { value: "5" } }, AccountRef: { value: "6" } } },
      { DetailType: "JournalEntryLineDetail", Amount: amount, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "1" } } },
    ],
    ...extra,
  };
}

let h: Harness;
afterEach(async () => {
  h.sandbox.webhooks.cancel();
  await h.app.close();
});

async function session(webhooks: Partial<WebhookSettings> & Pick<WebhookSettings, "fetch">) {
  const clock = testClock();
  h = await harness({ now: clock.now, webhooks: { url: URL_, verifierToken: TOKEN, windowMs: 60_000, retryDelaysMs: [1, 1, 1], ...webhooks } });
  const realm = h.realms[0] as string;
  return { realm, token: (await h.tokens(realm)).access_token, clock };
}

describe("webhooks", () => {
  it("posts Intuit's payload for a journal entry's create, update and delete, signed with the verifier token over the exact body", async () => {
    const { received, fetch } = receiver();
    const { realm, token } = await session({ fetch });
    const created = (await h.post(realm, "journalentry", token, entry(100))).json().JournalEntry as { Id: string; SyncToken: string };
    const updated = (await h.post(realm, "journalentry", token, { ...entry(120), Id: created.Id, SyncToken: created.SyncToken })).json().JournalEntry as { SyncToken: string };
    expect(received).toEqual([]); // gathered over the window, not sent per call
    await h.sandbox.webhooks.flush();
    const deleted = await h.post(realm, "journalentry?operation=delete", token, { Id: created.Id, SyncToken: updated.SyncToken });
    expect(deleted.statusCode).toBe(200);
    await h.sandbox.webhooks.flush();

    expect(received).toHaveLength(2);
    for (const r of received) {
      expect(r.url).toBe(URL_);
      expect(r.contentType).toBe("application/json");
      expect(r.signature).toBe(expectedSignature(r.body));
    }
    const [first, second] = received.map((r) => r.payload);
    expect(first).toEqual({
      eventNotifications: [
        {
          realmId: realm,
          dataChangeEvent: {
            entities: [
              { name: "JournalEntry", id: created.Id, operation: "Create", lastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[78]:00$/) },
              { name: "JournalEntry", id: created.Id, operation: "Update", lastUpdated: expect.any(String) },
            ],
          },
        },
      ],
    });
    expect(second!.eventNotifications[0]!.dataChangeEvent.entities).toEqual([{ name: "JournalEntry", id: created.Id, operation: "Delete", lastUpdated: expect.any(String) }]);
    expect(h.sandbox.webhooks.deliveries().map((d) => [d.delivered, d.attempts])).toEqual([
      [true, 1],
      [true, 1],
    ]);
  });

  it("sends bills and their deletes under Intuit's entity names, from the entity endpoints and from batch items alike", async () => {
    const { received, fetch } = receiver();
    const { realm, token } = await session({ fetch });
    // The demo parent: vendor 6, expense account 68.
    const bill = (await h.post(realm, "bill", token, { VendorRef: { value: "6" }, Line: [{ DetailType: "AccountBasedExpenseLineDetail", Amount: 200, AccountBasedExpenseLineDetail: { AccountRef: { value: "68" } } }] })).json().Bill as { Id: string; SyncToken: string };
    const batch = await h.post(realm, "batch", token, {
      BatchItemRequest: [
        { bId: "1", operation: "delete", Bill: { Id: bill.Id, SyncToken: bill.SyncToken } },
        { bId: "2", operation: "create", Class: { Name: "Webhook batch class" } },
      ],
    });
    expect(batch.statusCode).toBe(200);
    await h.sandbox.webhooks.flush();
    expect(received).toHaveLength(1);
    expect(received[0]!.payload.eventNotifications[0]!.dataChangeEvent.entities.map((e) => `${e.name} ${e.operation}`)).toEqual(["Bill Create", "Bill Delete", "Class Create"]);
  });

  it("sends account creates and updates, but not an update that changed nothing, nor a refused write", async () => {
    const { received, fetch } = receiver();
    const { realm, token } = await session({ fetch });
    const made = (await h.post(realm, "account", token, { Name: "Webhook test expenses", AccountType: "Expense" })).json().Account as { Id: string; SyncToken: string; Name: string };
    const same = await h.post(realm, "account", token, { Id: made.Id, SyncToken: made.SyncToken, Name: made.Name, AccountType: "Expense", sparse: true });
    expect(same.json().Account.SyncToken).toBe(made.SyncToken);
    await h.sandbox.webhooks.flush();
    expect(received.map((r) => r.payload.eventNotifications[0]!.dataChangeEvent.entities.map((e) => `${e.name} ${e.id} ${e.operation}`))).toEqual([[`Account ${made.Id} Create`]]);

    const renamed = await h.post(realm, "account", token, { Id: made.Id, SyncToken: made.SyncToken, Name: "Webhook test costs", sparse: true });
    expect(renamed.statusCode).toBe(200);
    const refused = await h.post(realm, "journalentry", token, entry(5, { Line: [] }));
    expect(refused.statusCode).toBe(400);
    await h.sandbox.webhooks.flush();
    expect(received.map((r) => r.payload.eventNotifications[0]!.dataChangeEvent.entities.map((e) => `${e.name} ${e.id} ${e.operation}`))).toEqual([
      [`Account ${made.Id} Create`],
      [`Account ${made.Id} Update`],
    ]);
  });

  it("gathers a realm's changes over the window into one notification per realm, and sends each company's apart", async () => {
    const { received, fetch } = receiver();
    const clock = testClock();
    h = await harness({ now: clock.now, webhooks: { url: URL_, verifierToken: TOKEN, windowMs: 40, fetch } });
    const [a, b] = h.realms as [string, string];
    const [ta, tb] = [(await h.tokens(a)).access_token, (await h.tokens(b)).access_token];
    await h.post(a, "class", ta, { Name: "Webhook A1" });
    await h.post(a, "class", ta, { Name: "Webhook A2" });
    await h.post(b, "class", tb, { Name: "Webhook B1" });
    // Nothing goes out before the window closes; then one POST per realm, without a flush.
    expect(received).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await h.sandbox.webhooks.flush();
    const byRealm = Object.fromEntries(received.map((r) => [r.payload.eventNotifications[0]!.realmId, r.payload.eventNotifications[0]!.dataChangeEvent.entities.map((e) => e.name)]));
    expect(received).toHaveLength(2);
    expect(byRealm).toEqual({ [a]: ["Class", "Class"], [b]: ["Class"] });
    for (const r of received) expect(r.payload.eventNotifications).toHaveLength(1);
  });

  it("tries an undelivered notification again, then reports it; the API call that made the change never fails", async () => {
    const failures: WebhookFailure[] = [];
    const { received, fetch } = receiver(["network", 500, 503]);
    const { realm, token } = await session({ fetch, retryDelaysMs: [1, 1], onFailure: (f) => failures.push(f) });
    const res = await h.post(realm, "class", token, { Name: "Webhook retry" });
    expect(res.statusCode).toBe(200);
    await h.sandbox.webhooks.flush();
    // Three attempts (network error, 500, 503): no more delays left, so it is dropped and reported.
    expect(received.map((r) => r.payload.eventNotifications[0]!.dataChangeEvent.entities[0]!.name)).toEqual(["Class", "Class"]);
    expect(failures).toEqual([{ realmId: realm, body: received[0]!.body, attempts: 3, error: "HTTP 503" }]);
    expect(h.sandbox.webhooks.deliveries()).toMatchObject([{ realmId: realm, attempts: 3, delivered: false, status: 503 }]);

    // A receiver that answers after one failure gets it on the second attempt.
    const again = receiver([500]);
    h.sandbox.webhooks.configure({ url: URL_, verifierToken: TOKEN, windowMs: 60_000, retryDelaysMs: [1, 1], fetch: again.fetch });
    await h.post(realm, "class", token, { Name: "Webhook retry 2" });
    await h.sandbox.webhooks.flush();
    expect(again.received).toHaveLength(2);
    expect(h.sandbox.webhooks.deliveries().at(-1)).toMatchObject({ attempts: 2, delivered: true, status: 200 });
  });

  it("a fetch that throws at once, or a receiver that never answers, leaves the API call unharmed", async () => {
    const throwing: typeof fetch = () => {
      throw new Error("synchronous failure");
    };
    const { realm, token } = await session({ fetch: throwing, retryDelaysMs: [] });
    expect((await h.post(realm, "class", token, { Name: "Webhook throws" })).statusCode).toBe(200);
    await h.sandbox.webhooks.flush();
    expect(h.sandbox.webhooks.deliveries()).toMatchObject([{ delivered: false, error: "synchronous failure" }]);

    const silent: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(new Error("timed out waiting for the answer"))));
    h.sandbox.webhooks.configure({ url: URL_, verifierToken: TOKEN, windowMs: 60_000, retryDelaysMs: [], timeoutMs: 20, fetch: silent });
    expect((await h.post(realm, "class", token, { Name: "Webhook silent" })).statusCode).toBe(200);
    await h.sandbox.webhooks.flush();
    expect(h.sandbox.webhooks.deliveries().at(-1)).toMatchObject({ delivered: false, status: null, error: "timed out waiting for the answer" });
  });

  it("off by default; configured, read and switched off through the _sandbox admin routes, sending over real HTTP", async () => {
    h = await harness({ now: testClock().now });
    const realm = h.realms[0] as string;
    const token = (await h.tokens(realm)).access_token;
    await h.post(realm, "class", token, { Name: "Webhook nobody hears" });
    await h.sandbox.webhooks.flush();
    expect(h.sandbox.webhooks.deliveries()).toEqual([]);

    const app = Fastify({ logger: false });
    const bodies: { body: string; signature: unknown }[] = [];
    app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => done(null, body));
    app.post("/hook", async (req) => {
      bodies.push({ body: req.body as string, signature: req.headers["intuit-signature"] });
      return {};
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/hook`;
      const bad = await h.app.inject({ method: "PUT", url: "/_sandbox/webhooks", payload: { url: "not a url", verifierToken: "" } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe("invalid_webhook_settings");
      const put = await h.app.inject({ method: "PUT", url: "/_sandbox/webhooks", payload: { url, verifierToken: "admin-token", windowMs: 60_000 } });
      expect(put.statusCode).toBe(200);
      expect(put.json().settings).toEqual({ url, windowMs: 60_000, retryDelaysMs: [1000, 5000, 30_000], timeoutMs: 3000 });
      expect(put.body).not.toContain("admin-token");
      await h.post(realm, "class", token, { Name: "Webhook over HTTP" });
      const flushed = await h.app.inject({ method: "POST", url: "/_sandbox/webhooks/flush" });
      expect(flushed.json().deliveries).toMatchObject([{ realmId: realm, delivered: true, status: 200 }]);
      expect(bodies).toHaveLength(1);
      expect(bodies[0]!.signature).toBe(expectedSignature(bodies[0]!.body, "admin-token"));
      expect((await h.app.inject({ method: "DELETE", url: "/_sandbox/webhooks" })).json().settings).toBeNull();
    } finally {
      await app.close();
    }
  });
});
