import { z } from "zod";

/**
 * What a user may do (SPEC §3 permissionLevel, default 0). Higher levels include everything the
 * lower ones may do.
 * - 0 member: view everything, map accounts, keep FX rates and CTA settings, review and confirm
 *   opening balances, run previews, manage their own profile and preferences.
 * - 1 admin: also connect, reconnect, disconnect, archive and remove companies, choose the
 *   parent, sync, lock or reset the opening-balance period, post to QuickBooks, manage the
 *   team and the subscription.
 * The server enforces this on every call (apps/server/src/http/permissions.ts); the web app only
 * mirrors it to disable what would be refused.
 */
export const PERMISSION_LEVELS = { member: 0, admin: 1 } as const;
export type PermissionRole = keyof typeof PERMISSION_LEVELS;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[PermissionRole];

export const permissionLevelSchema = z.union([z.literal(0), z.literal(1)], {
  error: "permissionLevel must be 0 (member) or 1 (admin).",
});

export const PERMISSION_LABELS: Record<PermissionLevel, string> = { 0: "Member", 1: "Admin" };

export const PERMISSION_DESCRIPTIONS: Record<PermissionLevel, string> = {
  0: "Views everything, maps accounts, keeps FX rates and reviews opening balances.",
  1: "Also connects and disconnects companies, posts to QuickBooks and manages the team and billing.",
};

export function isAdmin(user: { permissionLevel: number } | null | undefined): boolean {
  return (user?.permissionLevel ?? 0) >= PERMISSION_LEVELS.admin;
}

/** The words the API and the web app use when a member meets an admin-only action. */
export const ADMIN_ONLY_MESSAGE =
  "Only an admin of your account can do this. Ask an admin to do it, or to make you an admin in Account Settings.";
