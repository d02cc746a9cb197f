import { z } from "zod";

export const fieldErrorSchema = z.object({
  path: z.string().describe("Dotted path of the offending field, e.g. 'password' or 'query.to'"),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The one error shape of the API. `code` is stable snake_case (or a spec-given constant such as EXPIRED_TOKEN). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
