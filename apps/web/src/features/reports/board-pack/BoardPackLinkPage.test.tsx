import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { BoardPackInvitation } from "@groupledger/contract";
import { routes } from "../../../app/routes.tsx";
import { shellApi } from "../../../test/fixtures.ts";
import { mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import { clearToken } from "../../session/tokenStore.ts";
import { boardPackTokenFrom } from "./BoardPackLinkPage.tsx";
import "./BoardPackLinkPage.tsx";

const TOKEN = "Ck8iHWqtTiJQ--7O1ghcxZ1-0Sb34bCYToJgvTX1ngU";
const PENDING: BoardPackInvitation = {
  email: "director@board.example",
  groupName: "Northwind Holdings Inc.",
  requestedBy: "jane@northwind.example",
  dayOfMonth: 3,
  state: "pending",
  expiresAt: "2099-01-08T09:00:00.000Z",
};

afterEach(() => clearToken());

describe("board pack links (no session)", () => {
  it("reads the token from the fragment (or the query), the unsubscribe token's signed form too, and ignores anything malformed", () => {
    expect(boardPackTokenFrom(`#token=${TOKEN}`, "")).toBe(TOKEN);
    expect(boardPackTokenFrom("", `?token=${TOKEN}`)).toBe(TOKEN);
    expect(boardPackTokenFrom(`#token=${TOKEN}.${TOKEN}`, "")).toBe(`${TOKEN}.${TOKEN}`);
    expect(boardPackTokenFrom("#token=short", "")).toBeNull();
    expect(boardPackTokenFrom("#token=a<b>cdefghijklmnopqrstuvwxyz", "")).toBeNull();
  });

  it("the confirmation page says for which group and what, changes nothing until Confirm is pressed, then confirms", async () => {
    const calls = mockApi({ ...shellApi(), "POST /board-pack/confirmations/lookup": PENDING, "POST /board-pack/confirmations/confirm": { ...PENDING, state: "confirmed", expiresAt: null } });
    renderRoutes(routes, `/board-pack/confirm#token=${TOKEN}`);
    expect(await screen.findByRole("heading", { name: "Receive Northwind Holdings Inc.'s board pack?" })).toBeInTheDocument();
    expect(screen.getByText(/jane@northwind\.example, an admin of Northwind Holdings Inc\. on GroupLedger, chose/)).toHaveTextContent(
      "chose director@board.example to receive the group's monthly board pack by email: a PDF of the group's consolidated balance sheet",
    );
    expect(screen.getByText(/mailed on day 3 of each month/)).toBeInTheDocument();
    expect(screen.getByText(/^Nothing is sent to this address unless you confirm\./)).toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith("/board-pack/")).map((c) => c.path)).toEqual(["/board-pack/confirmations/lookup"]);
    expect(calls[calls.length - 1]?.body).toEqual({ token: TOKEN });

    fireEvent.click(screen.getByTestId("board-pack-confirm"));
    expect(await screen.findByTestId("board-pack-confirmed")).toHaveTextContent(
      "director@board.example now receives the board pack of Northwind Holdings Inc. on day 3 of each month. Each email has a link to unsubscribe.",
    );
    expect(calls.find((c) => c.path === "/board-pack/confirmations/confirm")?.body).toEqual({ token: TOKEN });
  });

  it("declines with No, thanks", async () => {
    mockApi({ ...shellApi(), "POST /board-pack/confirmations/lookup": PENDING, "POST /board-pack/confirmations/decline": { ...PENDING, state: "declined", expiresAt: null } });
    renderRoutes(routes, `/board-pack/confirm#token=${TOKEN}`);
    fireEvent.click(await screen.findByRole("button", { name: "No, thanks" }));
    expect(await screen.findByTestId("board-pack-declined")).toHaveTextContent("Nothing will be sent to director@board.example");
  });

  it("explains an expired, used or incomplete link", async () => {
    mockApi({ ...shellApi(), "POST /board-pack/confirmations/lookup": refusal(410, "confirmation_expired", "This confirmation link has expired (links work for 7 days) and nothing is sent to the address.") });
    renderRoutes(routes, `/board-pack/confirm#token=${TOKEN}`);
    expect(await screen.findByRole("alert")).toHaveTextContent("This confirmation link has expired (links work for 7 days)");
  });

  it("explains a link without its token", async () => {
    mockApi({ ...shellApi() });
    renderRoutes(routes, "/board-pack/confirm");
    expect(await screen.findByRole("alert")).toHaveTextContent("The link is not complete. Open the link from the email again");
  });

  it("the unsubscribe page asks first, then unsubscribes", async () => {
    const calls = mockApi({
      ...shellApi(),
      "POST /board-pack/unsubscribe/lookup": { email: "director@board.example", groupName: "Northwind Holdings Inc.", subscribed: true },
      "POST /board-pack/unsubscribe": { email: "director@board.example", groupName: "Northwind Holdings Inc.", subscribed: false },
    });
    renderRoutes(routes, `/board-pack/unsubscribe#token=${TOKEN}.${TOKEN}`);
    expect(await screen.findByRole("heading", { name: "Stop receiving Northwind Holdings Inc.'s board pack?" })).toBeInTheDocument();
    expect(calls.some((c) => c.path === "/board-pack/unsubscribe")).toBe(false);
    fireEvent.click(screen.getByTestId("board-pack-unsubscribe"));
    expect(await screen.findByTestId("board-pack-unsubscribed")).toHaveTextContent("director@board.example no longer receives the board pack of Northwind Holdings Inc.");
  });
});
