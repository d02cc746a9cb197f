/** Where a request came from, as the audit log records it with what the request changed. */
export interface RequestMeta {
  ip: string;
  requestId: string;
}

/** The audit's request fields from a Fastify request: routes hand this to their services. */
export const requestMeta = (req: { ip: string; id: string }): RequestMeta => ({ ip: req.ip, requestId: req.id });
