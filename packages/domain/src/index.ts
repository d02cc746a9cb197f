export * from "./constants.ts";
export * from "./validation/common.ts";
export * from "./validation/email.ts";
export * from "./validation/password.ts";
export * from "./validation/card.ts";
export * from "./validation/subscription.ts";
export * from "./session/token.ts";
export * from "./onboarding/steps.ts";
