// The machine a bench runs on: how busy it is, and how long this process's thread waited for a core.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";

/** How long this thread has waited for a core (Linux's run-queue delay, /proc/self/schedstat), in ms; 0 elsewhere. */
export function runQueueMs(): number {
  try {
    return Number(readFileSync("/proc/self/schedstat", "utf8").split(" ")[1]) / 1e6;
  } catch {
    return 0;
  }
}

/** The 1, 5 and 15-minute load averages, "9.2 11.7 13.3". */
export const loadAverage = () => loadavg().map((l) => l.toFixed(1)).join(" ");
