import { z } from "zod";
import { consolidationInputSchema } from "./input-schema.ts";
import { consolidationOutputSchema } from "./output-schema.ts";

/** JSON Schemas of the contract, generated from the zod schemas (committed under schema/). */
export function contractJsonSchemas(): Record<string, unknown> {
  return {
    "consolidation-input.schema.json": {
      title: "GroupLedger consolidation input",
      ...z.toJSONSchema(consolidationInputSchema, { io: "input", unrepresentable: "any" }),
    },
    "consolidation-output.schema.json": {
      title: "GroupLedger consolidation output",
      ...z.toJSONSchema(consolidationOutputSchema, { io: "output", unrepresentable: "any" }),
    },
  };
}
