import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import { shellApi } from "../../../test/fixtures.ts";
import { readToken } from "../tokenStore.ts";

const CODE_INVALID = "That code is not valid or has expired. Check the latest email from us, or ask for a new code.";

describe("login form", () => {
  it("shows the exact local messages", async () => {
    const calls = mockApi({});
    renderRoutes(routes, "/login");
    await userEvent.click(await screen.findByRole("button", { name: "Log in" }));
    expect(await screen.findByText("Please enter a valid email.")).toBeInTheDocument();
    expect(screen.getByText("Please provide a valid password.")).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("Email"), "not-an-email");
    await userEvent.type(screen.getByLabelText("Password"), "   ");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(screen.getByText("Please enter a valid email.")).toBeInTheDocument();
    expect(screen.getByText("Please provide a valid password.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the server's message on failure", async () => {
    mockApi({ "POST /session/token": refusal(401, "invalid_credentials", "Incorrect email or password.") });
    renderRoutes(routes, "/login");
    await userEvent.type(await screen.findByLabelText("Email"), "a@example.com");
    await userEvent.type(screen.getByLabelText("Password"), "wrong");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Incorrect email or password.");
    expect(readToken()).toBeNull();
  });

  it("saves the token, sends the normalized email and lands on /setup/companies", async () => {
    const token = fakeToken(inOneHour());
    const calls = mockApi({ ...shellApi(), "POST /session/token": { token, expiresAt: "2030-01-01T00:00:00.000Z" } });
    const { router } = renderRoutes(routes, "/login");
    await userEvent.type(await screen.findByLabelText("Email"), "  Controller@Northwind.Example ");
    await userEvent.type(screen.getByLabelText("Password"), "Ledger#2026x");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/setup/companies"));
    expect(readToken()).toBe(token);
    expect(calls.find((c) => c.path === "/session/token")?.body).toEqual({ email: "controller@northwind.example", password: "Ledger#2026x" });
    await waitFor(() => expect(calls.some((c) => c.path === "/session" && c.headers["authorization"] === `Bearer ${token}`)).toBe(true));
  });
});

describe("sign-up form", () => {
  it("ticks the password rules off live and refuses a weak password", async () => {
    const calls = mockApi({});
    renderRoutes(routes, "/signup");
    await userEvent.type(await screen.findByLabelText("Work email"), "jane@example.com");
    await userEvent.type(screen.getByLabelText("Password"), "abc");
    expect(screen.getByText("Password must contain at least one lowercase letter.").closest("li")).toHaveAttribute("data-ok", "true");
    expect(screen.getByText("Password must be at least 8 characters long.").closest("li")).toHaveAttribute("data-ok", "false");
    await userEvent.type(screen.getByLabelText("Password"), "defG1!");
    expect(screen.getByText("Password must be at least 8 characters long.").closest("li")).toHaveAttribute("data-ok", "true");
    expect(screen.getByText("Password must contain at least one uppercase letter.").closest("li")).toHaveAttribute("data-ok", "true");

    await userEvent.clear(screen.getByLabelText("Password"));
    await userEvent.type(screen.getByLabelText("Password"), "Jane12345!x");
    expect(screen.getByText("Password must not contain the part of your email before the @.").closest("li")).toHaveAttribute("data-ok", "false");
    await userEvent.click(screen.getByRole("button", { name: "Create account" }));
    expect(calls).toHaveLength(0);
    expect(await screen.findByText("The two values do not match.")).toBeInTheDocument();
  });

  it("signs up and moves to the validation-code screen with the email", async () => {
    const calls = mockApi({
      "POST /session/signup": { status: 201, body: { email: "jane@example.com", message: "We sent a verification code to your email." } },
    });
    const { router } = renderRoutes(routes, "/signup");
    await userEvent.type(await screen.findByLabelText("Work email"), "Jane@Example.com");
    await userEvent.type(screen.getByLabelText("Password"), "Ledger#2026x");
    await userEvent.type(screen.getByLabelText("Confirm password"), "Ledger#2026x");
    await userEvent.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/signupFinish"));
    expect(calls[0]?.body).toEqual({ email: "jane@example.com", password: "Ledger#2026x" });
    expect(await screen.findByLabelText("Email")).toHaveValue("jane@example.com");
    expect(await screen.findByText("We sent a verification code to your email.")).toBeInTheDocument();
  });
});

describe("validation-code screen", () => {
  it("shows the server's message, clears the email, and clears the error when the code changes", async () => {
    mockApi({ "POST /session/validationcode": refusal(400, "invalid_code", CODE_INVALID) });
    renderRoutes(routes, "/signupFinish?email=jane%40example.com");
    expect(await screen.findByLabelText("Email")).toHaveValue("jane@example.com");
    await userEvent.type(screen.getByLabelText("Verification code"), "abcd-efgh");
    await userEvent.click(screen.getByRole("button", { name: "Verify email" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(CODE_INVALID);
    expect(screen.getByLabelText("Email")).toHaveValue("");
    await userEvent.type(screen.getByLabelText("Verification code"), "x");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("verifies and goes to login with the email filled in", async () => {
    const calls = mockApi({ "POST /session/validationcode": { email: "jane@example.com" } });
    const { router } = renderRoutes(routes, "/signupFinish?email=jane%40example.com");
    await userEvent.type(await screen.findByLabelText("Verification code"), "abcd-efgh");
    await userEvent.click(screen.getByRole("button", { name: "Verify email" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(calls[0]?.body).toEqual({ validationCode: "ABCDEFGH", email: "jane@example.com" });
    expect(await screen.findByLabelText("Email")).toHaveValue("jane@example.com");
    expect(await screen.findByText("Your email is verified. Log in to start setting up your group.")).toBeInTheDocument();
  });

  it("resends a code only for a valid email", async () => {
    const calls = mockApi({ "POST /session/resendcode": { message: "If that email is waiting for verification, we have sent it a new code." } });
    renderRoutes(routes, "/signupFinish");
    await userEvent.click(await screen.findByRole("button", { name: "Send a new code" }));
    expect(await screen.findByText("Please enter a valid email.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Email"), "jane@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Send a new code" }));
    expect(await screen.findByText("If that email is waiting for verification, we have sent it a new code.")).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ email: "jane@example.com" });
  });
});

describe("reset password", () => {
  it("requests a code with the normalized email, then resets with code and new password", async () => {
    const calls = mockApi({
      "POST /session/forgotpassword": { message: "If an account exists for that email, we have sent it a code to reset the password." },
      "POST /session/resetpassword": { message: "Your password has been changed. Please sign in with your new password." },
    });
    const { router } = renderRoutes(routes, "/resetPassword");
    await userEvent.click(await screen.findByRole("button", { name: "Send reset code" }));
    expect(await screen.findByText("Please enter a valid email.")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Email"), " Jane@Example.COM ");
    await userEvent.click(screen.getByRole("button", { name: "Send reset code" }));
    expect(await screen.findByRole("heading", { name: "Set a new password" })).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ email: "jane@example.com" });
    expect(sessionStorage.getItem("passwordResetRequested")).toBe("jane@example.com");
    expect(screen.getByText("If an account exists for that email, we have sent it a code to reset the password.")).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("Reset code"), "abcd-efgh");
    await userEvent.type(screen.getByLabelText("New password"), "short");
    await userEvent.click(screen.getByRole("button", { name: "Set new password" }));
    expect(calls).toHaveLength(1);
    await userEvent.clear(screen.getByLabelText("New password"));
    await userEvent.type(screen.getByLabelText("New password"), "Ledger#2027y");
    await userEvent.type(screen.getByLabelText("Confirm new password"), "Ledger#2027y");
    await userEvent.click(screen.getByRole("button", { name: "Set new password" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(calls[1]?.body).toEqual({ email: "jane@example.com", code: "ABCDEFGH", password: "Ledger#2027y" });
    expect(await screen.findByText("Your password has been changed. Log in with your new password.")).toBeInTheDocument();
  });

  it("shows the server's message when the request fails", async () => {
    mockApi({ "POST /session/forgotpassword": refusal(429, "rate_limited", "Too many attempts. Please wait 3 minutes and try again.") });
    renderRoutes(routes, "/resetPassword");
    await userEvent.type(await screen.findByLabelText("Email"), "jane@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Send reset code" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many attempts. Please wait 3 minutes and try again.");
  });
});
