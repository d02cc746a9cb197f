/**
 * Webhooks as QuickBooks Online sends them (Intuit's "Webhooks" and "Configure webhooks" pages):
 * when an entity of a connected company changes, a POST to the app's endpoint with the JSON body
 * `{"eventNotifications":[{"realmId","dataChangeEvent":{"entities":[{"name","id","operation","lastUpdated"}]}}]}`
 * and the header `intuit-signature`: the base64 HMAC-SHA256 of the body's bytes keyed with the
 * app's verifier token. Intuit gathers a company's changes and sends them together, one realm ID
 * per notification ("Best practices": "Event notifications are sent one realm ID at a time"), and
 * sends a notification that was not acknowledged with a 2xx within 3 seconds again later.
 *
 * Here: a realm's changes within `windowMs` of its first change go out in one POST (the same
 * entity and operation once, with its latest time); an answer other than 2xx, a network failure
 * or no answer within `timeoutMs` is tried again after each of `retryDelaysMs`, then dropped and
 * reported to `onFailure`. Everything runs in the background, after the API call that made the
 * change has answered: nothing here can fail that call. Configuration, not state: never persisted.
 */
import { createHmac } from "node:crypto";

/** The operations Intuit's webhooks name; the emulator makes Create, Update and Delete. */
export type WebhookOperation = "Create" | "Update" | "Delete" | "Merge" | "Void";

export interface WebhookEntity {
  /** Intuit's entity name: "JournalEntry", "Account", "Customer", "Currency", ... */
  name: string;
  id: string;
  operation: WebhookOperation;
  /** The change's time as QuickBooks writes MetaData times: "2026-11-02T09:00:00-08:00". */
  lastUpdated: string;
}

export interface WebhookPayload {
  eventNotifications: { realmId: string; dataChangeEvent: { entities: WebhookEntity[] } }[];
}

export interface WebhookFailure {
  realmId: string;
  /** The body that could not be delivered. */
  body: string;
  attempts: number;
  /** The last attempt's HTTP status or network error. */
  error: string;
}

export interface WebhookSettings {
  /** The app's webhook endpoint. */
  url: string;
  /** The app's verifier token: the HMAC key of `intuit-signature`. */
  verifierToken: string;
  /** How long a realm's changes are gathered before they are sent together. Default 2000 ms. */
  windowMs?: number;
  /** Waits before each further attempt of an undelivered notification. Default 1 s, 5 s, 30 s. */
  retryDelaysMs?: readonly number[];
  /** How long an attempt waits for the answer (Intuit: 3 s). Default 3000 ms. */
  timeoutMs?: number;
  /** How to send (default the global fetch); the server's embedded emulator answers in-process. */
  fetch?: typeof fetch;
  /** Told about a notification dropped after its last attempt. */
  onFailure?: (failure: WebhookFailure) => void;
}

/** One notification as it went out, for tests and `GET /_sandbox/webhooks`. */
export interface WebhookDelivery {
  realmId: string;
  entities: WebhookEntity[];
  attempts: number;
  /** The status of the last attempt; null when it got no answer. */
  status: number | null;
  delivered: boolean;
  error?: string;
}

export const DEFAULT_WEBHOOK_WINDOW_MS = 2000;
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1000, 5000, 30_000];
const DEFAULT_TIMEOUT_MS = 3000;
/** Deliveries remembered for inspection: the latest ones. */
const DELIVERY_LOG_SIZE = 200;

/** `intuit-signature`: the base64 HMAC-SHA256 of the body's bytes, keyed with the verifier token. */
export function intuitSignature(body: string | Uint8Array, verifierToken: string): string {
  return createHmac("sha256", verifierToken).update(body).digest("base64");
}

/** The settings that say where and when, defaults filled in. */
export interface WebhookTiming {
  url: string;
  windowMs: number;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
}

function timingOf(s: WebhookSettings): WebhookTiming {
  return { url: s.url, windowMs: s.windowMs ?? DEFAULT_WEBHOOK_WINDOW_MS, retryDelaysMs: s.retryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS, timeoutMs: s.timeoutMs ?? DEFAULT_TIMEOUT_MS };
}

interface Pending {
  entities: Map<string, WebhookEntity>;
  timer: NodeJS.Timeout;
}

export class WebhookSender {
  private settings: WebhookSettings | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly log: WebhookDelivery[] = [];
  /** Bumped when the settings change or sending stops: deliveries of an older generation give up. */
  private generation = 0;

  /** Sends to this endpoint from now on; null stops sending. Changes gathered so far are dropped. */
  configure(settings: WebhookSettings | null): void {
    this.cancel();
    this.settings = settings;
  }

  /** Where notifications go and how, without the verifier token; null when off. */
  get current(): WebhookTiming | null {
    return this.settings === null ? null : timingOf(this.settings);
  }

  /** The latest notifications sent (oldest first). */
  deliveries(): WebhookDelivery[] {
    return this.log.map((d) => ({ ...d, entities: [...d.entities] }));
  }

  /** Notes a change; it goes out with the realm's others once the window closes. A no-op while off. */
  record(realmId: string, entity: WebhookEntity): void {
    const current = this.current;
    if (current === null) return;
    let batch = this.pending.get(realmId);
    if (batch === undefined) {
      const timer = setTimeout(() => this.send(realmId), current.windowMs);
      timer.unref();
      this.pending.set(realmId, (batch = { entities: new Map(), timer }));
    }
    const key = `${entity.name}:${entity.id}:${entity.operation}`;
    // The same entity and operation again within the window: once, with the latest time.
    batch.entities.delete(key);
    batch.entities.set(key, entity);
  }

  /** Sends every gathered change now and waits until every delivery (retries included) has ended. */
  async flush(): Promise<void> {
    for (const realmId of [...this.pending.keys()]) this.send(realmId);
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Drops gathered changes and gives up deliveries under way (shutdown, reset). The settings stay. */
  cancel(): void {
    this.generation++;
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private send(realmId: string): void {
    const batch = this.pending.get(realmId);
    const settings = this.settings;
    if (batch === undefined || settings === null) return;
    clearTimeout(batch.timer);
    this.pending.delete(realmId);
    const entities = [...batch.entities.values()];
    const delivery = this.deliver(settings, realmId, entities).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  private async deliver(settings: WebhookSettings, realmId: string, entities: WebhookEntity[]): Promise<void> {
    const generation = this.generation;
    const { retryDelaysMs, timeoutMs } = timingOf(settings);
    const payload: WebhookPayload = { eventNotifications: [{ realmId, dataChangeEvent: { entities } }] };
    const body = JSON.stringify(payload);
    const headers = { "content-type": "application/json", "intuit-signature": intuitSignature(body, settings.verifierToken) };
    const record: WebhookDelivery = { realmId, entities, attempts: 0, status: null, delivered: false };
    this.remember(record);
    const post = settings.fetch ?? globalThis.fetch;
    for (let attempt = 0; ; attempt++) {
      record.attempts = attempt + 1;
      try {
        const res = await post(settings.url, { method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs) });
        record.status = res.status;
        // The answer's body is not read further: Intuit only looks at the status.
        await res.body?.cancel().catch(() => undefined);
        if (res.ok) {
          record.delivered = true;
          delete record.error;
          return;
        }
        record.error = `HTTP ${res.status}`;
      } catch (err) {
        record.status = null;
        record.error = err instanceof Error ? err.message : String(err);
      }
      const wait = retryDelaysMs[attempt];
      if (wait === undefined || generation !== this.generation) break;
      await new Promise<void>((resolve) => setTimeout(resolve, wait).unref());
      if (generation !== this.generation) break;
    }
    try {
      settings.onFailure?.({ realmId, body, attempts: record.attempts, error: record.error ?? "not delivered" });
    } catch {
      // A listener's failure is not the emulator's.
    }
  }

  private remember(delivery: WebhookDelivery): void {
    this.log.push(delivery);
    if (this.log.length > DELIVERY_LOG_SIZE) this.log.splice(0, this.log.length - DELIVERY_LOG_SIZE);
  }
}
