import { ACTIVITY_DEBOUNCE_MS, IDLE_TIMEOUT_MS } from "@groupledger/domain";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IdleTimer } from "./idleTimer.ts";

describe("IdleTimer (SPEC §4 Idle)", () => {
  const onIdle = vi.fn();
  const onLogout = vi.fn();
  let timer: IdleTimer;

  beforeEach(() => {
    vi.useFakeTimers();
    timer = new IdleTimer({ timeoutMs: IDLE_TIMEOUT_MS, debounceMs: ACTIVITY_DEBOUNCE_MS, onIdle, onLogout });
    timer.start();
  });
  afterEach(() => {
    timer.stop();
    vi.useRealTimers();
    vi.clearAllMocks();
  });

  it("uses 900000 ms and a 250 ms debounce", () => {
    expect(IDLE_TIMEOUT_MS).toBe(900_000);
    expect(ACTIVITY_DEBOUNCE_MS).toBe(250);
  });

  it("opens the idle dialog after the timeout without activity, then restarts the timer", () => {
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledOnce();
    expect(timer.isTimedOut).toBe(true);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it("says when it will log out: two periods from the last activity, one once timed out, none when stopped", () => {
    const start = Date.now();
    expect(timer.logoutAt()).toBe(start + 2 * IDLE_TIMEOUT_MS);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS);
    expect(timer.isTimedOut).toBe(true);
    expect(timer.logoutAt()).toBe(start + 2 * IDLE_TIMEOUT_MS);
    vi.advanceTimersByTime(60_000);
    timer.activity();
    // Activity starts the period again; once its mark clears, logging out is two periods away again.
    vi.advanceTimersByTime(ACTIVITY_DEBOUNCE_MS);
    expect(timer.logoutAt()).toBe(start + IDLE_TIMEOUT_MS + 60_000 + 2 * IDLE_TIMEOUT_MS);
    timer.stop();
    expect(timer.logoutAt()).toBeUndefined();
  });

  it("logs out after a second idle period while still timed out", () => {
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS);
    expect(onIdle).toHaveBeenCalledOnce();
    expect(onLogout).toHaveBeenCalledOnce();
    // It stops after logging out: no further callbacks.
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 3);
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it("restarts the period on activity", () => {
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 1000);
    timer.activity();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledOnce();
  });

  it("clears the timed-out flag on any action, debounced by 250 ms, so the next idle period opens the dialog again", () => {
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS);
    expect(timer.isTimedOut).toBe(true);
    timer.activity();
    vi.advanceTimersByTime(ACTIVITY_DEBOUNCE_MS - 1);
    expect(timer.isTimedOut).toBe(true);
    timer.activity(); // a burst of events only counts once, 250 ms after the last
    vi.advanceTimersByTime(ACTIVITY_DEBOUNCE_MS - 1);
    expect(timer.isTimedOut).toBe(true);
    vi.advanceTimersByTime(1);
    expect(timer.isTimedOut).toBe(false);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS);
    expect(onIdle).toHaveBeenCalledTimes(2);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it("ignores activity and fires nothing once stopped", () => {
    timer.stop();
    timer.activity();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 2);
    expect(onIdle).not.toHaveBeenCalled();
    expect(onLogout).not.toHaveBeenCalled();
  });
});
