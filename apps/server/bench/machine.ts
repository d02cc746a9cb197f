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

/** CPU time a process or thread has used (ms), read from its /proc/…/stat (10 ms ticks); undefined when there is none. */
export function statCpuMs(path: string): number | undefined {
  try {
    // Fields 14 and 15 (after the parenthesised name): user and system time in clock ticks (100 a second).
    const fields = readFileSync(path, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * CPU time this process's main thread has used (ms); 0 off Linux. Unlike process.cpuUsage it
 * leaves out worker threads (the load generator's): the server's own cost, which holds up on a
 * loaded machine better than throughput does.
 */
export const mainThreadCpuMs = () => statCpuMs(`/proc/self/task/${process.pid}/stat`) ?? 0;

/** The 1, 5 and 15-minute load averages, "9.2 11.7 13.3". */
export const loadAverage = () => loadavg().map((l) => l.toFixed(1)).join(" ");
