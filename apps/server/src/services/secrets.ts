import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";

/**
 * AES-256-GCM for secrets at rest (QBO tokens). The key is derived from APP_SECRET per purpose,
 * so the session-signing key and the encryption key are never the same bytes.
 */
export class SecretBox {
  private readonly key: Buffer;
  constructor(appSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync("sha256", appSecret, "groupledger", `secret-box:${purpose}`, 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
  }

  /** Throws when the value was not sealed with this key or was altered. */
  open(sealed: string): string {
    const [version, payload] = sealed.split(":");
    if (version !== VERSION || !payload) throw new Error("unknown sealed-secret format");
    const raw = Buffer.from(payload, "base64url");
    if (raw.length < 28) throw new Error("sealed secret is truncated");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }
}
