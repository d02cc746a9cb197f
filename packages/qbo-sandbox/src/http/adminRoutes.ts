/** `_sandbox` administration: reset, fault settings and validation rules (validated), the company list. */
import type { FastifyInstance } from "fastify";
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

export function registerAdminRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  app.post("/_sandbox/reset", async () => {
    sandbox.reset();
    return { reset: true, companies: sandbox.companies() };
  });

  app.get("/_sandbox/faults", async () => sandbox.faults.current);

  app.put("/_sandbox/faults", async (request, reply) => {
    const parsed = faultSettingsSchema.safeParse(request.body);
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
      const message = `Invalid fault settings: ${details.map((d) => (d.path === "" ? d.message : `${d.path}: ${d.message}`)).join("; ")}`;
      return reply.code(400).send({ error: { code: "invalid_fault_settings", message, details } });
    }
    sandbox.setFaults(parsed.data);
    return sandbox.faults.current;
  });

  app.get("/_sandbox/rules", async () => sandbox.rules);

  // Like the fault settings: the body replaces the rules; a rule left out is back to QBO's behaviour (on).
  app.put("/_sandbox/rules", async (request, reply) => {
    const parsed = ruleSettingsSchema.safeParse(request.body);
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
      const message = `Invalid rule settings: ${details.map((d) => (d.path === "" ? d.message : `${d.path}: ${d.message}`)).join("; ")}`;
      return reply.code(400).send({ error: { code: "invalid_rule_settings", message, details } });
    }
    sandbox.setRules(parsed.data);
    return sandbox.rules;
  });

  app.get("/_sandbox/companies", async () => sandbox.companies());
}
