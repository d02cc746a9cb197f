import type { z } from "zod";

// One declaration per API endpoint: the server registers its route from it (method, path, the
// schemas that validate the request and serialize the answer) and the web calls through it (the
// path built from the same text, the answer parsed by the same schema), so neither side can drift.
// Only what both sides need lives here; the OpenAPI prose (tags, summary, description) and the
// error statuses stay with the server's route.

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** An answer's body: a schema for JSON, "file" for a download (xlsx, csv), null for none (204). */
export type ResponseBody = z.ZodType | "file" | null;

export interface EndpointSpec {
  readonly method: Method;
  /** Relative to /api, in Fastify's syntax: "/companies/:realmId/accounts". */
  readonly path: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The body is sent as this text type instead of JSON (a CSV upload: the body schema is z.string()). */
  readonly bodyType?: "text/csv";
  /** The success statuses and their bodies (the first is what a call returns). */
  readonly responses: Readonly<Record<number, ResponseBody>>;
}

export type Endpoint<S extends EndpointSpec = EndpointSpec> = S & { readonly kind: "endpoint" };

/** Declares an endpoint. Keep each one its own top-level export: the web bundle keeps only those it calls. */
export function endpoint<const S extends EndpointSpec>(spec: S): Endpoint<S> {
  return { ...spec, kind: "endpoint" };
}

/** What a request carries besides its method and path. */
export type RequestSpec = Pick<EndpointSpec, "params" | "query" | "body" | "bodyType">;

const declareFor =
  <const M extends Method>(method: M) =>
  <const P extends string, const R extends EndpointSpec["responses"], const Q extends RequestSpec = Record<never, never>>(path: P, responses: R, request?: Q) =>
    endpoint({ method, path, ...request, responses } as { method: M; path: P; responses: R } & Q);

/**
 * The declarations as the contract writes them, one per method: `POST(path, responses, request)`
 * is `endpoint({ method: "POST", path, ...request, responses })`, e.g.
 * `POST("/companies/:realmId/map", { 200: companyMapSchema }, { params: realmParamsSchema, body: mapRequestSchema })`.
 */
export const GET = declareFor("GET");
export const POST = declareFor("POST");
export const PUT = declareFor("PUT");
export const PATCH = declareFor("PATCH");
export const DELETE = declareFor("DELETE");

/** The answer of an endpoint that answers nothing: 204 No Content. */
export const noContent = { 204: null } as const;

export function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "endpoint";
}

type Field<S, K extends string> = S extends z.ZodType ? { [P in K]: z.input<S> } : { [P in K]?: undefined };

/** What a caller passes: the path's params, the query and the body, each only when the endpoint has one. */
export type EndpointInput<E extends EndpointSpec> = Field<E["params"], "params"> & Field<E["query"], "query"> & Field<E["body"], "body">;

type FirstBody<R> = R extends Readonly<Record<200, infer B>>
  ? B
  : R extends Readonly<Record<201, infer B>>
    ? B
    : R extends Readonly<Record<202, infer B>>
      ? B
      : null;

/** A downloaded file, and the server's Content-Disposition (which names it), if any. */
export interface DownloadedFile {
  blob: Blob;
  disposition: string | null;
}

/** What a successful call returns: the parsed JSON answer, a file, nothing for a 204. */
export type EndpointOutput<E extends EndpointSpec> =
  FirstBody<E["responses"]> extends infer B ? (B extends z.ZodType ? z.output<B> : B extends "file" ? DownloadedFile : void) : never;

/** The status and body a call reads on success: 200, then 201, then 202, then the first declared. */
export function successOf(e: EndpointSpec): { status: number; body: ResponseBody } {
  const statuses = Object.keys(e.responses).map(Number);
  const status = [200, 201, 202].find((s) => statuses.includes(s)) ?? statuses[0]!;
  return { status, body: e.responses[status] ?? null };
}

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** The names of a path's params, in order: "/a/:realmId/b/:month" → ["realmId", "month"]. */
export function paramNames(path: string): string[] {
  return [...path.matchAll(PARAM)].map((m) => m[1]!);
}

function queryText(query: unknown): string {
  if (query === undefined || query === null) return "";
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

/** The URL of a call relative to /api: each :param replaced by its encoded value, then the query. */
export function pathOf(e: EndpointSpec, input: { params?: unknown; query?: unknown } = {}): string {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = e.path.replace(PARAM, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === "") throw new Error(`${e.method} ${e.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  return path + queryText(input.query);
}
