import { z } from "zod";
import { GET } from "./endpoint.ts";

export const healthSchema = z.object({
  status: z.literal("ok"),
  database: z.enum(["pglite", "postgres"]),
  version: z.string(),
});

export const mailboxQuerySchema = z.object({
  to: z.string().trim().toLowerCase().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const mailboxSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() })),
      status: z.string(),
      createdAt: z.string(),
    }),
  ),
});

export const publicConfigSchema = z.object({
  /** SPEC §9: 900000 ms; shorter only in test deployments. */
  idleTimeoutMs: z.number().int().positive(),
  devMailbox: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getHealth = GET("/health", { 200: healthSchema });
/** Registered only outside production and without SMTP_URL (ARCHITECTURE.md, Mail). */
export const getDevMailbox = GET("/dev/mailbox", { 200: mailboxSchema }, { query: mailboxQuerySchema });
export const getPublicConfig = GET("/config", { 200: publicConfigSchema });
