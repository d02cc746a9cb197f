import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contractJsonSchemas } from "./json-schema.ts";

// The committed schemas must match the zod contract. Regenerate them with
//   UPDATE_SCHEMAS=1 npx vitest run --project domain json-schema
const dir = new URL("../../schema/", import.meta.url);

describe("committed JSON Schemas", () => {
  for (const [file, schema] of Object.entries(contractJsonSchemas())) {
    it(`${file} is up to date`, () => {
      const expected = `${JSON.stringify(schema, null, 2)}\n`;
      if (process.env.UPDATE_SCHEMAS === "1") writeFileSync(new URL(file, dir), expected);
      expect(readFileSync(new URL(file, dir), "utf8")).toBe(expected);
    });
  }
});
