import { describe, it, expect, vi, afterEach } from "vitest";
import fc from "fast-check";
import {
  TOKEN_EXP_MILLISECONDS_THRESHOLD,
  TOKEN_MIN_PARTS,
  decodeBase64Url,
  decodeTokenPayload,
  isTokenExpired,
  tokenExpiryMs,
} from "./token.ts";

/** base64url without padding, built with browser APIs only. */
function b64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function encodeJson(value: unknown): string {
  return b64url(new TextEncoder().encode(JSON.stringify(value)));
}

const HEADER = encodeJson({ alg: "HS256", typ: "JWT" });

function token(payload: unknown, extraParts = 1): string {
  return [HEADER, encodeJson(payload), ...Array.from({ length: extraParts }, () => "c2ln")].join(".");
}

const EXP_S = 1_700_000_000; // seconds
const EXP_MS = EXP_S * 1000;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("constants", () => {
  it("are exact", () => {
    expect(TOKEN_MIN_PARTS).toBe(3);
    expect(TOKEN_EXP_MILLISECONDS_THRESHOLD).toBe(1e11);
  });
});

describe("isTokenExpired", () => {
  it("treats a missing token as expired", () => {
    expect(isTokenExpired(null, 0)).toBe(true);
    expect(isTokenExpired(undefined, 0)).toBe(true);
    expect(isTokenExpired("", 0)).toBe(true);
  });

  it("needs at least 3 dot-separated parts", () => {
    const payload = encodeJson({ exp: EXP_S });
    expect(isTokenExpired(payload, 0)).toBe(true);
    expect(isTokenExpired(`${HEADER}.${payload}`, 0)).toBe(true);
    expect(isTokenExpired(`${HEADER}.${payload}.sig`, 0)).toBe(false);
    expect(isTokenExpired(`${HEADER}.${payload}.`, 0)).toBe(false); // empty signature is still a third part
    expect(isTokenExpired(`${HEADER}.${payload}.a.b`, 0)).toBe(false);
  });

  it("exp in seconds: valid strictly before exp, expired at and after it", () => {
    const t = token({ exp: EXP_S });
    expect(isTokenExpired(t, EXP_MS - 1)).toBe(false);
    expect(isTokenExpired(t, EXP_MS)).toBe(true);
    expect(isTokenExpired(t, EXP_MS + 1)).toBe(true);
    expect(isTokenExpired(t, 0)).toBe(false);
  });

  it("exp in milliseconds: valid strictly before exp, expired at and after it", () => {
    const t = token({ exp: EXP_MS });
    expect(isTokenExpired(t, EXP_MS - 1)).toBe(false);
    expect(isTokenExpired(t, EXP_MS)).toBe(true);
    expect(isTokenExpired(t, EXP_MS + 1)).toBe(true);
  });

  it("reads values up to 1e11 as seconds and above as milliseconds", () => {
    const atThreshold = token({ exp: 1e11 }); // seconds: the year 5138
    expect(tokenExpiryMs(atThreshold)).toBe(1e14);
    expect(isTokenExpired(atThreshold, 1e11 + 1)).toBe(false);
    expect(isTokenExpired(atThreshold, 1e14)).toBe(true);
    const above = token({ exp: 1e11 + 1 }); // milliseconds: March 1973
    expect(tokenExpiryMs(above)).toBe(1e11 + 1);
    expect(isTokenExpired(above, 1e11)).toBe(false);
    expect(isTokenExpired(above, 1e11 + 1)).toBe(true);
  });

  it("accepts fractional and zero or negative exp as numbers", () => {
    expect(tokenExpiryMs(token({ exp: 1.5 }))).toBe(1500);
    expect(isTokenExpired(token({ exp: 0 }), 0)).toBe(true);
    expect(isTokenExpired(token({ exp: -5 }), 0)).toBe(true);
  });

  it.each([
    ["missing", {}],
    ["null", { exp: null }],
    ["a string", { exp: String(EXP_S) }],
    ["a boolean", { exp: true }],
    ["an array", { exp: [EXP_S] }],
    ["an object", { exp: { value: EXP_S } }],
  ])("treats exp %s as expired", (_name, payload) => {
    expect(isTokenExpired(token(payload), 0)).toBe(true);
    expect(tokenExpiryMs(token(payload))).toBeNull();
  });

  it("treats an exp of 1e400 (Infinity once parsed) as expired", () => {
    const t = `${HEADER}.${b64url(new TextEncoder().encode('{"exp":1e400}'))}.sig`;
    expect(isTokenExpired(t, 0)).toBe(true);
  });

  it.each([
    ["JSON array", b64url(new TextEncoder().encode(`[${EXP_S}]`))],
    ["JSON number", b64url(new TextEncoder().encode(String(EXP_S)))],
    ["JSON null", b64url(new TextEncoder().encode("null"))],
    ["not JSON", b64url(new TextEncoder().encode(`exp=${EXP_S}`))],
    ["empty", ""],
    ["not base64url", "***"],
    ["standard base64 alphabet", "eyJleHAiOjE3MDAwMDAwMDB9+/"],
    ["impossible length", "eyJleHAiOjE3MDAwMDAwMDB9a"],
    ["invalid UTF-8", b64url(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))],
    ["padding in the middle", "eyJl=eHAiOjE3MDAwMDAwMDB9"],
  ])("treats a payload that is %s as expired", (_name, payload) => {
    const t = `${HEADER}.${payload}.sig`;
    expect(decodeTokenPayload(t)).toBeNull();
    expect(isTokenExpired(t, 0)).toBe(true);
  });

  it("treats a now that is not a finite number as expired", () => {
    const t = token({ exp: EXP_S });
    expect(isTokenExpired(t, Number.NaN)).toBe(true);
    expect(isTokenExpired(t, Infinity)).toBe(true);
    expect(isTokenExpired(t, -Infinity)).toBe(true);
  });

  it("does not need Node's Buffer", () => {
    vi.stubGlobal("Buffer", undefined);
    expect(globalThis.Buffer).toBeUndefined();
    expect(isTokenExpired(token({ exp: EXP_S, name: "Zoë 😀" }), EXP_MS - 1)).toBe(false);
    expect(decodeTokenPayload(token({ name: "Zoë 😀" }))).toEqual({ name: "Zoë 😀" });
  });

  it("matches exp <= now for any exp in seconds (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e11 }), fc.integer({ min: 0, max: 1e14 }), (exp, now) => {
        return isTokenExpired(token({ exp }), now) === exp * 1000 <= now;
      }),
    );
  });

  it("matches exp <= now for any exp in milliseconds (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1e11 + 1, max: 1e15 }), fc.integer({ min: 0, max: 1e15 }), (exp, now) => {
        return isTokenExpired(token({ exp }), now) === exp <= now;
      }),
    );
  });

  it("never throws on arbitrary input (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.double(), (t, now) => {
        expect(typeof isTokenExpired(t, now)).toBe("boolean");
      }),
    );
  });
});

describe("decodeTokenPayload", () => {
  it("decodes UTF-8 JSON payloads", () => {
    const payload = { sub: "u1", email: "zoë@example.com", name: "Zoë 😀 Ωμέγα", exp: EXP_S };
    expect(decodeTokenPayload(token(payload))).toEqual(payload);
  });

  it("accepts padded base64url", () => {
    const bare = encodeJson({ a: 1 });
    const padded = bare + "=".repeat((4 - (bare.length % 4)) % 4);
    expect(padded).not.toBe(bare);
    expect(decodeTokenPayload(`${HEADER}.${padded}.sig`)).toEqual({ a: 1 });
  });

  it("handles base64url characters - and _", () => {
    // bytes chosen so the encoding contains both "-" and "_"
    const json = '{"k":"\u00fb\u00ff\u00be"}';
    const encoded = encodeJson(JSON.parse(json));
    expect(encoded).toMatch(/[-_]/);
    expect(decodeTokenPayload(`${HEADER}.${encoded}.sig`)).toEqual(JSON.parse(json));
  });

  it("returns null for missing or short tokens", () => {
    expect(decodeTokenPayload(null)).toBeNull();
    expect(decodeTokenPayload(undefined)).toBeNull();
    expect(decodeTokenPayload("a.b")).toBeNull();
  });

  it("round-trips any JSON object (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))), (obj) => {
        expect(decodeTokenPayload(token(obj))).toEqual(JSON.parse(JSON.stringify(obj)));
      }),
    );
  });
});

describe("decodeBase64Url", () => {
  it("decodes all byte values", () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(decodeBase64Url(b64url(bytes))).toEqual(bytes);
  });

  it("decodes every length remainder", () => {
    expect(decodeBase64Url("")).toEqual(new Uint8Array([]));
    expect(decodeBase64Url("YQ")).toEqual(new Uint8Array([97]));
    expect(decodeBase64Url("YWI")).toEqual(new Uint8Array([97, 98]));
    expect(decodeBase64Url("YWJj")).toEqual(new Uint8Array([97, 98, 99]));
    expect(decodeBase64Url("YQ==")).toEqual(new Uint8Array([97]));
    expect(decodeBase64Url("Y")).toBeNull();
    expect(decodeBase64Url("YWJjZ")).toBeNull();
    expect(decodeBase64Url("YQ===")).toBeNull();
    expect(decodeBase64Url("Y Q")).toBeNull();
  });

  it("round-trips arbitrary bytes (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(decodeBase64Url(b64url(bytes))).toEqual(bytes);
      }),
    );
  });
});
