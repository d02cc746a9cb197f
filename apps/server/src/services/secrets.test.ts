import { describe, expect, it } from "vitest";
import { SecretBox } from "./secrets.ts";

describe("SecretBox", () => {
  const box = new SecretBox("an-app-secret-that-is-long-enough-0123456789", "qbo-tokens");

  it("opens what it sealed, with a fresh nonce each time", () => {
    const a = box.seal("refresh-token-ABC");
    const b = box.seal("refresh-token-ABC");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(a).not.toContain("refresh-token");
    expect(box.open(a)).toBe("refresh-token-ABC");
    expect(box.open(box.seal(""))).toBe("");
    expect(box.open(box.seal("ünïcødé 🙂"))).toBe("ünïcødé 🙂");
  });

  it("refuses altered, truncated, foreign or unknown-format values", () => {
    const sealed = box.seal("secret");
    const raw = Buffer.from(sealed.slice(3), "base64url");
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => box.open(`v1:${raw.toString("base64url")}`)).toThrow();
    expect(() => box.open("v1:AAAA")).toThrow(/truncated/);
    expect(() => box.open("v2:" + sealed.slice(3))).toThrow(/format/);
    expect(() => new SecretBox("another-app-secret-also-long-enough-000", "qbo-tokens").open(sealed)).toThrow();
    expect(() => new SecretBox("an-app-secret-that-is-long-enough-0123456789", "other-purpose").open(sealed)).toThrow();
  });
});
