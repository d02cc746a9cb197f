import type { Endpoint, ResponseBody } from "@groupledger/contract";
import { errorBodySchema } from "@groupledger/contract";
import { z } from "zod";

// Routes are registered from the contract's endpoint declarations, never from a path typed here:
//   app.route({ ...routeOf(companiesEndpoint, { tags, summary, errors: [401] }), handler })
// so the method, the path, the request schemas and the success bodies are the web's own.

/** How the answer of each success status is serialized: its schema; a 204 sends null; a file is sent as is. */
type ResponseSchema<B> = B extends z.ZodType ? B : B extends null ? z.ZodNull : z.ZodAny;
type ResponseSchemas<E extends Endpoint, X extends number> = { [S in keyof E["responses"]]: ResponseSchema<E["responses"][S]> } & {
  [S in X]: typeof errorBodySchema;
};

/** The OpenAPI prose and the error statuses of a route: the server's part of the declaration. */
export interface RouteDocs<X extends number> {
  tags: string[];
  summary: string;
  description?: string;
  /** Omitted for public routes; every signed-in route says bearer. */
  security?: { bearer: never[] }[];
  /** The 4xx statuses the route can answer, each with the error body. */
  errors?: readonly X[];
}

export const bearer = [{ bearer: [] as never[] }];

/**
 * The docs of a module's routes, what they share given once (their tags, their security, their
 * error statuses): `const docs = docsOf({ tags, security: bearer, errors })`, then each route's
 * `routeOf(e, docs(summary))`, or `docs(summary, { description, errors })` where it says more or
 * answers other errors than the module's.
 */
export function docsOf<const X extends number = never>(shared: Omit<RouteDocs<X>, "summary" | "description">) {
  return <const Y extends number = X>(summary: string, own: Pick<RouteDocs<Y>, "description" | "errors"> = {}) => ({ ...shared, summary, ...own }) as RouteDocs<Y>;
}

function serializerOf(body: ResponseBody): z.ZodType {
  if (body === null) return z.null();
  if (body === "file") return z.any();
  return body;
}

/** The method, URL and schema of the route serving `e`, for `app.route({ ...routeOf(e, docs), handler })`. */
export function routeOf<const E extends Endpoint, const X extends number = never>(e: E, docs: RouteDocs<X>) {
  const response: Record<number, z.ZodType> = {};
  for (const [status, body] of Object.entries(e.responses)) response[Number(status)] = serializerOf(body);
  for (const status of docs.errors ?? []) response[status] = errorBodySchema;
  return {
    method: e.method,
    url: e.path,
    schema: {
      tags: docs.tags,
      summary: docs.summary,
      ...(docs.description === undefined ? {} : { description: docs.description }),
      ...(docs.security === undefined ? {} : { security: docs.security }),
      // Absent, not undefined: Fastify and the OpenAPI transform walk the keys that are there.
      ...((e.params === undefined ? {} : { params: e.params }) as { params: E["params"] }),
      ...((e.query === undefined ? {} : { querystring: e.query }) as { querystring: E["query"] }),
      ...((e.body === undefined ? {} : { body: e.body }) as { body: E["body"] }),
      response: response as ResponseSchemas<E, X>,
    },
  };
}
