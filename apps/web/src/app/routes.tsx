import type { RouteObject } from "react-router";
import { Navigate } from "react-router";
import { Guard } from "../features/session/guards.tsx";
import { PublicLayout } from "../features/public/components/PublicLayout.tsx";
import { lazyScreen } from "./lazy.ts";
import { Root } from "./Root.tsx";
import { RouteError } from "./RouteError.tsx";

// Every screen is its own chunk so the login route downloads only what it shows (<= 250 KB gzip).
const LandingPage = lazyScreen(() => import("../features/public/components/LandingPage.tsx").then((m) => m.LandingPage));
const PricingPage = lazyScreen(() => import("../features/public/components/PricingPage.tsx").then((m) => m.PricingPage));
const PrivacyPage = lazyScreen(() => import("../features/public/components/LegalPages.tsx").then((m) => m.PrivacyPage));
const TermsPage = lazyScreen(() => import("../features/public/components/LegalPages.tsx").then((m) => m.TermsPage));
const LoginPage = lazyScreen(() => import("../features/session/components/LoginPage.tsx").then((m) => m.LoginPage));
const SignupPage = lazyScreen(() => import("../features/session/components/SignupPage.tsx").then((m) => m.SignupPage));
const SignupFinishPage = lazyScreen(() =>
  import("../features/session/components/SignupFinishPage.tsx").then((m) => m.SignupFinishPage),
);
const ResetPasswordPage = lazyScreen(() =>
  import("../features/session/components/ResetPasswordPage.tsx").then((m) => m.ResetPasswordPage),
);
const LogoutPage = lazyScreen(() => import("../features/session/components/LogoutPage.tsx").then((m) => m.LogoutPage));
const AppLayout = lazyScreen(() => import("../features/layout/components/AppLayout.tsx").then((m) => m.AppLayout));
const CompaniesPage = lazyScreen(() => import("../features/companies/components/CompaniesPage.tsx").then((m) => m.CompaniesPage));
const ConnectPage = lazyScreen(() => import("../features/companies/components/ConnectPage.tsx").then((m) => m.ConnectPage));
const AuthCompletePage = lazyScreen(() =>
  import("../features/companies/components/AuthCompletePage.tsx").then((m) => m.AuthCompletePage),
);
const PopupPage = lazyScreen(() => import("../features/screens/components/PopupPage.tsx").then((m) => m.PopupPage));

/** SPEC §2, every route. Exported so tests can mount it in a memory router. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      {
        element: <Guard access="public" />,
        children: [
          {
            element: <PublicLayout />,
            errorElement: <RouteError />,
            children: [
              { path: "/", element: <LandingPage /> },
              { path: "/pricing", element: <PricingPage /> },
              { path: "/privacy", element: <PrivacyPage /> },
              { path: "/terms", element: <TermsPage /> },
              { path: "/signup", element: <SignupPage /> },
              { path: "/signupFinish", element: <SignupFinishPage /> },
              { path: "/login", element: <LoginPage /> },
              { path: "/resetPassword", element: <ResetPasswordPage /> },
            ],
          },
        ],
      },
      {
        element: <Guard access="authenticated" />,
        children: [
          { path: "/qbo/auth/complete", element: <AuthCompletePage />, errorElement: <RouteError /> },
          {
            element: <AppLayout />,
            errorElement: <RouteError />,
            children: [
              { path: "/home", element: <Navigate to="/setup" replace /> },
              { path: "/setup", element: <Navigate to="/setup/companies" replace /> },
              { path: "/setup/companies", element: <CompaniesPage /> },
              { path: "/setup/coa", Component: lazyScreen(() => import("../features/mapping/components/MappingPage.tsx").then((m) => m.MappingPage)) },
              { path: "/setup/cta", Component: lazyScreen(() => import("../features/cta/components/CtaPage.tsx").then((m) => m.CtaPage)) },
              { path: "/setup/acquisitions", Component: lazyScreen(() => import("../features/acquisitions/components/AcquisitionsPage.tsx").then((m) => m.AcquisitionsPage)) },
              { path: "/setup/obal", Component: lazyScreen(() => import("../features/obal/components/ObalPage.tsx").then((m) => m.ObalPage)) },
              { path: "/consolidation", element: <Navigate to="/consolidation/run" replace /> },
              { path: "/consolidation/fx_rates", Component: lazyScreen(() => import("../features/fxrates/components/FxRatesPage.tsx").then((m) => m.FxRatesPage)) },
              { path: "/multipleconsolidation/run", Component: lazyScreen(() => import("../features/runs/components/MultiRunPage.tsx").then((m) => m.MultiRunPage)) },
              { path: "/consolidation/run", Component: lazyScreen(() => import("../features/runs/components/SingleRunPage.tsx").then((m) => m.SingleRunPage)) },
              { path: "/consolidation/reports", Component: lazyScreen(() => import("../features/reports/components/ReportsPage.tsx").then((m) => m.ReportsPage)) },
              { path: "/consolidation/reports/cash-flow", Component: lazyScreen(() => import("../features/reports/cash-flow/CashFlowPage.tsx").then((m) => m.CashFlowPage)) },
              { path: "/consolidation/reports/budget", Component: lazyScreen(() => import("../features/reports/budgets/BudgetVsActualPage.tsx").then((m) => m.BudgetVsActualPage)) },
              { path: "/consolidation/reports/equity", Component: lazyScreen(() => import("../features/reports/equity/ChangesInEquityPage.tsx").then((m) => m.ChangesInEquityPage)) },
              { path: "/consolidation/reports/board-pack", Component: lazyScreen(() => import("../features/reports/board-pack/BoardPackPage.tsx").then((m) => m.BoardPackPage)) },
              { path: "/consolidation/reports/segments", Component: lazyScreen(() => import("../features/reports/segments/SegmentsPage.tsx").then((m) => m.SegmentsPage)) },
              { path: "/consolidation/elimination", Component: lazyScreen(() => import("../features/eliminations/components/EliminationsPage.tsx").then((m) => m.EliminationsPage)) },
              { path: "/consolidation/transaction-detail", Component: lazyScreen(() => import("../features/transactionDetail/components/TransactionDetailPage.tsx").then((m) => m.TransactionDetailPage)) },
              { path: "/consolidation/verify", Component: lazyScreen(() => import("../features/verify/components/VerifyPage.tsx").then((m) => m.VerifyPage)) },
              { path: "/settings", Component: lazyScreen(() => import("../features/settings/components/SettingsPage.tsx").then((m) => m.SettingsPage)) },
              { path: "/changePassword", Component: lazyScreen(() => import("../features/settings/components/ChangePasswordPage.tsx").then((m) => m.ChangePasswordPage)) },
            ],
          },
        ],
      },
      // Pop-up windows of the QuickBooks connection flow: no session check (SPEC §2).
      { path: "/setup/connect", element: <ConnectPage />, errorElement: <RouteError /> },
      { path: "/disconnect/*", element: <PopupPage />, errorElement: <RouteError /> },
      { path: "/logout", element: <LogoutPage /> },
      // An invitation link works with or without a session (the invitee may share a browser): no guard.
      // So do a board pack's confirmation and unsubscribe links: their readers are mostly not GroupLedger users.
      {
        element: <PublicLayout />,
        errorElement: <RouteError />,
        children: [
          { path: "/invitation", Component: lazyScreen(() => import("../features/team/components/InvitationPage.tsx").then((m) => m.InvitationPage)) },
          { path: "/board-pack/confirm", Component: lazyScreen(() => import("../features/reports/board-pack/BoardPackLinkPage.tsx").then((m) => m.BoardPackConfirmPage)) },
          { path: "/board-pack/unsubscribe", Component: lazyScreen(() => import("../features/reports/board-pack/BoardPackLinkPage.tsx").then((m) => m.BoardPackUnsubscribePage)) },
        ],
      },
      { path: "*", element: <Navigate to="/" replace /> },
    ],
  },
];
