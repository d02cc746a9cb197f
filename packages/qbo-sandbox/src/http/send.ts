/** Writing rendered wire responses through Fastify. */
import type { FastifyReply } from "fastify";
import type { WireResponse } from "../faults.ts";
import { faultResponse } from "../faults.ts";
import { QboFault, unsupportedOperationFault } from "../qboFault.ts";

export function send(reply: FastifyReply, w: WireResponse): FastifyReply {
  // Fastify computes Content-Length itself; a second copy would only risk a mismatch.
  const headers = Object.fromEntries(Object.entries(w.headers).filter(([k]) => k.toLowerCase() !== "content-length"));
  return reply.code(w.status).headers(headers).send(w.body);
}

/** An HTML page of the emulator's own (consent, the read-only journal view): never cached. */
export function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header("content-type", "text/html; charset=utf-8").header("cache-control", "no-store").send(body);
}

export function faultOf(error: unknown, now: Date): WireResponse | undefined {
  if (!(error instanceof QboFault)) return undefined;
  return faultResponse({ status: error.status, type: error.type, errors: error.errors, time: now });
}

/** Intuit's answer for a path it does not serve (errors/400_ValidationFault_500_unsupported_operation). */
export function unsupportedOperation(path: string, now: Date): WireResponse {
  const fault = unsupportedOperationFault(path);
  return faultResponse({ status: fault.status, type: fault.type, errors: fault.errors, time: now });
}
