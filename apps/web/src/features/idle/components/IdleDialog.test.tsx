import { act, render, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient, Providers } from "../../../app/providers.tsx";
import { formatCountdown, IdleDialog } from "./IdleDialog.tsx";

const renderWithProviders = (ui: ReactElement) => render(<Providers client={createQueryClient()} themeOverride={{ components: { Modal: { defaultProps: { transitionProps: { duration: 0 } } } } }}>{ui}</Providers>);

describe("the idle dialog's countdown", () => {
  afterEach(() => vi.useRealTimers());

  it("writes the time left in minutes and seconds, rounded up, hours when there are any", () => {
    expect(formatCountdown(900_000)).toBe("15:00");
    expect(formatCountdown(899_001)).toBe("15:00");
    expect(formatCountdown(61_000)).toBe("1:01");
    expect(formatCountdown(9_000)).toBe("0:09");
    expect(formatCountdown(-5)).toBe("0:00");
    expect(formatCountdown(3_723_000)).toBe("1:02:03");
  });

  it("counts down every second to the logout the timer announces", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const at = Date.now() + 15 * 60_000;
    renderWithProviders(<IdleDialog opened onStay={() => {}} onLogout={() => {}} logoutAt={() => at} />);
    expect(screen.getByTestId("idle-countdown")).toHaveTextContent("For your security you will be logged out in 15:00 if there is no activity.");
    act(() => void vi.advanceTimersByTime(61_000));
    expect(screen.getByTestId("idle-countdown")).toHaveTextContent("logged out in 13:59");
  });

  it("says it without a time when none is known", () => {
    renderWithProviders(<IdleDialog opened onStay={() => {}} onLogout={() => {}} />);
    expect(screen.getByTestId("idle-countdown")).toHaveTextContent("For your security you will be logged out if there is no activity.");
  });
});
