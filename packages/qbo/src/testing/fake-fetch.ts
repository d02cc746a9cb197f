/** A scripted `fetch` for unit tests: each request goes to a handler, and every call is recorded. */
export interface FakeRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: string;
}

export type FakeHandler = (request: FakeRequest) => Response | Promise<Response>;

export interface FakeFetch {
  readonly fetch: typeof fetch;
  readonly calls: FakeRequest[];
}

export function fakeFetch(handler: FakeHandler): FakeFetch {
  const calls: FakeRequest[] = [];
  const impl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const request: FakeRequest = {
      method: init?.method ?? "GET",
      url,
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? init.body : "",
    };
    calls.push(request);
    return handler(request);
  };
  return { fetch: impl as typeof fetch, calls };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** What undici throws when the connection drops before an answer. */
export function connectionReset(): TypeError {
  const cause = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
  return new TypeError("fetch failed", { cause });
}
