import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router";
import { createQueryClient, Providers } from "../app/providers.tsx";

/** jsdom never finishes CSS transitions, so pop-overs would stay display:none; tests skip them. */
const noTransitions = { transitionProps: { duration: 0 } };
const testTheme = {
  components: {
    Menu: { defaultProps: noTransitions },
    Popover: { defaultProps: noTransitions },
    Tooltip: { defaultProps: noTransitions },
    Modal: { defaultProps: noTransitions },
  },
};

/** Mounts routes in a memory router with the app's providers, as the browser entry does. */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const client = createQueryClient();
  const utils = render(
    <Providers client={client} themeOverride={testTheme}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...utils, router, client };
}

/** A JWT-shaped token whose payload holds `exp` (seconds); the signature is never checked in the browser. */
export function fakeToken(expSeconds: number | undefined): string {
  const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${b64({ alg: "HS256" })}.${b64(expSeconds === undefined ? {} : { exp: expSeconds })}.signature`;
}

export const inOneHour = () => Math.floor(Date.now() / 1000) + 3600;

/** `{ status, body }` (and nothing else) is a full answer; any other value is a 200 body. */
function isAnswer(value: unknown): value is { status: number; body?: unknown } {
  if (typeof value !== "object" || value === null) return false;
  const keys = Object.keys(value);
  return typeof (value as { status?: unknown }).status === "number" && keys.every((k) => k === "status" || k === "body");
}

type Handler = (init: RequestInit & { url: string }) => { status: number; body?: unknown } | undefined;

/** A request the app made, as `mockApi` records it. */
export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

/** The recorded calls to `METHOD /path`, in order. */
export const callsTo = <C extends Pick<ApiCall, "method" | "path">>(calls: C[], method: string, path: string) => calls.filter((c) => c.method === method && c.path === path);

/** The server's refusal as `mockApi` answers it: `status` and the error body, with `details` (the field errors…) when given. */
export function refusal(status: number, code: string, message: string, details?: Record<string, unknown>) {
  return { status, body: { error: details === undefined ? { code, message } : { code, message, details } } };
}

/** The query of a request a handler of `mockApi` receives. */
export const queryOf = (init: { url: string }) => new URL(init.url, "http://x").searchParams;

/**
 * A handler for `mockApi` that answers with `answer` (a 200 body, or a handler of its own) and
 * keeps, in `asked`, the query string of each request in order ("?year=2026&month=3").
 */
export function recordingQueries(answer: unknown) {
  const asked: string[] = [];
  const handler = (init: RequestInit & { url: string }) => {
    asked.push(new URL(init.url, "http://x").search);
    return typeof answer === "function" ? (answer as Handler)(init) : { status: 200, body: answer };
  };
  return { asked, handler };
}

/** Replaces fetch with answers per "METHOD /path"; unknown calls answer 404 like the server. */
export function mockApi(routes: Record<string, unknown | Handler>) {
  const calls: ApiCall[] = [];
  const fetchMock = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, "").replace(/^\/api/, "").split("?")[0] ?? "";
    const method = init.method ?? "GET";
    // A JSON body as its value; a text body (a CSV upload) as its text.
    const isText = Object.entries((init.headers ?? {}) as Record<string, string>).some(([k, v]) => k.toLowerCase() === "content-type" && v.startsWith("text/"));
    const body = typeof init.body === "string" ? (isText ? init.body : (JSON.parse(init.body) as unknown)) : undefined;
    calls.push({ method, path, body, headers: (init.headers ?? {}) as Record<string, string> });
    const route = routes[`${method} ${path}`];
    const answer =
      typeof route === "function"
        ? (route as Handler)({ ...init, url })
        : route === undefined
          ? undefined
          : isAnswer(route)
            ? route
            : { status: 200, body: route };
    if (!answer) return new Response(JSON.stringify({ error: { code: "not_found", message: "Not found." } }), { status: 404 });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
  };
  globalThis.fetch = fetchMock as typeof fetch;
  return calls;
}
