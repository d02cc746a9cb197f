/** `_sandbox` administration: reset, fault settings, validation rules and webhooks (validated), the company list. */
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { Sandbox } from "../sandbox.ts";

const probability = z.number().min(0).max(1);

export const faultSettingsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    rate429: probability.optional(),
    rate5xx: probability.optional(),
    dropRate: probability.optional(),
    expireAccessTokens: z.boolean().optional(),
    seed: z.number().int().optional(),
  })
  .strict();

export const ruleSettingsSchema = z
  .object({
    requireNamesOnReceivablesAndPayables: z.boolean().optional(),
  })
  .strict();

/** Where the emulator sends its webhooks (webhooks.ts); the verifier token is written, never read back. */
export const webhookSettingsSchema = z
  .object({
    url: z.string().url(),
    verifierToken: z.string().min(1).max(500),
    windowMs: z.number().int().min(0).max(3_600_000).optional(),
    retryDelaysMs: z.array(z.number().int().min(0).max(3_600_000)).max(10).optional(),
    timeoutMs: z.number().int().min(1).max(60_000).optional(),
  })
  .strict();

/** A 400 naming each invalid field of an admin settings body. */
function invalid(reply: FastifyReply, code: string, what: string, error: z.ZodError) {
  const details = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const message = `Invalid ${what}: ${details.map((d) => (d.path === "" ? d.message : `${d.path}: ${d.message}`)).join("; ")}`;
  return reply.code(400).send({ error: { code, message, details } });
}

export function registerAdminRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  app.post("/_sandbox/reset", async () => {
    sandbox.reset();
    return { reset: true, companies: sandbox.companies() };
  });

  app.get("/_sandbox/faults", async () => sandbox.faults.current);

  app.put("/_sandbox/faults", async (request, reply) => {
    const parsed = faultSettingsSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, "invalid_fault_settings", "fault settings", parsed.error);
    sandbox.setFaults(parsed.data);
    return sandbox.faults.current;
  });

  app.get("/_sandbox/rules", async () => sandbox.rules);

  // Like the fault settings: the body replaces the rules; a rule left out is back to QBO's behaviour (on).
  app.put("/_sandbox/rules", async (request, reply) => {
    const parsed = ruleSettingsSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, "invalid_rule_settings", "rule settings", parsed.error);
    sandbox.setRules(parsed.data);
    return sandbox.rules;
  });

  const webhookView = () => ({ settings: sandbox.webhooks.current, deliveries: sandbox.webhooks.deliveries() });

  app.get("/_sandbox/webhooks", async () => webhookView());

  // The body replaces the webhook settings; DELETE switches them off.
  app.put("/_sandbox/webhooks", async (request, reply) => {
    const parsed = webhookSettingsSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, "invalid_webhook_settings", "webhook settings", parsed.error);
    sandbox.webhooks.configure(parsed.data);
    return webhookView();
  });

  app.delete("/_sandbox/webhooks", async () => {
    sandbox.webhooks.configure(null);
    return webhookView();
  });

  // Sends what is gathered now and answers once every delivery has ended (tests).
  app.post("/_sandbox/webhooks/flush", async () => {
    await sandbox.webhooks.flush();
    return webhookView();
  });

  app.get("/_sandbox/companies", async () => sandbox.companies());
}
