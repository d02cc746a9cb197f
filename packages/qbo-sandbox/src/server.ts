/** The emulator on its own Fastify server. */
import Fastify from "fastify";
import type { AddressInfo } from "node:net";
import { sandboxPlugin } from "./http/plugin.ts";
import type { SandboxOptions } from "./sandbox.ts";
import { Sandbox } from "./sandbox.ts";

export interface RunningSandbox {
  /** "http://127.0.0.1:PORT", no trailing slash. */
  readonly url: string;
  readonly sandbox: Sandbox;
  close(): Promise<void>;
}

/** A standalone emulator is a development and test tool: its `_sandbox` admin routes are on unless `admin: false`. */
export async function startSandbox(opts: SandboxOptions & { host?: string; port?: number; admin?: boolean } = {}): Promise<RunningSandbox> {
  const { host = "127.0.0.1", port = 0, admin = true, ...sandboxOptions } = opts;
  const sandbox = new Sandbox(sandboxOptions);
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(sandboxPlugin, { sandbox, admin });
  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { url: `http://${shownHost}:${address.port}`, sandbox, close: () => app.close() };
}
