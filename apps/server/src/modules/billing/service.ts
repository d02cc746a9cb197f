import { createHash } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { isAdmin, planById, PLANS, subscriptionAccess, TRIAL_DAYS, type Billing, type Plan, type PlanId } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { accounts, billingPayments, billingSubscriptions } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit, type RequestMeta } from "../../services/audit.ts";
import { PaymentProviderError, type PaymentProvider, type ProviderPayment } from "./provider.ts";

export const billingMessages = {
  alreadySubscribed: "Your account already has an active subscription. To change your plan or card, contact support.",
  unavailable: "Card payments are not set up on this server. Contact support to subscribe.",
};

/** Renewals caught up in one read at most; a longer gap means the provider's state needs a look. */
const MAX_RENEWALS_PER_READ = 24;

type SubscriptionRow = typeof billingSubscriptions.$inferSelect;

export class BillingService {
  constructor(
    private readonly db: Db,
    /** Null when no provider may be used here (production without a real provider's adapter). */
    private readonly provider: PaymentProvider | null,
  ) {}

  async view(user: UserRow, origin: string, now = new Date()): Promise<Billing> {
    await this.catchUp(user.accountId, now);
    const [account] = await this.db.select().from(accounts).where(eq(accounts.id, user.accountId)).limit(1);
    if (!account) throw errors.notFound("Account not found.");
    const [subscription] = await this.db.select().from(billingSubscriptions).where(eq(billingSubscriptions.accountId, user.accountId)).limit(1);
    const payments = await this.db
      .select()
      .from(billingPayments)
      .where(eq(billingPayments.accountId, user.accountId))
      .orderBy(desc(billingPayments.createdAt))
      .limit(24);
    const access = subscriptionAccess(account.subscriptionStatus, account.trialEndsAt, now);
    return {
      status: access.status,
      trialDays: TRIAL_DAYS,
      trialEndsAt: account.trialEndsAt.toISOString(),
      trialDaysLeft: access.trialDaysLeft,
      inTrial: access.inTrial,
      readOnly: access.readOnly,
      plan: subscription ? (planById(subscription.plan) ?? null) : null,
      card: subscription
        ? { brand: subscription.cardBrand, last4: subscription.cardLast4, expMonth: subscription.cardExpMonth, expYear: subscription.cardExpYear }
        : null,
      currentPeriodEnd: subscription?.currentPeriodEnd.toISOString() ?? null,
      plans: [...PLANS],
      provider: this.provider?.clientConfig(origin) ?? null,
      payments: payments.map((p) => ({
        id: p.id,
        plan: p.plan,
        amountMinor: p.amountMinor,
        currency: p.currency,
        periodStart: p.periodStart.toISOString(),
        periodEnd: p.periodEnd.toISOString(),
        createdAt: p.createdAt.toISOString(),
      })),
      canManage: isAdmin(user),
    };
  }

  /**
   * Subscribe with a provider token. During the trial the status becomes TRIALOPTIN and the first
   * charge falls when the trial ends (a new plan or card may replace it until then); after the
   * trial the first month is charged now and the status becomes SUBSCRIBED.
   */
  async subscribe(user: UserRow, input: { plan: PlanId; token: string }, meta: RequestMeta, now = new Date()): Promise<void> {
    if (!this.provider) throw new AppError(503, "billing_unavailable", billingMessages.unavailable);
    const plan = planById(input.plan);
    if (!plan) throw errors.badRequest("validation_failed", "Choose a plan.");
    const [account] = await this.db.select().from(accounts).where(eq(accounts.id, user.accountId)).limit(1);
    if (!account) throw errors.notFound("Account not found.");
    const access = subscriptionAccess(account.subscriptionStatus, account.trialEndsAt, now);
    if (access.status === "SUBSCRIBED" || access.status === "PAID" || (access.status === "TRIALOPTIN" && !access.inTrial)) {
      throw errors.conflict("already_subscribed", billingMessages.alreadySubscribed);
    }
    const [previous] = await this.db.select().from(billingSubscriptions).where(eq(billingSubscriptions.accountId, user.accountId)).limit(1);
    const trialEnd = access.inTrial ? account.trialEndsAt : null;
    let started;
    try {
      started = await this.provider.subscribe({
        token: input.token,
        accountId: user.accountId,
        customerEmail: user.email,
        plan,
        trialEnd,
        idempotencyKey: createHash("sha256").update(`${user.accountId}:${plan.id}:${input.token}`).digest("hex"),
      });
    } catch (err) {
      if (err instanceof PaymentProviderError) {
        if (err.code === "card_declined") throw new AppError(402, err.code, err.message);
        if (err.code === "token_invalid") throw errors.badRequest(err.code, err.message);
        throw new AppError(503, err.code, err.message);
      }
      throw err;
    }
    const status = trialEnd ? ("TRIALOPTIN" as const) : ("SUBSCRIBED" as const);
    await this.db.transaction(async (tx) => {
      const values = {
        plan: plan.id,
        provider: this.provider!.kind,
        providerCustomerId: started.customerId,
        providerSubscriptionId: started.subscriptionId,
        cardBrand: started.card.brand,
        cardLast4: started.card.last4,
        cardExpMonth: started.card.expMonth,
        cardExpYear: started.card.expYear,
        currentPeriodEnd: started.currentPeriodEnd,
        canceledAt: null,
        updatedBy: user.id,
        updatedAt: now,
      };
      await tx
        .insert(billingSubscriptions)
        .values({ accountId: user.accountId, ...values })
        .onConflictDoUpdate({ target: billingSubscriptions.accountId, set: values });
      await tx.update(accounts).set({ subscriptionStatus: status, updatedAt: now }).where(eq(accounts.id, user.accountId));
      if (started.payment) await this.recordPayment(tx, user.accountId, plan, started.payment);
      await audit(tx, {
        action: "billing.subscribed",
        accountId: user.accountId,
        userId: user.id,
        details: { plan: plan.id, status, card: `${started.card.brand} ending ${started.card.last4}` },
        ...meta,
      });
    });
    // The replaced subscription (another plan or card chosen during the trial) never charged: stop it.
    if (previous && previous.providerSubscriptionId !== started.subscriptionId) {
      await this.provider.cancel(previous.providerSubscriptionId).catch(() => undefined);
    }
  }

  /**
   * The provider charges when a trial ends and every month after; bring our record up to date
   * with those charges (a real provider's adapter learns them from its webhooks instead).
   */
  private async catchUp(accountId: string, now: Date): Promise<void> {
    if (!this.provider) return;
    const [row] = await this.db
      .select({ subscription: billingSubscriptions, status: accounts.subscriptionStatus })
      .from(billingSubscriptions)
      .innerJoin(accounts, eq(accounts.id, billingSubscriptions.accountId))
      .where(eq(billingSubscriptions.accountId, accountId))
      .limit(1);
    if (!row || row.subscription.canceledAt || row.subscription.currentPeriodEnd > now) return;
    if (row.status !== "TRIALOPTIN" && row.status !== "SUBSCRIBED") return;
    const plan = planById(row.subscription.plan);
    if (!plan) return;
    const charges: ProviderPayment[] = [];
    let periodEnd = row.subscription.currentPeriodEnd;
    while (periodEnd <= now && charges.length < MAX_RENEWALS_PER_READ) {
      const payment = await this.provider.renew({ subscriptionId: row.subscription.providerSubscriptionId, plan, periodStart: periodEnd });
      charges.push(payment);
      periodEnd = payment.periodEnd;
    }
    await this.db.transaction(async (tx) => {
      for (const payment of charges) await this.recordPayment(tx, accountId, plan, payment);
      await tx.update(billingSubscriptions).set({ currentPeriodEnd: periodEnd, updatedAt: now }).where(eq(billingSubscriptions.accountId, accountId));
      await tx.update(accounts).set({ subscriptionStatus: "SUBSCRIBED", updatedAt: now }).where(eq(accounts.id, accountId));
    });
  }

  private async recordPayment(tx: Db, accountId: string, plan: Plan, payment: ProviderPayment): Promise<void> {
    await tx
      .insert(billingPayments)
      .values({
        accountId,
        provider: this.provider!.kind,
        providerPaymentId: payment.id,
        plan: plan.id,
        amountMinor: payment.amountMinor,
        currency: payment.currency,
        periodStart: payment.periodStart,
        periodEnd: payment.periodEnd,
      })
      .onConflictDoNothing();
  }
}

export type { SubscriptionRow };
