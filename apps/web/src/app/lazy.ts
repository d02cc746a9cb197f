import { lazy, type ComponentType } from "react";
import { LAZY_LOAD_TIMEOUT_MS } from "@groupledger/domain";

export class LazyLoadTimeoutError extends Error {
  override name = "LazyLoadTimeoutError";
}

/** Rejects when `promise` has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new LazyLoadTimeoutError(`The screen did not load within ${Math.round(ms / 1000)} seconds.`)),
      ms,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * A lazily loaded screen (SPEC §2). A chunk that has not arrived after 120 s (SPEC §8) counts as
 * failed, so the route's error element raises the error bar instead of a spinner running forever.
 */
export function lazyScreen<P extends object>(
  load: () => Promise<ComponentType<P>>,
  timeoutMs: number = LAZY_LOAD_TIMEOUT_MS,
) {
  return lazy(() => withTimeout(load(), timeoutMs).then((component) => ({ default: component })));
}
