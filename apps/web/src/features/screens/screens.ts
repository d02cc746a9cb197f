import { NAV_ITEMS, type NavItem } from "../navigation/navItems.ts";

/** What each screen that a later release fills in will do, so its empty state can say so plainly. */
export interface PlannedScreenInfo {
  title: string;
  purpose: string;
  /** What the user will do there, in a few short points. */
  will: string[];
}

export const PLANNED_SCREENS: Record<string, PlannedScreenInfo> = {
  "/setup/coa": {
    title: "COA Mapping",
    purpose: "Map each subsidiary's chart of accounts onto the parent's, so every balance lands on the right consolidated line.",
    will: [
      "Map many subsidiary accounts to one parent account, with incompatible classifications refused.",
      "Mark accounts that never carry a balance so they do not hold up completion.",
      "See per company how many accounts are still unmapped.",
    ],
  },
  "/setup/obal": {
    title: "Opening Balance Sheet",
    purpose: "Lock the opening period and post each subsidiary's translated opening trial balance.",
    will: [
      "Choose the month whose closing balances open the consolidation.",
      "Review and confirm each subsidiary's translated trial balance.",
      "Post it to the parent's QuickBooks file as a journal entry.",
    ],
  },
};

/** The navigation entry of a path (for its requirement flags), if it has one. */
export function navItemFor(path: string): NavItem | undefined {
  const all = NAV_ITEMS.flatMap((i) => [i, ...(i.items ?? [])]);
  return all.find((i) => i.path === path);
}
