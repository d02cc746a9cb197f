import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/http.ts";
import { renderRoutes } from "../../test/render.tsx";
import { ErrorBar } from "./components/ErrorBar.tsx";
import { dismissError, errorBarContent, GENERIC_ERROR_MESSAGE, raiseError, REAUTHORIZE_MESSAGE } from "./errorBar.ts";

describe("error bar messages (SPEC §8)", () => {
  it("uses the exact texts", () => {
    expect(REAUTHORIZE_MESSAGE).toBe(
      "Uh oh! It looks like you need to re-authorize one or more of your companies. You'll need to fix this before you can continue",
    );
    expect(GENERIC_ERROR_MESSAGE).toBe(
      "Uh oh! Something went wrong. We're looking into the problem, and we'll get it fixed as quickly as possible.",
    );
  });

  it("asks to re-authorize when the server answers that QuickBooks refused a company (errorCode 003200), linking to /setup/companies", () => {
    const refused = new ApiError(409, "qbo_reauthorization_required", "QuickBooks Online asked for Acme to be re-authorized (errorCode 003200).");
    expect(errorBarContent(refused)).toEqual({ message: REAUTHORIZE_MESSAGE, href: "/setup/companies" });
  });

  it("shows the generic message for anything else, whatever its words", () => {
    for (const error of [new ApiError(500, "internal_error", "Internal error"), new Error("errorCode=003200"), "errorCode=003200", null, ""]) {
      expect(errorBarContent(error)).toEqual({ message: GENERIC_ERROR_MESSAGE, href: null });
    }
  });
});

describe("<ErrorBar>", () => {
  it("shows the raised error with a link and can be dismissed", async () => {
    renderRoutes([{ path: "*", element: <ErrorBar /> }], "/x");
    expect(screen.queryByRole("alert")).toBeNull();
    act(() => raiseError(new ApiError(409, "qbo_reauthorization_required", "Reconnect Acme (errorCode 003200).")));
    const link = await screen.findByRole("link", { name: REAUTHORIZE_MESSAGE });
    expect(link).toHaveAttribute("href", "/setup/companies");
    await userEvent.click(screen.getByRole("button", { name: "Dismiss error" }));
    expect(screen.queryByRole("alert")).toBeNull();

    act(() => raiseError(new Error("boom")));
    expect(await screen.findByRole("alert")).toHaveTextContent(GENERIC_ERROR_MESSAGE);
    act(() => dismissError());
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
