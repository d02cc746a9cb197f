import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { acceptedEncoding, keptJson, matches } from "./kept-json.ts";

describe("keptJson", () => {
  it("makes the bytes and a strong ETag of them once per owner; another owner's text has its own", () => {
    const owner = { body: '{"total":"£1"}' };
    const k = keptJson(owner, owner.body);
    expect(k.bytes.toString("utf8")).toBe(owner.body);
    expect(k.etag).toBe(`"${createHash("sha256").update(Buffer.from(owner.body, "utf8")).digest("base64url")}"`);
    expect(keptJson(owner, owner.body)).toBe(k);
    const other = { body: '{"total":"£2"}' };
    expect(keptJson(other, other.body).etag).not.toBe(k.etag);
  });
});

describe("matches (If-None-Match)", () => {
  const etag = '"abc"';
  it("names the tag, in a list, weak or strong, or *", () => {
    expect(matches('"abc"', etag)).toBe(true);
    expect(matches('"x", "abc"', etag)).toBe(true);
    expect(matches('W/"abc"', etag)).toBe(true);
    expect(matches(" * ", etag)).toBe(true);
  });
  it("anything else is not a match", () => {
    expect(matches(undefined, etag)).toBe(false);
    expect(matches("", etag)).toBe(false);
    expect(matches('"abcd"', etag)).toBe(false);
    expect(matches("abc", etag)).toBe(false);
  });
});

describe("acceptedEncoding", () => {
  it("prefers br, then gzip, as the client allows", () => {
    expect(acceptedEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(acceptedEncoding("gzip")).toBe("gzip");
    expect(acceptedEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(acceptedEncoding("BR ; Q=0.1")).toBe("br");
    expect(acceptedEncoding("*")).toBe("br");
    expect(acceptedEncoding("*;q=0, gzip")).toBe("gzip");
  });
  it("none when the client asks for neither or refuses both", () => {
    expect(acceptedEncoding(undefined)).toBeNull();
    expect(acceptedEncoding("identity")).toBeNull();
    expect(acceptedEncoding("deflate")).toBeNull();
    expect(acceptedEncoding("br;q=0, gzip;q=0")).toBeNull();
    expect(acceptedEncoding("*;q=0")).toBeNull();
    expect(acceptedEncoding("gzip;q=nonsense")).toBeNull();
  });
});
