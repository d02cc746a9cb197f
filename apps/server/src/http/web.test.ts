import { describe, expect, it } from "vitest";
import { isAssetUrl } from "./web.ts";

describe("isAssetUrl", () => {
  it("is the built app's hashed files under /assets/: a miss there is a 404, not the HTML shell", () => {
    expect(isAssetUrl("/assets/index-3f9a1c.js")).toBe(true);
    expect(isAssetUrl("/assets/fonts/inter.woff2?v=2")).toBe(true);
  });

  it("anything else may be a client-side route", () => {
    for (const url of ["/", "/assets", "/assetsx/a.js", "/reports/assets/a.js", "/api/assets/a.js", "/ASSETS/a.js"]) expect(isAssetUrl(url), url).toBe(false);
  });
});

