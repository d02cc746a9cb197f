import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { intuitSignatureValid } from "./signature.ts";

const TOKEN = "verifier-token-0123456789";
const body = Buffer.from('{"eventNotifications":[{"realmId":"9341453172384015","dataChangeEvent":{"entities":[]}}]}');
const sign = (bytes: Uint8Array, token = TOKEN) => createHmac("sha256", token).update(bytes).digest("base64");

describe("intuitSignatureValid", () => {
  it("accepts the base64 HMAC-SHA256 of the exact bytes under the verifier token", () => {
    expect(intuitSignatureValid(body, sign(body), TOKEN)).toBe(true);
    expect(intuitSignatureValid(body, ` ${sign(body)} `, TOKEN)).toBe(true);
    expect(intuitSignatureValid(new Uint8Array(), sign(new Uint8Array()), TOKEN)).toBe(true);
  });

  it("refuses any other body, token or header: re-serialized JSON, another key, hex, truncated, missing, several", () => {
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1));
    expect(intuitSignatureValid(reserialized, sign(body), TOKEN)).toBe(false);
    expect(intuitSignatureValid(body, sign(body, "another-token-0123456789"), TOKEN)).toBe(false);
    expect(intuitSignatureValid(body, createHmac("sha256", TOKEN).update(body).digest("hex"), TOKEN)).toBe(false);
    expect(intuitSignatureValid(body, sign(body).slice(0, -2), TOKEN)).toBe(false);
    expect(intuitSignatureValid(body, undefined, TOKEN)).toBe(false);
    expect(intuitSignatureValid(body, "", TOKEN)).toBe(false);
    expect(intuitSignatureValid(body, [sign(body), sign(body)], TOKEN)).toBe(false);
    // Without a verifier token nothing verifies, not even a signature made with an empty key.
    expect(intuitSignatureValid(body, sign(body, ""), undefined)).toBe(false);
    expect(intuitSignatureValid(body, sign(body, ""), "")).toBe(false);
  });
});
