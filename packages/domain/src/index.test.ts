import { describe, it, expect } from "vitest";
import * as domain from "./index.ts";

describe("package entry point", () => {
  it("re-exports every module's API", () => {
    const expected = [
      // constants
      "RELEASE_NOTES_VERSION",
      "FRONTEND_RELEASE",
      "IDLE_TIMEOUT_MS",
      "ACTIVITY_DEBOUNCE_MS",
      "DEFAULT_PERMISSION_LEVEL",
      "LAZY_LOAD_TIMEOUT_MS",
      "AUTH_POPUP",
      "AUTH_RETURN_PATH",
      "TOKEN_STORAGE_KEY",
      // email
      "EMAIL_MESSAGE",
      "EMAIL_MAX_LENGTH",
      "emailSchema",
      "normalizeEmail",
      // password
      "LOGIN_PASSWORD_MESSAGE",
      "loginPasswordSchema",
      "PASSWORD_MIN_LENGTH",
      "PASSWORD_MAX_LENGTH",
      "PASSWORD_RULES",
      "PASSWORD_RULE_MESSAGES",
      "passwordRules",
      "passwordProblems",
      "isAcceptableNewPassword",
      "refineNewPassword",
      "newPasswordSchema",
      "credentialsWithNewPasswordSchema",
      // common
      "nonEmptyText",
      "confirmationMatches",
      "CONFIRMATION_MESSAGE",
      "refineConfirmation",
      "confirmPasswordSchema",
      "whenFieldsAreStrings",
      "isBlank",
      "codePointLength",
      // card
      "isValidCardNumber",
      "formatCardNumber",
      "normalizeExpiryMonth",
      "normalizeExpiryYear",
      "isValidCvv",
      "CVV_DEFAULT_LENGTH",
      "CARD_EXPIRY_YEAR_WINDOW",
      "CARD_MESSAGES",
      "passesLuhn",
      // subscription
      "SUBSCRIPTION_STATUSES",
      "parseSubscriptionStatus",
      "subscriptionStatusSchema",
      // session
      "TOKEN_MIN_PARTS",
      "isTokenExpired",
      "decodeTokenPayload",
      "tokenExpiryMs",
      // onboarding
      "ONBOARDING_STEPS",
      "isOnboardingStep",
      "onboardingStepSchema",
      "ONBOARDING_STEP_LABELS",
      // text
      "endSentence",
      // intercompany pairs
      "INTERCOMPANY_PAIR_KINDS",
      "PAIR_KIND_CLASSIFICATIONS",
      "pairKindTakes",
      "checkPairSides",
      "pairSidesFit",
      "overlappingPair",
      "namesWithGroupMembers",
      // CTA account
      "CTA_ACCOUNT_SUBTYPE",
      "ctaSuggestionReason",
    ];
    for (const name of expected) expect(domain, name).toHaveProperty(name);
  });
});
