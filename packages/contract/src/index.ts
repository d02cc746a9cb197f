export * from "./errors.ts";
export * from "./session.ts";
export * from "./account.ts";
export * from "./system.ts";
export * from "./companies.ts";
export * from "./obal.ts";
export * from "./qbo.ts";
export * from "./mapping.ts";
