import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Whether `header` (QuickBooks' `intuit-signature`) is the base64 HMAC-SHA256 of exactly these
 * bytes keyed with the app's verifier token (Intuit's "Configure webhooks"), compared in constant
 * time. No token, no header, or one of another length is never a match.
 */
export function intuitSignatureValid(body: Uint8Array, header: unknown, verifierToken: string | undefined): boolean {
  if (!verifierToken || typeof header !== "string") return false;
  const expected = Buffer.from(createHmac("sha256", verifierToken).update(body).digest("base64"));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
