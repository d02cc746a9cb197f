import { desc, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client.ts";
import { outboxMail } from "../db/schema.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

export interface Transport {
  readonly kind: "smtp" | "log";
  send(from: string, mail: Mail): Promise<void>;
}

export function smtpTransport(url: string): Transport {
  const transporter = nodemailer.createTransport(url);
  return {
    kind: "smtp",
    send: async (from, mail) => {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, attachments: mail.attachments ?? [] });
    },
  };
}

/** Without SMTP the mail goes to the log (and stays in the outbox for the dev mailbox). */
export function logTransport(log: FastifyBaseLogger): Transport {
  return {
    kind: "log",
    send: async (_from, mail) => {
      const attached = (mail.attachments ?? []).map((a) => `${a.filename} (${a.content.length} bytes)`);
      log.info({ mailTo: mail.to, subject: mail.subject, attachments: attached }, `mail (no SMTP_URL set):\n${mail.text}`);
    },
  };
}

export interface PreparedMail {
  /** Its outbox row. */
  id: string;
  mail: Mail;
}

/**
 * Every mail is written to the outbox first (inside the caller's transaction when given), then
 * delivered. A failed delivery is kept with its error rather than lost.
 */
export class Mailer {
  /** Mail work handed to `later` that has not finished yet. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly transport: Transport,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async enqueue(mail: Mail, tx: Db = this.db): Promise<string> {
    const [row] = await tx
      .insert(outboxMail)
      .values({
        toAddress: mail.to,
        subject: mail.subject,
        textBody: mail.text,
        attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.length })),
      })
      .returning({ id: outboxMail.id });
    if (!row) throw new Error("outbox insert returned no row");
    return row.id;
  }

  async deliver(id: string, mail: Mail): Promise<void> {
    try {
      await this.transport.send(this.from, mail);
      await this.db
        .update(outboxMail)
        .set({ status: this.transport.kind === "smtp" ? "sent" : "logged", sentAt: new Date(), attempts: 1 })
        .where(eq(outboxMail.id, id));
    } catch (err) {
      this.log.error({ err, mailId: id }, "mail delivery failed; kept in outbox");
      await this.db
        .update(outboxMail)
        .set({ status: "failed", attempts: 1, lastError: err instanceof Error ? err.message : String(err) })
        .where(eq(outboxMail.id, id));
    }
  }

  /**
   * Prepares (`prepare` looks the account up and writes the code and the outbox row, or returns null
   * when there is nothing to send) and delivers a mail in the background, starting on a later turn
   * of the event loop than the caller's. With `afterResponse` (http/after-response.ts) it runs after
   * the request has been answered: for requests whose answer must not tell whether an account
   * exists. A failure is logged; the caller has already answered.
   */
  later(what: string, prepare: () => Promise<PreparedMail | null>): void {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(prepare)
      .then((prepared) => (prepared ? this.deliver(prepared.id, prepared.mail) : undefined))
      .catch((err: unknown) => this.log.error({ err }, `${what} could not be prepared`))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Resolves once every mail handed to `later` so far is in the outbox and delivered (or failed). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** The outbox, newest first, including mails still being prepared by `later`. */
  async recent(to: string | undefined, limit: number) {
    await this.settled();
    const q = this.db.select().from(outboxMail);
    return (to ? q.where(eq(outboxMail.toAddress, to)) : q).orderBy(desc(outboxMail.createdAt)).limit(limit);
  }
}
