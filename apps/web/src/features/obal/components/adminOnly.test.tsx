import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient, Providers } from "../../../app/providers.tsx";
import { OBAL, UK_CO, USER } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi } from "../../../test/render.tsx";
import { clearToken, saveToken } from "../../session/tokenStore.ts";
import { LockedPeriod } from "./PeriodCard.tsx";
import { SubsidiaryPanel } from "./SubsidiaryPanel.tsx";

function mount(level: number, onAction = vi.fn()) {
  saveToken(fakeToken(inOneHour()));
  mockApi({ "GET /session": { ...USER, permissionLevel: level } });
  render(
    <Providers client={createQueryClient()}>
      <SubsidiaryPanel
        company={UK_CO}
        status="confirmed"
        tb={{ data: undefined, isPending: false, error: null, refetch: () => {} }}
        actions={["unconfirm", "post"]}
        busyAction={null}
        entryUrl={null}
        expanded={false}
        feedback={null}
        onToggle={() => {}}
        onAction={onAction}
        onDismissFeedback={() => {}}
      />
      <LockedPeriod state={{ ...OBAL, year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 }} onReset={() => {}} />
    </Providers>,
  );
  return onAction;
}

afterEach(() => clearToken());

describe("opening balances for a member", () => {
  it("disables posting and the period reset with the reason, and keeps unconfirm", async () => {
    const onAction = mount(0);
    await waitFor(() => expect(screen.getByRole("button", { name: "Post to QuickBooks" })).toBeDisabled());
    expect(screen.getByRole("button", { name: "Reset…" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Unconfirm" }));
    expect(onAction).toHaveBeenCalledWith("unconfirm");
    await userEvent.hover(screen.getByRole("button", { name: "Post to QuickBooks" }).closest("[data-admin-only]")!);
    expect(await screen.findByText(/Only an admin can post to QuickBooks/)).toBeInTheDocument();
  });

  it("an admin can post", async () => {
    const onAction = mount(1);
    await userEvent.click(await screen.findByRole("button", { name: "Post to QuickBooks" }));
    expect(onAction).toHaveBeenCalledWith("post");
  });
});
