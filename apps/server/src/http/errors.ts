import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import type { ErrorBody, FieldError } from "@groupledger/contract";
import { LockBusyError } from "../db/locks.ts";
import { isAssetUrl } from "./web.ts";

/** The one error type the API throws on purpose; rendered as {"error":{code,message,details}}. */
export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const errors = {
  badRequest: (code: string, message: string, details?: Record<string, unknown>) =>
    new AppError(400, code, message, details),
  validation: (fields: FieldError[]) =>
    new AppError(400, "validation_failed", fields[0]?.message ?? "The request is not valid.", { fields }),
  unauthorized: (code: string, message: string) => new AppError(401, code, message),
  forbidden: (code: string, message: string) => new AppError(403, code, message),
  notFound: (message = "Not found.") => new AppError(404, "not_found", message),
  conflict: (code: string, message: string) => new AppError(409, code, message),
  tooManyRequests: (message: string, retryAfterMs: number) =>
    new AppError(429, "rate_limited", message, { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) }, {
      "retry-after": String(Math.ceil(retryAfterMs / 1000)),
    }),
};

export function body(code: string, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: details ? { code, message, details } : { code, message } };
}

/** Fastify's own client-error codes, mapped to stable snake_case codes and plain messages. */
const fastifyClientErrors: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "invalid_json", message: "The request body is not valid JSON." },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: "invalid_json",
    message: "The request body is empty but the content type says JSON.",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "body_too_large", message: "The request body is too large." },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: "unsupported_media_type",
    message: "Send the request body as application/json.",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: "invalid_request", message: "The Content-Length header is wrong." },
};

export interface ErrorHandlingOptions {
  /** When the web app is served: unknown GETs (and HEADs) outside /api get its shell (client-side routes). */
  spaFallback?: boolean;
}

export function registerErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions = {}): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.status).send(body(err.code, err.message, err.details));
    }
    if (err instanceof LockBusyError) {
      // Someone else is doing the same thing (a second tab, another instance) and is taking long.
      return reply
        .status(409)
        .header("retry-after", "5")
        .send(body("operation_in_progress", `${err.message} Wait a moment and try again; reload first to see whether it has finished.`));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: FieldError[] = err.validation.map((v) => ({
        path: fieldPath(err.validationContext, v.instancePath),
        message: v.message ?? "Invalid value.",
      }));
      return reply
        .status(400)
        .send(body("validation_failed", fields[0]?.message ?? "The request is not valid.", { fields }));
    }
    const known = err.code ? fastifyClientErrors[err.code] : undefined;
    if (known) return reply.status(err.statusCode ?? 400).send(body(known.code, known.message));
    if (err.statusCode === 429) {
      return reply.status(429).send(body("rate_limited", "Too many requests. Please wait a moment and try again."));
    }
    if (isResponseSerializationError(err) || !err.statusCode || err.statusCode >= 500) {
      request.log.error({ err }, "unhandled error");
      return reply
        .status(500)
        .send(body("internal_error", "Something went wrong on our side. It has been logged; please try again."));
    }
    // Any other 4xx Fastify raises (e.g. malformed URL) stays a 4xx with its own message.
    return reply.status(err.statusCode).send(body("invalid_request", err.message));
  });

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === "/api" || request.url.startsWith("/api/") || request.url.startsWith("/api?");
    // A chunk an old tab asks for after a deploy replaced it gets a 404, not the HTML shell, which
    // the browser would refuse as a script anyway.
    if (options.spaFallback && (request.method === "GET" || request.method === "HEAD") && !isApi && !isAssetUrl(request.url)) return reply.sendFile("index.html");
    return reply.status(404).send(body("not_found", `No route for ${request.method} ${request.url.split("?")[0]}.`));
  });
}

/** Body fields are named bare ("email"); others by where they were sent ("query.limit", "params.id"). */
function fieldPath(context: string | undefined, instancePath: string): string {
  const path = instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (!context || context === "body") return path;
  const where = context === "querystring" ? "query" : context;
  return path ? `${where}.${path}` : where;
}
