import { Anchor, createTheme, darken, type CSSVariablesResolver, type MantineColorsTuple } from "@mantine/core";

/** A deep ledger blue: calm, high-contrast on white, and distinct from the red of the error bar. */
const ledger: MantineColorsTuple = [
  "#eef3fb",
  "#dbe4f3",
  "#b3c7e6",
  "#88a8d9",
  "#658ecf",
  "#4f7ec9",
  "#4376c7",
  "#3464b0",
  "#2b599e",
  "#1e4c8c",
];

export const theme = createTheme({
  primaryColor: "ledger",
  primaryShade: { light: 8, dark: 5 },
  colors: { ledger },
  fontFamily:
    'Inter, "Segoe UI", -apple-system, BlinkMacSystemFont, Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: "650" },
  defaultRadius: "md",
  focusRing: "auto",
  cursorType: "pointer",
  // Links inside sentences must not be told apart by colour alone (WCAG 1.4.1).
  components: { Anchor: Anchor.extend({ defaultProps: { underline: "always" } }) },
});

/**
 * Contrast (WCAG AA 4.5:1, checked by axe-core in apps/web/e2e/a11y.e2e.ts): Mantine's "dimmed"
 * grey (#868e96) is 3.3:1 on white; ours is 6.2:1 and still reads as secondary.
 */
export const contrastVariables: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    "--mantine-color-dimmed": "#5c636a",
    // Light and outline badges, buttons and alerts draw their text in shade 6 (teal is 2.4:1 on its
    // tint); shade 9 darkened by a third reaches 4.5:1 on the tint for every palette (yellow too).
    ...Object.fromEntries(
      LIGHT_COLOURS.flatMap((c) => {
        const shade = t.colors[c]?.[9];
        if (!shade) return [];
        const text = darken(shade, 0.35);
        return [
          [`--mantine-color-${c}-light-color`, text],
          [`--mantine-color-${c}-outline`, text],
        ];
      }),
    ),
  },
  dark: {},
});

const LIGHT_COLOURS = ["ledger", "blue", "teal", "green", "red", "orange", "yellow", "grape", "violet", "indigo", "cyan", "pink", "lime", "gray", "dark"];
