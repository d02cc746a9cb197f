import type { FastifyInstance, FastifyRequest } from "fastify";

/** Schedules work for after the answer has gone out. */
export type AfterResponse = (task: () => void) => void;

const tasks = new WeakMap<FastifyRequest, (() => void)[]>();

/**
 * Runs `task` once the response to `req` has been sent: for work whose duration must not show in
 * the response time (forgot-password must answer as fast for a real email as for an unknown one).
 */
export function afterResponse(req: FastifyRequest): AfterResponse {
  return (task) => {
    const list = tasks.get(req);
    if (list) list.push(task);
    else tasks.set(req, [task]);
  };
}

export function registerAfterResponse(app: FastifyInstance): void {
  app.addHook("onResponse", async (req) => {
    const list = tasks.get(req);
    tasks.delete(req);
    for (const task of list ?? []) task();
  });
}
