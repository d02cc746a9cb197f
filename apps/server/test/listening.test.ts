import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { GOOD_PASSWORD } from "./flows.ts";

/** The same flow a browser makes, over a real socket: headers, JSON parsing, status codes. */
describe.each(drivers)("a real listening server on %s", (driver) => {
  const t = useTestApp(driver);

  it("runs sign-up to logout over HTTP", async () => {
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(base + path, {
        method,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
    };

    expect((await call("GET", "/api/health")).status).toBe(200);
    const email = "socket@example.com";
    expect((await call("POST", "/api/session/signup", { email, password: GOOD_PASSWORD })).status).toBe(201);
    const box = await call("GET", `/api/dev/mailbox?to=${email}`);
    const code = /code is ([0-9A-Z-]{9})/.exec(box.body.messages[0].text)![1];
    expect((await call("POST", "/api/session/validationcode", { validationCode: code })).body).toEqual({ email });
    const login = await call("POST", "/api/session/token", { email, password: GOOD_PASSWORD });
    expect(login.status).toBe(200);
    const token = login.body.token;
    const session = await call("GET", "/api/session", undefined, token);
    expect(session.status).toBe(200);
    expect(session.body.email).toBe(email);
    expect(session.headers.get("x-request-id")).toBeTruthy();
    expect((await call("POST", "/api/session/logout", undefined, token)).status).toBe(204);
    const after = await call("GET", "/api/session", undefined, token);
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe("Invalid token");

    const broken = await fetch(`${base}/api/session/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
  });
});
