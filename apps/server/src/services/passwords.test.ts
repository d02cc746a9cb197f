import { describe, expect, it } from "vitest";
import { hashPassword, timingDummyHash, verifyPassword } from "./passwords.ts";

describe("password hashes", () => {
  it("are argon2id at OWASP's minimum (19 MiB, two passes, one lane), salted: the same password hashes differently each time", async () => {
    const a = await hashPassword("Tangerine-Piano-42!");
    const b = await hashPassword("Tangerine-Piano-42!");
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("Tangerine");
  });

  it("verify the password they were made from and nothing else", async () => {
    const stored = await hashPassword("Tangerine-Piano-42!");
    expect(await verifyPassword(stored, "Tangerine-Piano-42!")).toBe(true);
    expect(await verifyPassword(stored, "tangerine-piano-42!")).toBe(false);
    expect(await verifyPassword(stored, "")).toBe(false);
  });

  it("a stored value that is no hash verifies nothing, without throwing", async () => {
    expect(await verifyPassword("not a hash", "anything")).toBe(false);
    expect(await verifyPassword("", "")).toBe(false);
  });

  it("the dummy hash for unknown emails is made once and matches no one's password", async () => {
    expect(timingDummyHash()).toBe(timingDummyHash());
    const dummy = await timingDummyHash();
    expect(dummy).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(dummy, "Tangerine-Piano-42!")).toBe(false);
  });
});
